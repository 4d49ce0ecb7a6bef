"""`gridjudge export`: a built-in problem as a Kattis problem package (2023-07 format).

The package holds a generated corpus, one case per file (`data/sample`,
`data/secret/<family>/`, answers from the reference solver); the input validator, the
output validator where the checker is not plain token comparison (else the format's
default validator judges) and the reference solver as an accepted submission, each a
standalone program made of the plugin's own functions (bundle.py) or, where those
need libraries a judge may lack, written for the package (programs/PROBLEM/:
mine's, in C++); and the example submissions of datasets/examples in the folders of the
verdicts their names promise.

A built-in interactive problem (`Problem.judge_program`) is exported as `type:
interactive` with its judge program as the interactor in `output_validator/`, and a
reference written for the package (programs/PROBLEM/reference.*) that plays the exchange.
In the 2023-07 format a custom output validator is the program in `output_validator/`
(the legacy `validation: custom` key is not part of this version's problem.yaml).
Every input is read from stdin: a problem whose plugin reads a named file (clocks)
is exported with stdin/stdout, which its plugin also accepts; its named files are kept
under problem.yaml's `gridjudge:` key (which other tools ignore), so that gridjudge
grades a program that uses them as the plugin does. The same key says `python: py3`:
the exported Python programs need CPython 3.10 or later, where `verify` would otherwise
run a package's Python submissions under PyPy 3 (Debian's is Python 3.9) as problemtools
does.
"""

from __future__ import annotations

import re
import shutil
import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import Any

import yaml

from pipeline.corpus.generate import generate_chunk, plan_chunks
from pipeline.errors import GridjudgeError
from pipeline.export.bundle import program, template
from pipeline.private import FILE_MODE, private_dir, private_writer, write_private
from pipeline.problem.checkers import token_check
from pipeline.problem.contract import Problem
from pipeline.problem.registry import get_problem

FORMAT_VERSION = "2023-07-draft"
DEFAULT_SEED = 0
DEFAULT_CASES_PER_FAMILY = 20  # when no count is given
DEFAULT_SAMPLES = 3  # case 0 of the first families goes to data/sample
# example file name prefix -> submissions/ folder (datasets/examples names the verdict)
EXAMPLE_FOLDERS = {
    "correct": "accepted",
    "wa": "wrong_answer",
    "slow": "time_limit_exceeded",
    "tle": "time_limit_exceeded",
    "rte": "run_time_error",
}
PACKAGE_NAME = re.compile(r"^[a-z0-9]+$")  # the spec's rule for the package folder
# where the programs go (the suffix follows the program's language)
INPUT_VALIDATOR = "input_validators/validate"
OUTPUT_VALIDATOR = "output_validator/validate"
REFERENCE = "submissions/accepted/reference"


class ExportError(GridjudgeError):
    """The package cannot be written; one line for the user."""


@dataclass(frozen=True)
class ExportResult:
    out: Path
    problem: str
    samples: int
    secret: int
    programs: dict[str, str]  # input_validator, reference, output_validator -> path
    submissions: dict[str, list[str]] = field(default_factory=dict)  # folder -> file names


def plain_token_checker(problem: Problem) -> bool:
    """Whether the format's default output validator judges as the plugin does."""
    return problem.check is token_check


def cases(problem: Problem, count: int, seed: int) -> list[dict[str, Any]]:
    """The rows of a generated corpus, in corpus order (pipeline.corpus.generate)."""
    rows: list[dict[str, Any]] = []
    for chunk in plan_chunks(problem, count, seed):
        rows.extend(generate_chunk(chunk, problem))
    return rows


def split_samples(
    rows: Sequence[dict[str, Any]], samples: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(sample, secret): case 0 of each of the first `samples` families is a sample."""
    firsts = [r for r in rows if r["case_id"] == f"{r['family']}/{0:07d}"][: max(0, samples)]
    chosen = {r["case_id"] for r in firsts}
    return firsts, [r for r in rows if r["case_id"] not in chosen]


EXPORTED_PYTHON = "py3"  # CPython: the embedded plugin modules use Python 3.10


def problem_yaml(problem: Problem) -> dict[str, Any]:
    limits = problem.limits
    io = {k: v for k, v in asdict(problem.io).items() if v is not None}
    return {
        "problem_format_version": FORMAT_VERSION,
        "name": problem.title,
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"gridjudge:problem:{problem.name}")),
        "limits": {
            "time_limit": limits.time_s,
            "memory": limits.memory_mb,
            "output": -(-limits.output_kb // 1024),  # MiB, rounded up
        },
        # for gridjudge alone: the named files, and the Python its programs are written for
        "gridjudge": {**io, "python": EXPORTED_PYTHON},
        # a built-in interactive problem: its judge program is the package's interactor
        **({"type": "interactive"} if problem.judge_program is not None else {}),
    }


def _write(path: Path, text: str, executable: bool = False) -> None:
    write_private(private_dir(path.parent) / path.name, text)
    if executable:
        path.chmod(FILE_MODE | 0o100)  # the owner's execute bit: private still


def _write_case(folder: Path, stem: str, row: dict[str, Any]) -> None:
    _write(folder / f"{stem}.in", row["input"])
    _write(folder / f"{stem}.ans", row["expected"])


def write_data(out: Path, sample: list[dict[str, Any]], secret: list[dict[str, Any]]) -> None:
    """data/sample/<family>-<i>.{in,ans} (no groups there) and data/secret/<family>/<i>."""
    for row in sample:
        _write_case(out / "data" / "sample", row["case_id"].replace("/", "-"), row)
    for row in secret:
        family, index = row["case_id"].split("/")
        _write_case(out / "data" / "secret" / family, index, row)


def hand_written(problem: str, role: str) -> Path | None:
    """A program written for the package (programs/PROBLEM/ROLE.*), where the
    plugin's own code cannot run standalone (it needs libraries a judge may lack)."""
    folder = files("pipeline.export") / "programs" / problem
    found = [f for f in folder.iterdir() if f.name.split(".")[0] == role] if folder.is_dir() else []
    return Path(str(found[0])) if found else None


def _place(out: Path, stem: str, problem: str, make: Callable[[], str]) -> str:
    """Write the program at `stem` (+ suffix): the hand-written one, else `make()`'s."""
    own = hand_written(problem, Path(stem).name)
    rel = stem + ("".join(own.suffixes) if own else ".py")
    _write(out / rel, own.read_text(encoding="utf-8") if own else make(), executable=own is None)
    return rel


def write_programs(out: Path, problem: Problem) -> dict[str, str]:
    """The validators and the reference solver: role -> path in the package."""
    name = problem.name
    if problem.default_solver is None:
        raise ExportError(f"{name} has no reference solver to export")
    solver = problem.solvers[problem.default_solver]
    placed = {
        "input_validator": _place(
            out,
            INPUT_VALIDATOR,
            name,
            lambda: program(
                name,
                "Input validator: exit 42 valid, 43 invalid (reasons on stderr).",
                [("validate", problem.validate)],
                "input_validator.py.tmpl",
            ),
        ),
        "reference": _place(
            out,
            REFERENCE,
            name,
            lambda: program(
                name,
                f"Reference solver (version {problem.default_solver}).",
                [("parse", problem.parse), ("solve", solver), ("format_output", problem.format)],
                "solver.py.tmpl",
            ),
        ),
    }
    if problem.judge_program is not None:  # the interactor: the plugin's own program
        rel = f"{Path(OUTPUT_VALIDATOR).parent}/{problem.judge_program.name}"
        _write(out / rel, problem.judge_program.read_text(encoding="utf-8"), executable=True)
        placed["output_validator"] = rel
    elif not plain_token_checker(problem):
        placed["output_validator"] = _place(
            out,
            OUTPUT_VALIDATOR,
            name,
            lambda: program(
                name,
                "Output validator: `validate input answer feedback_dir < output`, "
                "exit 42 accepted, 43 wrong (judgemessage.txt says why).",
                [("check", problem.check)],
                "output_validator.py.tmpl",
            ),
        )
    return placed


def example_folder(path: Path) -> str:
    prefix = path.stem.split("_")[0]
    if prefix not in EXAMPLE_FOLDERS:
        raise ExportError(
            f"{path}: cannot tell the verdict of this example from its name "
            f"(known prefixes: {', '.join(EXAMPLE_FOLDERS)})"
        )
    return EXAMPLE_FOLDERS[prefix]


def copy_examples(out: Path, examples: Path | None, reference: str) -> dict[str, list[str]]:
    """The examples of the problem (examples/<problem>/*) into submissions/<verdict>/."""
    placed: dict[str, list[str]] = {"accepted": [reference]}
    if examples is None or not examples.is_dir():
        return placed
    for path in sorted(p for p in examples.iterdir() if p.is_file()):
        folder = example_folder(path)
        target = out / "submissions" / folder / path.name
        if target.exists():
            raise ExportError(f"{path}: {target.relative_to(out)} exists already")
        private_dir(target.parent)
        with path.open("rb") as source, private_writer(target) as sink:
            shutil.copyfileobj(source, sink)
        placed.setdefault(folder, []).append(path.name)
    return placed


def check_out(out: Path) -> None:
    if not PACKAGE_NAME.match(out.name):
        raise ExportError(
            f"package folder name {out.name!r}: the format wants lowercase letters and digits only"
        )
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ExportError(f"output folder {out} is not empty")


def export_problem(
    name: str,
    out: Path,
    *,
    examples: Path | None = None,
    seed: int = DEFAULT_SEED,
    count: int | None = None,
    samples: int = DEFAULT_SAMPLES,
) -> ExportResult:
    """Write problem `name` as a package into the new folder `out`; `examples` is the
    folder of its example submissions (datasets/examples/<name>), if any."""
    problem = get_problem(name)
    out = Path(out)
    check_out(out)
    total = count if count is not None else DEFAULT_CASES_PER_FAMILY * len(problem.families)
    sample, secret = split_samples(cases(problem, total, seed), samples)
    if not secret:
        raise ExportError(f"{total} cases leave none for data/secret after {len(sample)} samples")
    private_dir(out)
    write_data(out, sample, secret)
    text = yaml.safe_dump(problem_yaml(problem), sort_keys=False, allow_unicode=True)
    _write(out / "problem.yaml", text)
    io_note = (
        f" (The original task reads {problem.io.describe()}; this package uses stdin/stdout.)"
        if problem.io.input_file or problem.io.output_file
        else ""
    )
    statement = Template(template("statement.md.tmpl")).substitute(
        title=problem.title, problem=problem.name, io_note=io_note
    )
    _write(out / "statement" / "problem.en.md", statement)
    programs = write_programs(out, problem)
    placed = copy_examples(out, examples, Path(programs["reference"]).name)
    return ExportResult(out, problem.name, len(sample), len(secret), programs, placed)
