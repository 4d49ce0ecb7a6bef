"""grade.verdict and grade.rows: the verdict order and the shape of result rows (pure, no
processes)."""

from __future__ import annotations

import signal

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.grade import rows
from pipeline.grade.rows import RowContext
from pipeline.grade.verdict import judge
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.contract import CaseOutcome
from pipeline.program.submission import PreparedSubmission
from pipeline.schemas import RESULTS_SCHEMA, Verdict
from tests._fake_problem import make_problem

PROBLEM = make_problem()
LIMITS = Limits.from_seconds(1.0, memory_mb=64)
CASE = {"case_id": "c1", "family": "random", "input": "1 2\n", "expected": "3\n"}


def _sub(compile_error: str | None = None) -> PreparedSubmission:
    return PreparedSubmission(
        label="x.c",
        sha="abc",
        kind="source",
        problem="sum",
        io=PROBLEM.io,
        compile_error=compile_error,
    )


def _ok(output: bytes = b"3\n") -> ExecutionResult:
    return ExecutionResult(exit_code=0, output=output, cpu_ms=5, wall_ms=7, peak_rss_kb=900)


def test_correct_output_is_ac_and_wrong_is_wa() -> None:
    assert judge(PROBLEM, "1 2\n", "3\n", _ok(), LIMITS).verdict == Verdict.AC
    wrong = judge(PROBLEM, "1 2\n", "3\n", _ok(b"4\n"), LIMITS)
    assert wrong.verdict == Verdict.WA
    assert "4" in wrong.message


def test_runtime_error_names_exit_code_and_signal() -> None:
    exited = judge(PROBLEM, "", "3", ExecutionResult(exit_code=3, stderr_head=b"boom\n"), LIMITS)
    assert exited.verdict == Verdict.RE
    assert "exit code 3" in exited.message and "boom" in exited.message
    killed = judge(PROBLEM, "", "3", ExecutionResult(signal=signal.SIGSEGV), LIMITS)
    assert killed.verdict == Verdict.RE and "SIGSEGV" in killed.message


FLAGS = ["cpu_exceeded", "wall_exceeded", "memory_exceeded", "output_exceeded"]


@settings(max_examples=60, deadline=None)
@given(
    flags=st.sets(st.sampled_from(FLAGS)),
    crashed=st.booleans(),
    judge_failed=st.booleans(),
    right=st.booleans(),
)
def test_verdict_order(flags: set[str], crashed: bool, judge_failed: bool, right: bool) -> None:
    result = _ok(b"3" if right else b"5")
    for flag in flags:
        setattr(result, flag, True)
    if crashed:
        result.exit_code = None
        result.signal = signal.SIGKILL
    if judge_failed:
        result.judge_error = "sandbox broke"
    got = judge(PROBLEM, "1 2", "3", result, LIMITS).verdict
    if judge_failed:
        expected = Verdict.JE
    elif {"cpu_exceeded", "wall_exceeded"} & flags:
        expected = Verdict.TLE
    elif "memory_exceeded" in flags:
        expected = Verdict.MLE
    elif "output_exceeded" in flags:
        expected = Verdict.OLE
    elif crashed:
        expected = Verdict.RE
    else:
        expected = Verdict.AC if right else Verdict.WA
    assert got == expected


def test_missing_expected_and_checker_crash_are_judge_errors() -> None:
    assert judge(PROBLEM, "1", None, _ok(), LIMITS).verdict == Verdict.JE

    def broken(i: str, e: str, a: str):  # type: ignore[no-untyped-def]
        raise KeyError("x")

    import dataclasses

    bad = dataclasses.replace(PROBLEM, check=broken)
    got = judge(bad, "1", "3", _ok(), LIMITS)
    assert got.verdict == Verdict.JE and "KeyError" in got.message


def _table(graded: pa.Table, sub: PreparedSubmission) -> list[dict[str, object]]:
    case_id, family = pa.array([CASE["case_id"]]), pa.array([CASE["family"]])
    context = RowContext("r", "sum", 1, "n1")
    return rows.results_table(case_id, family, [sub], [graded], context).to_pylist()


def test_a_run_makes_one_row_of_the_results_schema() -> None:
    check = judge(PROBLEM, "1 2\n", "3\n", _ok(b"4\n"), LIMITS)
    (row,) = _table(rows.from_runs([CaseOutcome(_ok(b"4\n"), check)]), _sub())
    assert list(row) == RESULTS_SCHEMA.names
    assert row["verdict"] == "WA" and row["submission"] == "x.c" and row["submission_sha"] == "abc"
    assert row["cpu_ms_runs"] == [5.0] and row["wall_ms_runs"] == [7.0]
    assert row["output_head"] == "4\n" and len(row["output_sha256"]) == 64
    assert row["run_id"] == "r" and row["node"] == "n1" and row["attempt"] == 1


@pytest.mark.parametrize("kind", ["IE", "CE"])
def test_rows_of_cases_not_run(kind: str) -> None:
    message = "bad N" if kind == "IE" else "x.c:1: error: expected ';'" + "!" * 600
    (row,) = _table(rows.from_verdicts([kind], [message]), _sub())
    assert row["verdict"] == kind and row["checker_msg"] == message  # CE keeps all of it
    assert list(row) == RESULTS_SCHEMA.names
    assert row["cpu_ms"] is None and row["cpu_ms_runs"] is None and row["batch_size"] == 1


def test_over_each_limit_and_the_verdict_order() -> None:
    limits = Limits(cpu_ms=100, memory_mb=1, wall_ms=200, output_kb=1)
    everything = ExecutionResult(
        exit_code=1, cpu_ms=150, wall_ms=250, peak_rss_kb=2048, output=b"x" * 2000
    )
    order = []
    for _ in range(5):
        check = judge(PROBLEM, "1 2\n", "3\n", everything, limits)
        order.append(str(check.verdict))
        if check.verdict == Verdict.TLE and everything.cpu_ms > 100:
            everything.cpu_ms = 50
        elif check.verdict == Verdict.TLE:
            everything.wall_ms = 100
        elif check.verdict == Verdict.MLE:
            everything.peak_rss_kb = 10
        elif check.verdict == Verdict.OLE:
            everything.output = b"3\n"
    assert order == ["TLE", "TLE", "MLE", "OLE", "RE"]
