"""grade_chunk on a record batch of cases, every submission an in-process solver
(pipeline.grade.inprocess.grade_columns), makes the rows grade_batch's general path makes, in
the same order, and hands every case it does not judge itself to grade_batch."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pyarrow as pa
import pytest

import pipeline.grade.engine as batch_mod
from pipeline.grade.engine import grade_batch
from pipeline.grade.inprocess import _sha256_column
from pipeline.grade.job import GradeChunk, grade_chunk
from pipeline.problem.registry import get_problem
from pipeline.program.execution import Limits
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare
from pipeline.schemas import RESULTS_SCHEMA

TIMINGS = {"cpu_ms", "wall_ms", "cpu_ms_runs", "wall_ms_runs"}


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


def _general(limits: Limits, validate: bool, monkeypatch: pytest.MonkeyPatch) -> pa.Table:
    with monkeypatch.context() as m:
        m.setattr(batch_mod, "fast_path_applies", lambda sub, repeat: False)
        return grade_batch(
            get_problem("clocks"),
            _subs(),
            _cases(),
            limits,
            run_id="r",
            attempt=1,
            node="n",
            validate=validate,
        )


def _columns(limits: Limits, validate: bool) -> pa.Table:
    batch = pa.RecordBatch.from_pylist(_cases())
    chunk = GradeChunk("clocks", _subs(), batch, limits, 1, 1, "r", validate)
    return grade_chunk(chunk)


def _strip(table: pa.Table, *, message: bool = True) -> list[dict[str, Any]]:
    rows = table.to_pylist()
    for row in rows:
        row["node"] = "n"  # grade_chunk runs with this host's name outside Ray
        if not message:  # a TLE message quotes the time taken
            row["checker_msg"] = row["checker_msg"] and row["checker_msg"].split(" ")[0]
    return [{k: v for k, v in r.items() if k not in TIMINGS} for r in rows]


@pytest.mark.parametrize("validate", [True, False])
def test_column_rows_equal_general_rows(validate: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    limits = Limits(time_s=10)
    fast = _columns(limits, validate)
    assert fast.schema.equals(RESULTS_SCHEMA, check_metadata=False)
    assert _strip(fast) == _strip(_general(limits, validate, monkeypatch))
    verdicts = {(r["case_id"], r["submission"]): r["verdict"] for r in fast.to_pylist()}
    assert len(verdicts) == fast.num_rows == 2 * len(_cases())
    assert verdicts["wrong", "solver:clocks@2"] == "WA"
    assert verdicts["bad", "solver:clocks@1"] == ("IE" if validate else "RE")
    assert verdicts["noexp", "solver:clocks@2"] == "AC"  # expected filled by the reference
    assert {r["family"] for r in fast.to_pylist() if r["case_id"] == "ok3"} == {""}
    for row in fast.to_pylist():
        if row["verdict"] == "IE":  # never run
            assert row["cpu_ms"] is None and row["cpu_ms_runs"] is None
            continue
        assert row["cpu_ms_runs"] == [row["cpu_ms"]] and row["wall_ms_runs"] == [row["wall_ms"]]
        assert row["cpu_ms"] >= 0 and row["wall_ms"] >= 0


def test_runs_over_the_time_limit_are_graded_by_the_general_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limits = Limits(time_s=1e-9)
    fast = _columns(limits, True)
    general = _general(limits, True, monkeypatch)
    assert _strip(fast, message=False) == _strip(general, message=False)
    assert {r["verdict"] for r in fast.to_pylist() if r["case_id"] != "bad"} == {"TLE"}


def test_an_all_good_batch_has_constant_columns_and_hashes_of_each_output() -> None:
    cases = [c for c in _cases() if c["case_id"].startswith("ok")]
    chunk = GradeChunk(
        "clocks", _subs()[1:], pa.RecordBatch.from_pylist(cases), Limits(), 1, 1, "r"
    )
    rows = grade_chunk(chunk).to_pylist()
    assert [r["case_id"] for r in rows] == [c["case_id"] for c in cases]
    for row, case in zip(rows, cases, strict=True):
        assert row["verdict"] == "AC" and row["run_id"] == "r" and row["batch_size"] == 1
        assert row["output_sha256"] == hashlib.sha256(case["expected"].encode()).hexdigest()
        assert row["output_head"] == case["expected"][:200]


def test_the_hash_column_is_the_sha256_of_each_outputs_utf8_bytes() -> None:
    outputs = ["1 2\n", "é ü\n", None, "1 2\n", "", "x" * 5000, None]
    got = _sha256_column(pa.array(outputs, type=pa.string())).to_pylist()
    want = [None if o is None else hashlib.sha256(o.encode()).hexdigest() for o in outputs]
    assert got == want
