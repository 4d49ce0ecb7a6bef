"""grade_batch: a list of cases x a list of submissions -> one results row per pair.

The same function runs serially and inside Ray tasks (no Ray here). What it does, per
DESIGN §3/§5:
- validates each case first: an invalid case gets an IE row (the validator's first
  message) for every submission and is never run;
- fills a missing expected output with the problem's default reference solver;
- a submission that did not compile gets CE rows;
- runs each case `repeat` times, interleaving the submissions (A, B, then B, A, ...) so that
  timing noise hits every side alike; every timing is kept in cpu_ms_runs/wall_ms_runs,
  their medians in cpu_ms/wall_ms;
- multi-case batching: where the problem's format holds several cases, up to K cases are
  joined into one file and run in one process, the output split back per case. A batch
  that fails in any way (crash, limit, split mismatch, a case not AC, judge error) is
  bisected down to single cases, so each case still gets its own honest verdict. The whole
  batch runs under ONE case's time and memory limit: a case that would exceed the limit
  alone makes its batch exceed it too, so batching never turns a TLE into an AC. The time
  of a passing batch is divided among its cases (batch_size says so).
- a judge error (the sandbox failed, not the program) is retried up to JE_RETRIES times.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

import pyarrow as pa

from pipeline.grade.inprocess import Columns, fast_path_applies, solver_runner
from pipeline.grade.machine_speed import reference_ms
from pipeline.grade.verdict import ce_row, ie_row, judge, result_row
from pipeline.problem.checkers import CheckResult
from pipeline.problem.contract import Problem
from pipeline.program.execution import ExecutionResult, Limits
from pipeline.schemas import Verdict

if TYPE_CHECKING:
    from pipeline.program.submission import PreparedSubmission

JE_RETRIES = 2
MESSAGE_CHARS = 500


@dataclass
class _Case:
    row: Mapping[str, Any]
    input: str
    expected: str


@dataclass
class _Outcome:
    """All runs of one submission on one case (one entry per repetition)."""

    results: list[ExecutionResult] = field(default_factory=list)
    checks: list[CheckResult] = field(default_factory=list)
    batch_size: int = 1
    reference_ms: list[float] = field(default_factory=list)  # one per round, when repeated


def _first_line(text: str) -> str:
    return " ".join(text.split())[:MESSAGE_CHARS]


def _prepare_case(
    problem: Problem, case: Mapping[str, Any], validate: bool = True
) -> tuple[_Case | None, str, str]:
    """(_Case, "", "") for a gradable case, else (None, verdict, message)."""
    text = case.get("input")
    if not isinstance(text, str):
        return None, Verdict.IE, "case has no input text"
    try:
        errors = problem.validate(text) if validate else []
    except Exception as exc:  # a validator that crashes still rejects the case
        errors = [f"validator failed: {type(exc).__name__}: {exc}"]
    if errors:
        return None, Verdict.IE, _first_line(str(errors[0]))
    expected = case.get("expected")
    if expected is None:
        try:
            expected = problem.solve(text)
        except Exception as exc:
            msg = f"reference solver failed: {type(exc).__name__}: {exc}"
            return None, Verdict.JE, _first_line(msg)
    return _Case(case, text, expected), "", ""


def _run(sub: PreparedSubmission, text: str, limits: Limits) -> ExecutionResult:
    """One run; a judge error is retried (it is the infrastructure's fault, not the
    program's) before it is accepted as JE."""
    result = sub.run(text, limits)
    for _ in range(JE_RETRIES):
        if not result.judge_error:
            break
        result = sub.run(text, limits)
    return result


def _median(values: list[float]) -> float:
    if len(values) == 1:
        return values[0]
    return float(statistics.median(values)) if values else 0.0


BATCH_OUTPUT_CAP_KB = 256 * 1024


def _batch_limits(limits: Limits, k: int) -> Limits:
    """A batch of k cases runs under one case's CPU/memory limit (see the module doc) but
    may print k cases' worth of output (capped: a batch over the cap is bisected)."""
    output_kb = max(limits.output_kb, min(limits.output_kb * k, BATCH_OUTPUT_CAP_KB))
    return replace(limits, output_kb=output_kb)


def _verdict_index(checks: list[CheckResult]) -> int:
    """Which repetition's outcome the row reports: the first that is not AC, else the
    first. A case that fails once in R runs is not accepted."""
    for i, check in enumerate(checks):
        if check.verdict != Verdict.AC:
            return i
    return 0


T = TypeVar("T")


def _abba(items: Sequence[T], round_no: int) -> Sequence[T]:
    """Round `round_no` of interleaved repeats: A B, then B A, ... so that whatever the
    first run of a round pays (a cold cache) falls on every submission alike."""
    return items if round_no % 2 == 0 else items[::-1]


class _Grader:
    def __init__(
        self,
        problem: Problem,
        subs: Sequence[PreparedSubmission],
        limits: Limits,
        repeat: int,
    ) -> None:
        self.problem = problem
        self.subs = subs
        self.limits = limits
        self.repeat = max(1, repeat)

    def single(self, case: _Case, subs: Sequence[PreparedSubmission]) -> list[_Outcome]:
        """`repeat` runs of one case, the submissions interleaved."""
        outcomes = [_Outcome() for _ in subs]
        pairs = list(zip(subs, outcomes, strict=True))
        for round_no in range(self.repeat):
            for sub, out in _abba(pairs, round_no):
                result = _run(sub, case.input, self.limits)
                out.results.append(result)
                out.checks.append(
                    judge(self.problem, case.input, case.expected, result, self.limits)
                )
            if self.repeat > 1:  # the machine's speed at this moment, for compare
                ref = reference_ms()
                for out in outcomes:
                    out.reference_ms.append(ref)
        return outcomes

    def _batch_once(
        self, sub: PreparedSubmission, cases: list[_Case]
    ) -> list[tuple[ExecutionResult, CheckResult]] | None:
        """One run of `cases` joined in one file; None when the batch must be bisected."""
        problem = self.problem
        assert problem.join is not None and problem.split is not None
        n = len(cases)
        try:
            joined = problem.join([c.input for c in cases])
        except Exception:
            return None
        result = _run(sub, joined, _batch_limits(self.limits, n))
        if (
            result.judge_error
            or result.cpu_exceeded
            or result.wall_exceeded
            or result.memory_exceeded
            or result.output_exceeded
            or result.signal
            or result.exit_code != 0
        ):
            return None
        try:
            parts = problem.split(result.output.decode("utf-8", "replace"), n)
        except Exception:
            return None
        if len(parts) != n:
            return None
        out: list[tuple[ExecutionResult, CheckResult]] = []
        for case, part in zip(cases, parts, strict=True):
            # a shallow copy; copy.copy and dataclasses.replace cost several us per case
            per_case = ExecutionResult.__new__(ExecutionResult)
            per_case.__dict__.update(result.__dict__)
            per_case.output = part.encode()
            per_case.cpu_ms = result.cpu_ms / n
            per_case.wall_ms = result.wall_ms / n
            check = judge(problem, case.input, case.expected, per_case, self.limits)
            if check.verdict != Verdict.AC:
                return None
            out.append((per_case, check))
        return out

    def batched(self, cases: list[_Case], k: int) -> list[list[_Outcome]]:
        """Outcomes [case][submission] for `cases`, K at a time per process."""
        table: list[list[_Outcome]] = [[_Outcome() for _ in self.subs] for _ in cases]
        for start in range(0, len(cases), k):
            group = list(range(start, min(start + k, len(cases))))
            self._group(group, cases, list(range(len(self.subs))), table)
        return table

    def _group(
        self,
        group: list[int],
        cases: list[_Case],
        sub_ids: list[int],
        table: list[list[_Outcome]],
    ) -> None:
        if len(group) == 1:
            (ci,) = group
            outs = self.single(cases[ci], [self.subs[s] for s in sub_ids])
            for s, out in zip(sub_ids, outs, strict=True):
                table[ci][s] = out
            return
        runs: dict[int, list[list[tuple[ExecutionResult, CheckResult]]]] = {s: [] for s in sub_ids}
        failed: set[int] = set()
        members = [cases[i] for i in group]
        refs: list[float] = []
        for round_no in range(self.repeat):
            for s in _abba(sub_ids, round_no):
                if s in failed:
                    continue
                got = self._batch_once(self.subs[s], members)
                if got is None:
                    failed.add(s)
                else:
                    runs[s].append(got)
            if self.repeat > 1:
                refs.append(reference_ms())
        for s in sub_ids:
            if s in failed:
                continue
            for pos, ci in enumerate(group):
                out = _Outcome(batch_size=len(group), reference_ms=refs)
                for rep in runs[s]:
                    out.results.append(rep[pos][0])
                    out.checks.append(rep[pos][1])
                table[ci][s] = out
        if failed:
            keep = sorted(failed)
            half = len(group) // 2
            self._group(group[:half], cases, keep, table)
            self._group(group[half:], cases, keep, table)


def _row(
    *,
    base: dict[str, Any],
    problem: Problem,
    sub: PreparedSubmission,
    case: _Case,
    out: _Outcome,
) -> dict[str, Any]:
    i = _verdict_index(out.checks)
    row = result_row(
        problem=problem,
        submission=sub,
        case=case.row,
        result=out.results[i],
        check=out.checks[i],
        batch_size=out.batch_size,
        **base,
    )
    if len(out.results) > 1:  # result_row already holds the single run's timings
        cpu = [float(r.cpu_ms) for r in out.results]
        wall = [float(r.wall_ms) for r in out.results]
        row.update(cpu_ms_runs=cpu, wall_ms_runs=wall, cpu_ms=_median(cpu), wall_ms=_median(wall))
    if out.reference_ms:
        row["reference_ms"] = _median(out.reference_ms)
    return row


def grade_batch(
    problem: Problem,
    submissions: Sequence[PreparedSubmission],
    cases: Sequence[Mapping[str, Any]],
    limits: Limits,
    *,
    batch_k: int = 1,
    repeat: int = 1,
    run_id: str,
    attempt: int,
    node: str,
    validate: bool = True,
) -> pa.Table:
    """One RESULTS_SCHEMA row per (submission, case), in case order then submission order,
    as a RESULTS_SCHEMA table.

    `validate=False` skips the problem's input validator: only for corpora whose manifest
    says their inputs were validated when written (gradejob.needs_validation)."""
    base: dict[str, Any] = {"run_id": run_id, "attempt": attempt, "node": node}
    rows_of: dict[int, list[dict[str, Any]]] = {}
    good: list[_Case] = []
    good_at: list[int] = []
    for ci, case in enumerate(cases):
        prepared, verdict, message = _prepare_case(problem, case, validate)
        if prepared is None:
            rows_of[ci] = []
            for sub in submissions:
                row = ie_row(problem=problem, submission=sub, case=case, message=message, **base)
                row["verdict"] = str(verdict)  # IE, or JE when the reference solver failed
                rows_of[ci].append(row)
            continue
        good.append(prepared)
        good_at.append(ci)

    # In-process solvers read one case at a time, on the fast path (pipeline.grade.inprocess)
    # when they run each case once; subprocesses are batched when allowed.
    k = min(batch_k, problem.multi_case) if problem.join and problem.split else 1
    runnable = [s for s in submissions if s.compile_error is None]
    fast = {id(s) for s in runnable if fast_path_applies(s, repeat)}
    batched = [s for s in runnable if k > 1 and s.kind != "solver"]
    batched_ids = {id(s) for s in batched}
    single = [s for s in runnable if id(s) not in batched_ids and id(s) not in fast]
    outcome: dict[tuple[int, int], _Outcome] = {}
    if batched:
        table = _Grader(problem, batched, limits, repeat).batched(good, k)
        for gi, outs in enumerate(table):
            for sub, out in zip(batched, outs, strict=True):
                outcome[gi, id(sub)] = out
    if single:
        grader = _Grader(problem, single, limits, repeat)
        for gi, gcase in enumerate(good):
            for sub, out in zip(single, grader.single(gcase, single), strict=True):
                outcome[gi, id(sub)] = out

    columns = Columns()
    runners = {
        id(sub): solver_runner(problem, sub, limits, run_id=run_id, attempt=attempt, node=node)
        for sub in submissions
        if id(sub) in fast
    }
    at = dict(zip(good_at, range(len(good)), strict=True))
    fallback = _Grader(problem, submissions, limits, repeat)
    for ci in range(len(cases)):
        if ci not in at:
            for row in rows_of[ci]:
                columns.add_row(row)
            continue
        gi = at[ci]
        gcase = good[gi]
        for sub in submissions:
            run = runners.get(id(sub))
            if sub.compile_error is not None:
                columns.add_row(ce_row(problem=problem, submission=sub, case=gcase.row, **base))
                continue
            if run is None:
                out = outcome[gi, id(sub)]
            elif run(gcase.row, gcase.input, gcase.expected, columns):
                continue
            else:  # the fast path declined (the solver failed or hit a limit)
                (out,) = fallback.single(gcase, [sub])
            columns.add_row(_row(base=base, problem=problem, sub=sub, case=gcase, out=out))
    return columns.table()
