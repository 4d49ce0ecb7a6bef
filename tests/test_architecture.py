"""The layout holds: import-linter's contracts (pyproject.toml) pass on this tree and fail
when a forbidden import is added; no two modules import each other, even through others;
no module of pipeline/ or solvers/ is over 400 lines and no function over 60."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest
from importlinter.api import read_configuration

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("pipeline", "solvers")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` on the packages under `root`, with root's pyproject.toml."""
    code = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"
    return subprocess.run(
        [sys.executable, "-c", code, "--no-cache", "--no-logo", str(root / "pyproject.toml")],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def contract_states(output: str) -> dict[str, str]:
    """Contract name -> KEPT or BROKEN, from lint-imports' summary lines."""
    states = {}
    for line in output.splitlines():
        line = re.sub(r" \(\d+ ignored imports?\)$", "", line)
        name, _, state = line.rpartition(" ")
        if state in ("KEPT", "BROKEN") and name:
            states[name] = state
    return states


def contract_names() -> list[str]:
    config = read_configuration(str(REPO / "pyproject.toml"))
    return [c["name"] for c in config["contracts_options"]]


def test_this_tree_keeps_every_contract() -> None:
    run = lint_imports(REPO)
    assert contract_states(run.stdout) == dict.fromkeys(contract_names(), "KEPT"), run.stdout
    assert run.returncode == 0, run.stdout + run.stderr


# (file, line appended to it, the contract it breaks, what the report must name)
FORBIDDEN = [
    (
        "pipeline/schemas.py",
        "import pipeline.cli",
        "pipeline floors: a package imports only the floors below it",
        "pipeline.schemas -> pipeline.cli",
    ),
    (
        "pipeline/corpus/store.py",
        "import ray",
        "only pipeline.distribute imports ray",
        "pipeline.corpus.store -> ray",
    ),
    (
        "pipeline/grade/runners/program.py",
        "import pipeline.sandbox.launched",
        "only pipeline.program.execute starts sandboxed processes",
        "pipeline.grade.runners.program -> pipeline.sandbox.launched",
    ),
    (
        "solvers/spot/__init__.py",
        "import pipeline.grade",
        "solvers import only pipeline.problem and the bottom floor",
        "solvers.spot -> pipeline.grade",
    ),
    (
        "solvers/spot/io.py",
        "import solvers.spot.check",  # check imports io
        "no cycles between the modules or packages of one package",
        "No cycles are allowed in solvers.spot.",
    ),
]


@pytest.mark.parametrize(("path", "line", "contract", "named"), FORBIDDEN, ids=lambda v: v)
def test_a_forbidden_import_breaks_its_contract(
    tmp_path: Path, path: str, line: str, contract: str, named: str
) -> None:
    for package in PACKAGES:
        shutil.copytree(
            REPO / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    with (tmp_path / path).open("a") as f:
        f.write(f"\n{line}\n")
    run = lint_imports(tmp_path)
    assert run.returncode != 0, run.stdout
    assert contract_states(run.stdout).get(contract) == "BROKEN", run.stdout
    assert named in run.stdout, run.stdout


def test_no_two_modules_import_each_other() -> None:
    """Also between a package's __init__ and its own modules, which acyclic_siblings
    does not see."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    cycles = sorted(
        f"{a} -> {b} -> ... -> {a}"
        for a in graph.modules
        for b in graph.find_modules_directly_imported_by(a)
        if graph.chain_exists(importer=b, imported=a)
    )
    assert cycles == []


def sources() -> Iterator[tuple[str, str]]:
    """(path relative to the repository, text) of every module of PACKAGES."""
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            yield path.relative_to(REPO).as_posix(), path.read_text()


def test_no_module_is_over_the_limit() -> None:
    sizes = {name: len(text.splitlines()) for name, text in sources()}
    assert len(sizes) > 50  # the packages were found
    assert {name: n for name, n in sizes.items() if n > MAX_MODULE_LINES} == {}


def is_typer_command(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    signature = ast.unparse(node.args)
    return "typer.Option(" in signature or "typer.Argument(" in signature


def function_lengths(text: str) -> Iterator[tuple[str, int]]:
    """(qualified name, lines) of every function: from `def` to its last line, or for a
    typer command (whose signature declares the CLI options) its body only."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                start = child.body[0].lineno if is_typer_command(child) else child.lineno
                assert child.end_lineno is not None
                yield f"{prefix}{child.name}", child.end_lineno - start + 1
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            else:
                yield from walk(child, prefix)

    yield from walk(ast.parse(text), "")


def test_function_lengths_count_the_body_of_typer_commands_only() -> None:
    text = "\n".join(
        [
            "def cmd(x: Annotated[int, typer.Option(help='x')] = 1,",
            "        y: int = typer.Argument(2)) -> None:",
            "    a = 1",
            "    b = 2",
            "",
            "def plain(x: int,",
            "          y: int) -> None:",
            "    pass",
            "",
            "class C:",
            "    def method(self) -> None:",
            "        def inner() -> None:",
            "            pass",
        ]
    )
    assert dict(function_lengths(text)) == {
        "cmd": 2,
        "plain": 3,
        "C.method": 3,
        "C.method.inner": 2,
    }


def test_no_function_is_over_the_limit() -> None:
    lengths = {
        f"{name}::{function}": n
        for name, text in sources()
        for function, n in function_lengths(text)
    }
    too_long = {key: n for key, n in lengths.items() if n > MAX_FUNCTION_LINES}
    assert too_long == {}
