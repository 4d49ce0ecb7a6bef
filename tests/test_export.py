"""`gridjudge export`: the package tree and problem.yaml against the 2023-07 format, and
the exported programs run as standalone subprocesses (no gridjudge importable) that
agree with the plugin: the input validator on generated and mutated inputs, the output
validator on right and wrong outputs, the reference solver on the exported answers."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import uuid
from dataclasses import asdict
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.export.bundle import BundleError, bundle
from pipeline.export.kattis import (
    EXAMPLE_FOLDERS,
    ExportError,
    ExportResult,
    example_folder,
    export_problem,
    plain_token_checker,
)
from pipeline.problem.registry import get_problem

PROBLEMS = ("spot", "mine", "tetris", "gomoku", "clocks")
EXAMPLES = Path(__file__).resolve().parents[1] / "datasets" / "examples"
# the 2023-07 format's rules for names inside a package
FILE_NAME = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,253}[a-zA-Z0-9]$")
DIR_NAME = re.compile(r"^[a-zA-Z0-9]([a-zA-Z0-9_-]{0,253}[a-zA-Z0-9])?$")
PROBLEM_KEYS = {
    "problem_format_version", "type", "name", "uuid", "version", "credits", "source",
    "license", "rights_owner", "embargo_until", "limits", "keywords", "languages",
    "allow_file_writing", "constants",
}  # fmt: skip
LIMIT_KEYS = {
    "time_multipliers", "time_limit", "time_resolution", "memory", "output", "code",
    "compilation_time", "compilation_memory", "validation_time", "validation_memory",
    "validation_output", "validation_passes",
}  # fmt: skip
# the standard library alone: no site packages (numpy, or the hook that finds gridjudge)
ISOLATED = {"PATH": os.defpath}
_BUILT: dict[Path, Path] = {}


def command(program: Path) -> list[str]:
    """How a judge runs the program: Python without site packages, C++ compiled once."""
    if program.suffix == ".py":
        return [sys.executable, "-S", str(program)]
    assert program.suffix == ".cpp", program
    if program not in _BUILT:
        if shutil.which("g++") is None:
            pytest.skip("g++ is not installed (needed for the C++ programs of a package)")
        binary = program.with_suffix(".bin")
        subprocess.run(["g++", "-O2", "-o", str(binary), str(program)], check=True)
        _BUILT[program] = binary
    return [str(_BUILT[program])]


def run(program: Path, stdin: bytes, *args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """An exported program, as a judge would run it, where gridjudge cannot be imported."""
    return subprocess.run(
        [*command(program), *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=ISOLATED,
        timeout=60,
    )


def test_gridjudge_is_not_importable_where_the_programs_run(tmp_path: Path) -> None:
    for module in ("pipeline", "solvers"):
        probe = tmp_path / "probe.py"
        probe.write_text(f"import {module}\n")
        assert run(probe, b"", cwd=tmp_path).returncode != 0


@pytest.fixture(scope="module", params=PROBLEMS)
def exported(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> ExportResult:
    name = request.param
    out = tmp_path_factory.mktemp(f"export-{name}") / name
    families = len(get_problem(name).families)
    return export_problem(
        name, out, examples=EXAMPLES / name, seed=7, count=families + 2, samples=2
    )


@pytest.fixture
def package(exported: ExportResult) -> Path:
    return exported.out


def program(exported: ExportResult, role: str) -> Path:
    return exported.out / exported.programs[role]


def test_tree_follows_the_format(exported: ExportResult) -> None:
    package = exported.out
    problem = get_problem(package.name)
    for path in package.rglob("*"):
        rule = DIR_NAME if path.is_dir() else FILE_NAME
        assert rule.match(path.name), path
        if path.is_file() and path.stat().st_size:
            data = path.read_bytes()
            assert data.endswith(b"\n") and b"\r\n" not in data, path
            data.decode("utf-8")
    assert (package / "statement" / "problem.en.md").is_file()
    assert [p for p in (package / "data" / "sample").iterdir() if p.is_dir()] == []
    ins = sorted((package / "data").rglob("*.in"))
    assert len(ins) == len(problem.families) + 2
    assert sorted(p.with_suffix(".in") for p in (package / "data").rglob("*.ans")) == ins
    assert len(list((package / "data" / "sample").glob("*.in"))) == 2
    assert program(exported, "input_validator").parent == package / "input_validators"
    assert program(exported, "reference").parent == package / "submissions" / "accepted"
    custom = "output_validator" in exported.programs
    assert custom == (not plain_token_checker(problem)) == (package / "output_validator").is_dir()
    for path in exported.programs.values():
        assert (package / path).is_file()
    for example in (EXAMPLES / package.name).iterdir():
        assert (package / "submissions" / example_folder(example) / example.name).is_file()


def test_problem_yaml(package: Path) -> None:
    problem = get_problem(package.name)
    meta = yaml.safe_load((package / "problem.yaml").read_text(encoding="utf-8"))
    # the format's keys, and gridjudge's own (other tools ignore it): the named files and
    # the Python its programs need (CPython, not the PyPy verify would run otherwise)
    ours = meta.pop("gridjudge", None)
    named = {k: v for k, v in asdict(problem.io).items() if v is not None}
    assert ours == {**named, "python": "py3"}
    assert set(meta) <= PROBLEM_KEYS and set(meta["limits"]) <= LIMIT_KEYS
    assert meta["problem_format_version"] == "2023-07-draft"
    assert meta["name"] == problem.title
    assert uuid.UUID(meta["uuid"])
    assert meta["limits"]["time_limit"] == problem.limits.time_s
    assert meta["limits"]["memory"] == problem.limits.memory_mb
    assert meta["limits"]["output"] * 1024 >= problem.limits.output_kb


def test_reference_solver_gives_every_answer(exported: ExportResult, tmp_path: Path) -> None:
    for case in sorted((exported.out / "data").rglob("*.in")):
        got = run(program(exported, "reference"), case.read_bytes(), cwd=tmp_path)
        assert got.returncode == 0, got.stderr.decode()[-500:]
        assert got.stdout == case.with_suffix(".ans").read_bytes(), case


def test_input_validator_accepts_every_input(exported: ExportResult, tmp_path: Path) -> None:
    problem = get_problem(exported.problem)
    for case in sorted((exported.out / "data").rglob("*.in")):
        assert problem.validate(case.read_text(encoding="utf-8")) == []
        got = run(program(exported, "input_validator"), case.read_bytes(), cwd=tmp_path)
        assert got.returncode == 42, (case, got.stderr.decode()[-500:])


TOKENS = ("0", "-1", "1", "2", "3", "12", "51", "1001", "x", "o", "+", "-", "ox", "abc", "")


def mutate(text: str, rng: random.Random) -> str:
    """One random edit of an input: a line dropped, repeated or swapped, a token
    replaced, a character inserted, or the text cut short."""
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    kind = rng.randrange(6)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[j])
    elif kind == 2:
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3:
        tokens = lines[i].split(" ")
        tokens[rng.randrange(len(tokens))] = rng.choice(TOKENS)
        lines[i] = " ".join(tokens)
    elif kind == 4:
        k = rng.randrange(len(text) + 1)
        return text[:k] + rng.choice("0159ox+- \n") + text[k:]
    else:
        return text[: rng.randrange(len(text))]
    return "\n".join(lines)


def test_input_validator_agrees_with_the_plugin_on_mutated_inputs(
    exported: ExportResult, tmp_path: Path
) -> None:
    problem = get_problem(exported.problem)
    validator = program(exported, "input_validator")
    rng = random.Random(exported.problem)
    data = exported.out / "data"
    inputs = [p.read_text(encoding="utf-8") for p in sorted(data.rglob("*.in"))]
    invalid = 0
    for _ in range(12):
        text = mutate(rng.choice(inputs), rng)
        errors = problem.validate(text)
        got = run(validator, text.encode(), cwd=tmp_path)
        assert got.returncode == (43 if errors else 42), (text[:300], errors)
        if errors:
            invalid += 1
            assert got.stderr.strip()
            if validator.suffix == ".py":  # the plugin's own validator: its very words
                assert got.stderr.decode().splitlines() == errors
    assert invalid >= 3  # the mutations do break the rules


def wrong_outputs(answer: str, other: str) -> list[str]:
    return [answer, answer.rstrip("\n"), " " + answer, "\n" + answer, answer + "x\n", other, ""]


def test_output_validator_agrees_with_the_plugin(exported: ExportResult, tmp_path: Path) -> None:
    problem, package = get_problem(exported.problem), exported.out
    if plain_token_checker(problem):
        assert not (package / "output_validator").exists()
        return
    validator = program(exported, "output_validator")
    cases = sorted((package / "data").rglob("*.in"))[:4]  # and 7 outputs each
    answers = {p: p.with_suffix(".ans").read_text(encoding="utf-8") for p in cases}
    seen = set()
    for k, case in enumerate(cases):
        answer, other = answers[case], answers[cases[(k + 1) % len(cases)]]
        for n, output in enumerate(wrong_outputs(answer, other)):
            feedback = tmp_path / f"fb{k}-{n}"
            feedback.mkdir()
            args = (str(case), str(case.with_suffix(".ans")), f"{feedback}/")
            got = run(validator, output.encode(), *args, cwd=tmp_path)
            verdict = problem.check(case.read_text(encoding="utf-8"), answer, output).verdict
            seen.add(str(verdict))
            assert got.returncode == (42 if verdict == "AC" else 43), (output, verdict)
            message = feedback / "judgemessage.txt"
            assert message.is_file() == (verdict != "AC")
            if verdict != "AC":
                assert message.read_text(encoding="utf-8").startswith(f"{verdict}: ")
    assert {"AC", "WA", "PE"} <= seen


def test_example_folder_follows_the_names() -> None:
    assert example_folder(Path("wa_counts_empty_board.cpp")) == "wrong_answer"
    assert example_folder(Path("slow_backtracking.cpp")) == "time_limit_exceeded"
    assert example_folder(Path("correct.py")) == "accepted"
    with pytest.raises(ExportError, match="known prefixes"):
        example_folder(Path("mystery.cpp"))
    assert set(EXAMPLE_FOLDERS.values()) <= {
        "accepted", "wrong_answer", "time_limit_exceeded", "run_time_error"
    }  # fmt: skip


def test_cli_exports_and_refuses_in_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "clocks"
    result = runner.invoke(app, ["export", "clocks", "--out", str(out), "--count", "10"])
    assert result.exit_code == 0, result.output
    assert "1 sample" not in result.output and "3 sample and 7 secret cases" in result.output
    assert (out / "submissions" / "accepted" / "correct.cpp").is_file()
    again = runner.invoke(app, ["export", "clocks", "--out", str(out), "--count", "10"])
    assert again.exit_code == 2 and "not empty" in again.output
    bad = runner.invoke(app, ["export", "clocks", "--out", str(tmp_path / "My_Pkg")])
    assert bad.exit_code == 2 and "lowercase letters and digits" in bad.output
    unknown = runner.invoke(app, ["export", "nosuch", "--out", str(tmp_path / "x")])
    assert unknown.exit_code == 2 and len(unknown.output.strip().splitlines()) == 1


def test_bundle_embeds_only_what_the_functions_import() -> None:
    gomoku = get_problem("gomoku")
    b = bundle([("check", gomoku.check), ("validate", gomoku.validate)])
    assert {"pipeline.problem.checkers", "pipeline.schemas", "solvers.gomoku.check"} <= set(
        b.sources
    )
    assert "solvers.gomoku" not in b.sources and "solvers.gomoku.generate" not in b.sources
    assert "pyarrow" not in b.sources["pipeline.schemas"]  # the shim: Verdict alone
    assert {"pipeline", "solvers", "solvers.gomoku"} <= set(b.packages)
    with pytest.raises(BundleError, match="cannot be imported by name"):
        bundle([("f", lambda text: text)])


def test_mine_validator_agrees_on_random_boards(tmp_path: Path) -> None:
    """mine's validator is written for the package (C++): random small boards, most of
    them breaking the guarantee or listing a mine twice, judged as the plugin does."""
    mine = get_problem("mine")
    out = tmp_path / "mine"
    result = export_problem("mine", out, count=len(mine.families), samples=0)
    validator = program(result, "input_validator")
    rng = random.Random(5)
    outcomes = set()
    for _ in range(60):
        n, m = rng.randint(1, 6), rng.randint(1, 6)
        cells = [(rng.randrange(n), rng.randrange(m)) for _ in range(rng.randint(0, n * m))]
        text = f"1\n{n} {m} {len(cells)}\n" + "".join(f"{x} {y}\n" for x, y in cells)
        valid = mine.validate(text) == []
        outcomes.add(valid)
        assert run(validator, text.encode(), cwd=tmp_path).returncode == (42 if valid else 43), text
    assert outcomes == {True, False}
