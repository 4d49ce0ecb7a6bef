"""The checker protocols as verdicts (pure: a checker's run -> the case's verdict), and
validator flags per test data folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.package.programs import checker_verdict
from pipeline.problem.registry import get_problem
from pipeline.program.execution import ExecutionResult

PACKAGES = Path(__file__).resolve().parent / "packages"


def run(exit_code: int | None = 0, **fields: object) -> ExecutionResult:
    return ExecutionResult(exit_code=exit_code, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("protocol", "result", "verdict", "says"),
    [
        ("kattis", run(42), "AC", ""),
        ("kattis", run(43, output=b"sum is 6\n  not 5\n"), "WA", "sum is 6 not 5"),
        ("kattis", run(0), "JE", "exit code 0"),
        ("kattis", run(1, stderr_head=b"Traceback\nKeyError: 3\n"), "JE", "KeyError: 3"),
        ("kattis", run(None, signal=11), "JE", "signal 11"),
        ("kattis", run(42, cpu_exceeded=True), "JE", "ran out of time"),
        ("kattis", run(42, memory_exceeded=True), "JE", "ran out of memory"),
        ("kattis", run(42, judge_error="no launcher"), "JE", "no launcher"),
        ("testlib", run(0), "AC", ""),
        ("testlib", run(1, stderr_head=b"wrong answer 1st numbers differ"), "WA", "differ"),
        ("testlib", run(2, stderr_head=b"wrong output format"), "PE", "format"),
        ("testlib", run(4), "PE", ""),
        ("testlib", run(8), "PE", ""),
        ("testlib", run(3, stderr_head=b"answer is bad"), "JE", "FAIL: answer is bad"),
        ("testlib", run(7, stderr_head=b"points 0.5"), "WA", "partial points: points 0.5"),
        ("testlib", run(42), "JE", "exit code 42"),
        ("testlib", run(0, wall_exceeded=True), "JE", "ran out of time"),
    ],
)
def test_protocol_verdicts(protocol: str, result: ExecutionResult, verdict: str, says: str) -> None:
    check = checker_verdict(protocol, result)
    assert str(check.verdict) == verdict
    assert says in check.message


def test_output_validator_flags_per_test_data_folder(tmp_path: Path) -> None:
    """problem.yaml's flags, then each folder's testdata.yaml's (inherited by sub-folders)."""
    package = Path(shutil.copytree(PACKAGES / "average", tmp_path / "p", symlinks=True))
    for name in ("2.in", "2.ans"):
        (package / "data/secret" / name).unlink()
    (package / "data/secret/group").mkdir()
    (package / "data/secret/group/1.in").write_text("5 6\n")
    (package / "data/secret/group/1.ans").write_text("5.5\n")
    (package / "data/secret/testdata.yaml").write_text(
        "output_validator_flags: float_absolute_tolerance 0.01\n"
    )
    problem = get_problem(str(package))
    off = {"1 2\n": "1.5\n", "3 4\n": "3.5\n", "5 6\n": "5.5\n"}
    got = {i: str(problem.check(i, a, f"{float(a) + 0.005}\n").verdict) for i, a in off.items()}
    # sample: problem.yaml's 1e-6; secret and its group: 1e-6 then 0.01 (the later wins)
    assert got == {"1 2\n": "WA", "3 4\n": "AC", "5 6\n": "AC"}
    # a case from elsewhere gets problem.yaml's flags
    assert str(problem.check("7 8\n", "7.5\n", "7.505\n").verdict) == "WA"
