"""The grading engine with a toy multi-case problem and fake submissions (pure, no
processes): validation -> IE, CE, repeat interleaving, batching and bisection."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.grade.engine import grade_cases
from pipeline.grade.rows import RowContext
from pipeline.grade.runners.batch import BatchRunner
from pipeline.grade.runners.program import ProgramRunner
from pipeline.grade.settings import GradeSettings
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.contract import Problem
from pipeline.problem.registry import all_problems
from pipeline.program.submission import parse_spec, prepare
from pipeline.schemas import RESULTS_SCHEMA


def _parse(text: str) -> tuple[int, int]:
    a, b = text.split()
    return int(a), int(b)


def _validate(text: str) -> list[str]:
    parts = text.split()
    if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
        return ["a case is two integers a b"]
    return []


def _join(cases: list[str]) -> str:
    return f"{len(cases)}\n" + "".join(c if c.endswith("\n") else c + "\n" for c in cases)


def _split(output: str, n: int) -> list[str]:
    lines = output.splitlines()
    if len(lines) != n:
        raise ValueError(f"{len(lines)} answers for {n} cases")
    return [line + "\n" for line in lines]


SUM = Problem(
    name="sum",
    title="a+b",
    limits=Limits.from_seconds(1.0, memory_mb=64),
    parse=_parse,
    validate=_validate,
    solvers={"1": lambda ab: ab[0] + ab[1]},
    default_solver="1",
    format=lambda v: f"{v}\n",
    generate=lambda rng, family: f"{rng.randint(0, 9)} {rng.randint(0, 9)}\n",
    families=["small"],
    multi_case=100,
    join=_join,
    split=_split,
)


@dataclass
class FakeSub:
    """Answers a+b; `wrong` cases (by a) get a+b+1, `crash` cases kill the whole run,
    `slow` cases cost 800 ms of CPU each, `tle` ones 1500 ms. Records every run."""

    label: str = "fake"
    sha: str = "f" * 64
    kind: str = "cmd"
    compile_error: str | None = None
    time_multiplier: float = 1.0
    wrong: frozenset[int] = frozenset()
    crash: frozenset[int] = frozenset()
    slow: frozenset[int] = frozenset()
    tle: frozenset[int] = frozenset()
    start_cpu_ms: float = 0.0  # as a fork server reports its start-up, once per run
    log: list[tuple[str, int]] = field(default_factory=list)  # (label, cases in run)
    tle_runs: int = 0  # runs that reached a `tle` case

    def run(self, input_text: str, limits: Limits, servers: Any = None) -> ExecutionResult:
        lines = input_text.splitlines()
        cases = lines[1:] if lines[0].strip().isdigit() and len(lines[0].split()) == 1 else lines
        self.log.append((self.label, len(cases)))
        out, cpu = [], 0.0
        for line in cases:
            a, b = _parse(line)
            if a in self.crash:
                return ExecutionResult(exit_code=None, signal=11, cpu_ms=cpu)
            self.tle_runs += a in self.tle
            cpu += 1500.0 if a in self.tle else 800.0 if a in self.slow else 1.0
            out.append(f"{a + b + (1 if a in self.wrong else 0)}\n")
        return ExecutionResult(
            exit_code=0,
            cpu_ms=cpu,
            start_cpu_ms=self.start_cpu_ms,
            wall_ms=cpu,
            output="".join(out).encode(),
            cpu_exceeded=limits.cpu_over(cpu),
        )


def case(i: int, a: int, b: int = 1, expected: str | None = None) -> dict[str, object]:
    return {"case_id": f"c{i}", "family": "small", "input": f"{a} {b}\n", "expected": expected}


CONTEXT = RowContext(run_id="r", problem="sum", attempt=1, node="n")


def grade(subs: list[FakeSub], cases: list[dict[str, object]], **kw: int) -> list[dict]:
    settings = GradeSettings(**kw)
    limits = Limits.from_seconds(1.0)
    return grade_cases(SUM, subs, cases, limits, CONTEXT, settings=settings).table.to_pylist()  # type: ignore[arg-type]


def verdicts(rows: list[dict]) -> dict[tuple[str, str], str]:
    return {(r["submission"], r["case_id"]): r["verdict"] for r in rows}


def test_rows_fit_the_results_schema_and_expected_is_filled() -> None:
    rows = grade([FakeSub()], [case(0, 2, 3), case(1, 4, 4, expected="8\n")])
    pa.Table.from_pylist(rows, schema=RESULTS_SCHEMA)  # raises on a wrong key or type
    assert [r["verdict"] for r in rows] == ["AC", "AC"]
    assert all(set(r) == set(RESULTS_SCHEMA.names) for r in rows)


def test_invalid_case_is_ie_with_validator_message_and_never_run() -> None:
    sub = FakeSub()
    bad = {"case_id": "bad", "family": "small", "input": "x y z\n", "expected": None}
    rows = grade([sub], [case(0, 1), bad, case(2, 3)])
    assert [r["verdict"] for r in rows] == ["AC", "IE", "AC"]
    assert rows[1]["checker_msg"] == "a case is two integers a b"
    assert sub.log == [("fake", 1), ("fake", 1)]


def test_compile_error_rows_are_ce() -> None:
    broken = FakeSub(label="broken", compile_error="x.cpp:1: error: expected ';'")
    rows = grade([broken, FakeSub()], [case(0, 1), case(1, 2)])
    assert verdicts(rows) == {
        ("broken", "c0"): "CE",
        ("fake", "c0"): "AC",
        ("broken", "c1"): "CE",
        ("fake", "c1"): "AC",
    }
    assert rows[0]["checker_msg"] == "x.cpp:1: error: expected ';'"
    assert broken.log == []


def test_repeat_interleaves_submissions_and_keeps_every_timing() -> None:
    log: list[tuple[str, int]] = []
    a, b = FakeSub(label="A", log=log), FakeSub(label="B", log=log)
    rows = grade([a, b], [case(0, 1)], repeat=3)
    assert [who for who, _ in log] == ["A", "B", "B", "A", "A", "B"]  # ABBA rounds
    assert all(len(r["cpu_ms_runs"]) == 3 and r["cpu_ms"] == 1.0 for r in rows)


def test_a_case_that_timed_out_is_not_run_again_in_later_rounds() -> None:
    log: list[tuple[str, int]] = []
    slow, fast = FakeSub(label="T", tle=frozenset({7}), log=log), FakeSub(label="A", log=log)
    rows = grade([slow, fast], [case(0, 1), case(1, 7)], repeat=3)
    runs = {(r["submission"], r["case_id"]): r["cpu_ms_runs"] for r in rows}
    assert verdicts(rows)[("T", "c1")] == "TLE" and runs[("T", "c1")] == [1500.0]
    assert [len(runs[k]) for k in (("T", "c0"), ("A", "c0"), ("A", "c1"))] == [3, 3, 3]
    assert [who for who, _ in log].count("T") == 3 + 1  # its TLE case ran once


def test_batch_runs_k_cases_per_process_when_all_pass() -> None:
    sub = FakeSub()
    rows = grade([sub], [case(i, i % 5) for i in range(10)], batch=4)
    assert [n for _, n in sub.log] == [4, 4, 2]
    assert {r["verdict"] for r in rows} == {"AC"}
    assert [r["batch_size"] for r in rows] == [4] * 8 + [2] * 2


def test_a_batch_shares_its_start_up_cpu_among_its_cases_as_its_time() -> None:
    """A fork server's start-up is charged once per run: a batch of n cases splits it n
    ways as it splits the CPU time, so the cases' shares add up to the batch's own."""
    sub = FakeSub(start_cpu_ms=300.0)
    batch = BatchRunner(ProgramRunner(SUM, sub, Limits.from_seconds(1.0)), 3)  # type: ignore[arg-type]
    try:
        runs = batch.run_group([f"{a} 1\n" for a in (1, 9, 2)], ["2\n", "10\n", "3\n"])
    finally:
        batch.close()
    assert sub.log == [("fake", 3)]  # one run for the three
    assert [r.batch_size for r in runs] == [3, 3, 3]
    assert [r.result.start_cpu_ms for r in runs] == [100.0, 100.0, 100.0]
    assert sum(r.result.cpu_ms + r.result.start_cpu_ms for r in runs) == 300.0 + 3 * 1.0


def test_a_crashed_batch_is_bisected_and_a_wrong_case_run_again_alone() -> None:
    """The crash (a = 7) ends the batch of 8 as a whole: it is bisected. The half
    [1, 2, 13, 4] runs to its end: its accepted cases stand (batch of 4) and the wrong
    one (13) runs alone; the half [5, 6, 7, 8] crashes again and is bisected on."""
    sub = FakeSub(wrong=frozenset({13}), crash=frozenset({7}))
    cases = [case(i, a) for i, a in enumerate([1, 2, 13, 4, 5, 6, 7, 8])]
    rows = grade([sub], cases, batch=8)
    got = {r["case_id"]: (r["verdict"], r["batch_size"]) for r in rows}
    assert got == {
        "c0": ("AC", 4), "c1": ("AC", 4), "c2": ("WA", 1), "c3": ("AC", 4),
        "c4": ("AC", 2), "c5": ("AC", 2), "c6": ("RE", 1), "c7": ("AC", 1),
    }  # fmt: skip
    assert [n for _, n in sub.log] == [8, 4, 1, 4, 2, 2, 1, 1]


def test_a_wrong_program_costs_a_run_per_batch_and_one_per_rejected_case() -> None:
    """The rejected cases of a batch that ran to its end run again alone (their honest
    verdicts); nothing is bisected: 2 runs for one rejected case among 50 (bisecting took
    11), 6 for five (bisecting took 39)."""
    cases = [case(i, i) for i in range(50)]
    for wrong in (frozenset({3}), frozenset({0, 3, 17, 30, 49})):
        sub = FakeSub(wrong=wrong)
        rows = grade([sub], cases, batch=50)
        rejected = sorted(int(r["case_id"][1:]) for r in rows if r["verdict"] == "WA")
        assert rejected == sorted(wrong)
        assert [n for _, n in sub.log] == [50] + [1] * len(wrong)
        assert {r["batch_size"] for r in rows if r["verdict"] == "AC"} == {50}


def test_batch_runs_under_one_cases_time_limit_so_a_slow_case_is_tle() -> None:
    # two 800 ms cases: each passes alone (limit 1 s) but not together -> each alone, AC
    sub = FakeSub(slow=frozenset({9}))
    rows = grade([sub], [case(0, 9), case(1, 9), case(2, 1)], batch=3)
    assert [r["verdict"] for r in rows] == ["AC", "AC", "AC"]
    assert [r["batch_size"] for r in rows] == [1, 1, 1]
    assert [n for _, n in sub.log] == [3, 1, 1, 1]
    # a 1.5 s case among fast ones: the batch's time would average to well under the
    # limit per case, yet the case is TLE and the fast ones AC
    rows = grade(
        [FakeSub(tle=frozenset({5}))], [case(i, a) for i, a in enumerate([1, 5, 2])], batch=3
    )
    assert [r["verdict"] for r in rows] == ["AC", "TLE", "AC"]


def test_a_case_that_loops_costs_its_limit_once_not_once_per_bisection_level() -> None:
    """A batch over the time limit runs each case alone: the 1.5 s case among 50 is
    over its limit twice (in the batch, and alone), where bisecting ran it 6 times."""
    sub = FakeSub(tle=frozenset({31}))
    rows = grade([sub], [case(i, i) for i in range(50)], batch=50)
    assert [r["case_id"] for r in rows if r["verdict"] != "AC"] == ["c31"]
    assert [n for _, n in sub.log] == [50] + [1] * 50
    assert sub.tle_runs == 2


def test_batching_one_submission_does_not_disturb_another() -> None:
    good, bad = FakeSub(label="good"), FakeSub(label="bad", wrong=frozenset({3}))
    rows = grade([good, bad], [case(i, i) for i in range(6)], batch=6)
    assert [n for who, n in good.log] == [6]
    v = verdicts(rows)
    assert v["bad", "c3"] == "WA"
    assert sum(1 for (who, _), x in v.items() if x == "AC" and who == "bad") == 5


@settings(max_examples=40, deadline=None)
@given(
    a_values=st.lists(st.integers(0, 20), min_size=1, max_size=30),
    wrong=st.frozensets(st.integers(0, 20), max_size=4),
    crash=st.frozensets(st.integers(0, 20), max_size=2),
    slow=st.frozensets(st.integers(0, 20), max_size=2),
    tle=st.frozensets(st.integers(0, 20), max_size=2),
    k=st.integers(1, 12),
)
def test_batching_gives_the_same_verdicts_as_single_runs(
    a_values: list[int],
    wrong: frozenset[int],
    crash: frozenset[int],
    slow: frozenset[int],
    tle: frozenset[int],
    k: int,
) -> None:
    """Wrong, crashing, slow (AC alone, over the limit two together) and looping cases
    in any mix: the verdicts batched are those of single runs."""
    kinds = {"wrong": wrong, "crash": crash, "slow": slow, "tle": tle}
    cases = [case(i, a) for i, a in enumerate(a_values)]
    single = grade([FakeSub(**kinds)], cases)  # type: ignore[arg-type]
    sub = FakeSub(**kinds)  # type: ignore[arg-type]
    batched = grade([sub], cases, batch=k)
    assert [r["verdict"] for r in batched] == [r["verdict"] for r in single]
    assert [r["case_id"] for r in batched] == [c["case_id"] for c in cases]
    if not any(kinds.values()):
        assert len(sub.log) == -(-len(cases) // k)


@pytest.mark.parametrize("batch_k", [1, 5])
def test_solver_submission_on_a_real_problem(batch_k: int) -> None:
    name, problem = sorted(all_problems().items())[0]
    rng = random.Random(1)
    cases = [
        {"case_id": f"g{i}", "family": fam, "input": problem.generate(rng, fam), "expected": None}
        for i, fam in enumerate(list(problem.families)[:3])
    ]
    sub = prepare(parse_spec(f"solver:{name}"), problem)
    settings = GradeSettings(batch=batch_k)
    limits = Limits.from_seconds(10)
    rows = grade_cases(problem, [sub], cases, limits, CONTEXT, settings=settings).table.to_pylist()
    assert [r["verdict"] for r in rows] == ["AC"] * len(cases)


def test_repeat_from_ms_runs_again_only_cases_whose_time_or_verdict_may_matter() -> None:
    # c0 fast AC (1 ms), c1 slow AC (800 ms), c2 fast WA, c3 slow WA: with the threshold
    # at 100 ms only c1 is run three times; the others keep their one run
    log: list[tuple[str, int]] = []
    sub = FakeSub(label="S", slow=frozenset({8, 9}), wrong=frozenset({3, 9}), log=log)
    cases = [case(0, 1), case(1, 8), case(2, 3), case(3, 9)]
    rows = grade([sub], cases, repeat=3, repeat_from_ms=100)
    runs = {r["case_id"]: r["cpu_ms_runs"] for r in rows}
    assert runs == {"c0": [1.0], "c1": [800.0] * 3, "c2": [1.0], "c3": [800.0]}
    assert [r["verdict"] for r in rows] == ["AC", "AC", "WA", "WA"]
    assert len(log) == 4 + 2
    # without it every case runs three times (the TLE rule aside)
    log.clear()
    rows = grade([sub], cases, repeat=3)
    assert all(len(r["cpu_ms_runs"]) == 3 for r in rows) and len(log) == 12
