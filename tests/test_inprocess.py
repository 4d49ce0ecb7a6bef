"""The in-process fast path of grade_batch (pipeline.grade.inprocess) makes exactly the rows
the general path (PreparedSubmission.run + grading.judge + result_row) makes, and hands
failing runs to the general path."""

from __future__ import annotations

import random
from typing import Any

import pytest

import pipeline.grade.engine as batch_mod
from pipeline.grade.engine import grade_batch
from pipeline.problem.registry import get_problem
from pipeline.program.execution import Limits
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare
from pipeline.schemas import RESULTS_SCHEMA

TIMINGS = {"cpu_ms", "wall_ms", "cpu_ms_runs", "wall_ms_runs"}


def _cases() -> list[dict[str, Any]]:
    problem = get_problem("clocks")
    rng = random.Random(3)
    cases: list[dict[str, Any]] = []
    for i in range(6):
        text = problem.generate(rng, problem.families[i % len(problem.families)])
        cases.append({"case_id": f"ok{i}", "family": "f", "input": text, "expected": None})
    right = cases[0]["input"]
    cases.append({"case_id": "wrong", "family": "f", "input": right, "expected": "no such\n"})
    cases.append({"case_id": "crash", "family": "g", "input": "not clocks\n", "expected": "1\n"})
    return cases


def _grade(limits: Limits, monkeypatch: pytest.MonkeyPatch, fast: bool) -> list[dict[str, Any]]:
    calls = {"run": 0}
    real_run = PreparedSubmission.run

    def counting(self: PreparedSubmission, text: str, lim: Limits) -> Any:
        calls["run"] += 1
        return real_run(self, text, lim)

    with monkeypatch.context() as m:
        m.setattr(PreparedSubmission, "run", counting)
        if not fast:
            m.setattr(batch_mod, "fast_path_applies", lambda sub, repeat: False)
        problem = get_problem("clocks")
        sub = prepare(parse_spec("solver:clocks"), problem)
        table = grade_batch(
            problem, [sub], _cases(), limits, run_id="r", attempt=2, node="n", validate=False
        )
    rows = table.to_pylist()
    for row in rows:
        row["runs"] = calls["run"]
    return rows


def _without_timings(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMINGS and k != "runs"} for r in rows]


def test_fast_rows_equal_general_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    limits = Limits(time_s=10)
    fast = _grade(limits, monkeypatch, fast=True)
    general = _grade(limits, monkeypatch, fast=False)
    assert _without_timings(fast) == _without_timings(general)
    verdicts = {r["case_id"]: r["verdict"] for r in fast}
    assert verdicts == {**{f"ok{i}": "AC" for i in range(6)}, "wrong": "WA", "crash": "RE"}
    assert general[0]["runs"] == 8  # every case through PreparedSubmission.run
    assert fast[0]["runs"] == 1  # only the crash, handed to the general path
    for row in fast:
        assert row["cpu_ms_runs"] == [row["cpu_ms"]] and row["wall_ms_runs"] == [row["wall_ms"]]
        assert row["cpu_ms"] >= 0 and row["wall_ms"] >= 0


def test_a_run_over_the_time_limit_goes_to_the_general_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limits = Limits(time_s=1e-9)
    fast = _grade(limits, monkeypatch, fast=True)
    general = _grade(limits, monkeypatch, fast=False)
    assert _without_timings(fast) == _without_timings(general)
    assert {r["verdict"] for r in fast if r["case_id"] != "crash"} == {"TLE"}
    assert fast[0]["runs"] == 8


def test_an_all_fast_chunk_keeps_single_run_lists_and_constant_columns() -> None:
    problem = get_problem("clocks")
    sub = prepare(parse_spec("solver:clocks"), problem)
    cases = [c for c in _cases() if c["case_id"].startswith("ok")]
    table = grade_batch(problem, [sub], cases, Limits(time_s=10), run_id="r", attempt=3, node="x")
    assert table.schema.equals(RESULTS_SCHEMA, check_metadata=False)
    for row in table.to_pylist():
        assert row["cpu_ms_runs"] == [row["cpu_ms"]] and row["wall_ms_runs"] == [row["wall_ms"]]
        assert (row["run_id"], row["attempt"], row["node"], row["batch_size"]) == ("r", 3, "x", 1)
        assert row["verdict"] == "AC" and row["signal"] is None and row["exit_code"] == 0
