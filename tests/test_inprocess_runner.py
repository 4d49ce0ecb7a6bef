"""The in-process runner (reference solvers called in the grading process): rows by the
one verdict function, from a record batch or from case rows alike, and no case called more
than twice (once for its answer, at most once more for its CPU time)."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Any

import pyarrow as pa
import pytest

from pipeline.grade import rows
from pipeline.grade.engine import grade_cases
from pipeline.grade.rows import RowContext
from pipeline.grade.runners.inprocess import execution_result
from pipeline.grade.settings import GradeSettings
from pipeline.grade.task import GradeChunk, grade_chunk
from pipeline.grade.verdict import judge
from pipeline.limits import Limits
from pipeline.problem.registry import get_problem
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare
from pipeline.schemas import RESULTS_SCHEMA

TIMINGS = {"cpu_ms", "wall_ms", "cpu_ms_runs", "wall_ms_runs", "node"}
CONTEXT = RowContext("r", "clocks", 1, "n")


def _cases() -> list[dict[str, Any]]:
    problem = get_problem("clocks")
    rng = random.Random(5)
    cases: list[dict[str, Any]] = []
    for i in range(7):
        text = problem.generate(rng, problem.families[i % len(problem.families)])
        family = None if i == 3 else f"fam{i % 2}"
        cases.append(
            {"case_id": f"ok{i}", "family": family, "input": text, "expected": problem.solve(text)}
        )
    right = cases[0]["input"]
    cases.insert(2, {"case_id": "wrong", "family": "f", "input": right, "expected": "no such\n"})
    cases.insert(4, {"case_id": "bad", "family": "g", "input": "not clocks\n", "expected": "1\n"})
    cases.append({"case_id": "noexp", "family": "h", "input": right, "expected": None})
    return cases


def _subs() -> list[PreparedSubmission]:
    problem = get_problem("clocks")
    return [prepare(parse_spec(s), problem) for s in ("solver:clocks@1", "solver:clocks@2")]


def _oracle(limits: Limits, validate: bool) -> list[dict[str, Any]]:
    """Each row as the verdict function gives it for a direct call of the solver."""
    problem = get_problem("clocks")
    out = []
    for case in _cases():
        for sub in _subs():
            text = case["input"]
            if validate and problem.validate(text):
                out.append({"case_id": case["case_id"], "verdict": "IE"})
                continue
            try:
                answer: Any = problem.solve(text, sub.version)
            except Exception as exc:
                answer = exc
            result = execution_result(answer, 0.0, 0.0, limits)
            expected = case["expected"] if case["expected"] is not None else problem.solve(text)
            check = judge(problem, text, expected, result, limits)
            out.append(
                {
                    "case_id": case["case_id"],
                    "verdict": str(check.verdict),
                    "checker_msg": rows.message(check),
                    "exit_code": result.exit_code,
                    "output_sha256": hashlib.sha256(result.output).hexdigest(),
                    "output_head": rows.output_head(result.output),
                }
            )
    return out


def _graded(limits: Limits, validate: bool, batch: bool) -> pa.Table:
    cases: Any = pa.RecordBatch.from_pylist(_cases()) if batch else _cases()
    return grade_cases(
        get_problem("clocks"), _subs(), cases, limits, CONTEXT, validate=validate
    ).table


@pytest.mark.parametrize("validate", [True, False])
def test_rows_are_the_verdict_functions_on_each_call(validate: bool) -> None:
    table = _graded(Limits.from_seconds(10), validate, batch=True)
    assert table.schema.equals(RESULTS_SCHEMA, check_metadata=False)
    got = table.to_pylist()
    want = _oracle(Limits.from_seconds(10), validate)
    assert [{k: r[k] for k in w} for r, w in zip(got, want, strict=True)] == want
    verdicts = {(r["case_id"], r["submission"]): r["verdict"] for r in got}
    assert verdicts["wrong", "solver:clocks@2"] == "WA"
    assert verdicts["bad", "solver:clocks@1"] == ("IE" if validate else "RE")
    assert verdicts["noexp", "solver:clocks@2"] == "AC"  # expected filled by the reference
    assert {r["family"] for r in got if r["case_id"] == "ok3"} == {""}
    for row in got:
        if row["verdict"] == "IE":  # never run
            assert row["cpu_ms"] is None and row["cpu_ms_runs"] is None
            continue
        assert row["cpu_ms_runs"] == [row["cpu_ms"]] and row["wall_ms_runs"] == [row["wall_ms"]]
        assert row["cpu_ms"] >= 0 and row["wall_ms"] >= 0


def test_a_record_batch_and_case_rows_give_the_same_rows() -> None:
    def strip(table: pa.Table) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k not in TIMINGS} for r in table.to_pylist()]

    limits = Limits.from_seconds(10)
    assert strip(_graded(limits, True, batch=True)) == strip(_graded(limits, True, batch=False))


def test_runs_over_the_time_limit_are_tle_with_the_time_taken() -> None:
    got = _graded(Limits.from_seconds(1e-9), True, batch=True).to_pylist()
    assert {r["verdict"] for r in got if r["case_id"] != "bad"} == {"TLE"}
    assert all(r["checker_msg"].startswith("cpu ") for r in got if r["verdict"] == "TLE")


def test_a_failing_case_is_called_at_most_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = get_problem("clocks")
    calls: Counter[str] = Counter()
    real = problem.answerer

    def counting(version: str | None = None) -> Any:
        answer = real(version)

        def call(text: str) -> str:
            calls[text] += 1
            return answer(text)

        return call

    monkeypatch.setattr(type(problem), "answerer", lambda self, version=None: counting(version))
    cases = [c for c in _cases() if c["case_id"] in ("bad", "ok0", "ok1")]
    for limits in (Limits.from_seconds(10), Limits.from_seconds(1e-9)):
        calls.clear()
        grade_cases(problem, _subs()[:1], cases, limits, CONTEXT, validate=False)
        assert calls and max(calls.values()) <= 2, calls


def test_an_all_good_chunk_has_constant_columns_and_hashes_of_each_output() -> None:
    cases = [c for c in _cases() if c["case_id"].startswith("ok")]
    chunk = GradeChunk(
        "clocks", _subs()[1:], pa.RecordBatch.from_pylist(cases), Limits(), GradeSettings(), "r"
    )
    got = grade_chunk(chunk).to_pylist()
    assert [r["case_id"] for r in got] == [c["case_id"] for c in cases]
    for row, case in zip(got, cases, strict=True):
        assert row["verdict"] == "AC" and row["run_id"] == "r" and row["batch_size"] == 1
        assert row["output_sha256"] == hashlib.sha256(case["expected"].encode()).hexdigest()
        assert row["output_head"] == case["expected"][:200]
        assert row["exit_code"] == 0 and row["peak_rss_kb"] == 0 and row["signal"] is None


def test_the_hash_column_is_the_sha256_of_each_outputs_utf8_bytes() -> None:
    outputs = ["1 2\n", "é ü\n", None, "1 2\n", "", "x" * 5000, None]
    got = rows.sha256_column(pa.array(outputs, type=pa.string())).to_pylist()
    want = [None if o is None else hashlib.sha256(o.encode()).hexdigest() for o in outputs]
    assert got == want


def test_a_repeated_solver_keeps_every_timing() -> None:
    cases = [c for c in _cases() if c["case_id"].startswith("ok")][:2]
    settings = GradeSettings(repeat=3)
    limits = Limits.from_seconds(10)
    got = grade_cases(
        get_problem("clocks"), _subs(), cases, limits, CONTEXT, settings=settings
    ).table.to_pylist()
    assert [r["verdict"] for r in got] == ["AC"] * 4
    assert all(len(r["cpu_ms_runs"]) == 3 and r["reference_ms"] > 0 for r in got)
