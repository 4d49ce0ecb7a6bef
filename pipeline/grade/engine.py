"""The grading engine: cases x submissions -> one results row per pair.

The same function runs in a Ray task, in the serial executor, for `stress` and for the
benches. What it does:
- validates each case first: an invalid case gets an IE row (the validator's first
  message) for every submission and is never run; a missing expected answer is made by the
  problem's reference solver (JE when that fails);
- a submission that did not compile gets CE rows;
- every other submission runs through its runner (grade.runners: in-process solver, one
  sandboxed process per case, several cases per process), which judges each run;
- `repeat` R > 1 runs each case (each batch group) R times, the submissions interleaved
  A B, then B A, ... so that whatever the first run of a round pays (a cold cache) falls
  on every submission alike; every timing is kept (cpu_ms_runs, wall_ms_runs), the medians
  in cpu_ms and wall_ms, and the machine's speed is probed each round (reference_ms); a
  case (a group) that got TLE is not run again in later rounds: its verdict is fixed;
  with `repeat_from_ms`, neither is one that failed in any way or whose first run took
  less CPU time than that (`verify`: far from any time that matters);
- a TLE killed by the wall clock under the CPU limit is run again alone, and with
  `max_tle` a submission stops after that many TLEs (with `cap_rejected`, rejected
  cases: grade.time_verdicts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import pyarrow as pa

from pipeline.grade import rows
from pipeline.grade.cases import Cases, Rejected, prepare
from pipeline.grade.machine_speed import reference_ms
from pipeline.grade.runners import Graded, Runner, runner_for
from pipeline.grade.settings import DEFAULT, GradeSettings
from pipeline.grade.time_verdicts import capped, confirm_wall_tles
from pipeline.limits import Limits
from pipeline.problem.contract import Problem
from pipeline.program import execute
from pipeline.program.submission import PreparedSubmission
from pipeline.schemas import RESULTS_SCHEMA, Verdict

T = TypeVar("T")


def abba(items: Sequence[T], round_no: int) -> Sequence[T]:
    """Round `round_no` of interleaved repeats: A B, then B A, ..."""
    return items if round_no % 2 == 0 else items[::-1]


def _timed_out(tables: Sequence[pa.Table]) -> bool:
    """Every case of the group got TLE in some round already. Its verdict is then that
    round's whatever the next round gives (rows.combine_rounds takes a case's first
    round that is not AC), and another round would only wait out the limit again: a
    TLE submission repeated R times cost R times its limit per case, the bulk of a
    `verify` (a time_limit_exceeded submission at limit x time_limit_to_tle)."""
    if not tables:
        return False
    over = [v == "TLE" for v in tables[0].column("verdict").to_pylist()]
    for table in tables[1:]:
        verdicts = table.column("verdict").to_pylist()
        over = [a or v == "TLE" for a, v in zip(over, verdicts, strict=True)]
    return all(over)


def _settled(tables: Sequence[pa.Table], from_ms: float) -> bool:
    """With `repeat_from_ms`: the group's first round failed somewhere (its verdict is
    that round's: rows.combine_rounds takes a case's first round that is not AC), or
    took less CPU time than `from_ms` on every case (its start-up included: the whole
    process's time, as verify reads it). Another round only lowers the least of a case's
    runs, so it would change neither its verdict nor a time anyone looks at."""
    if not tables:
        return False
    first = tables[0]
    if any(v != "AC" for v in first.column("verdict").to_pylist()):
        return True
    cpu = first.column("cpu_ms").to_pylist()
    start = first.column("start_cpu_ms").to_pylist()
    return all(c is None or c + (s or 0.0) < from_ms for c, s in zip(cpu, start, strict=True))


def _rounds(
    runners: Sequence[Runner],
    cases: Cases,
    repeat: int,
    unit: int,
    from_ms: float | None = None,
) -> list[Graded]:
    """Each runner's graded rows for `cases`: one pass when repeat is 1, else `repeat`
    interleaved rounds over groups of `unit` cases, combined (a group run again only
    where it may matter: _timed_out, and _settled with `from_ms`)."""
    if len(cases) == 0:
        return [Graded(rows.GRADED_SCHEMA.empty_table(), []) for _ in runners]
    if repeat == 1:
        return [r.grade(cases) for r in runners]

    def again(tables: list[pa.Table]) -> bool:
        if from_ms is not None and _settled(tables, from_ms):
            return False
        return not _timed_out(tables)

    parts: list[list[pa.Table]] = [[] for _ in runners]
    for group in cases.slices(unit):
        rounds: list[list[pa.Table]] = [[] for _ in runners]
        probes = []
        for round_no in range(repeat):
            for i in abba(range(len(runners)), round_no):
                if again(rounds[i]):
                    rounds[i].append(runners[i].grade(group).table)
            probes.append(reference_ms())
        for i, tables in enumerate(rounds):
            parts[i].append(rows.combine_rounds(tables, probes))
    return [Graded(pa.concat_tables(p)) for p in parts]


def _validated(
    problem: Problem, cases: Cases, validate: bool, fork: bool
) -> tuple[Cases, list[int], Rejected]:
    """The cases' preparation (cases.prepare), its validator programs served from this
    chunk's own servers: they see the inputs only, which every submission shares."""
    validators = execute.Servers(fork=fork)
    try:
        with execute.judging_with(validators):
            return prepare(problem, cases, validate)
    finally:
        validators.close()


def _graded(
    runners: Sequence[Runner],
    cases: Cases,
    settings: GradeSettings,
    unit: int,
    budgets: Sequence[int | None],
) -> list[Graded]:
    """_rounds with every wall-clock TLE confirmed; with max_tle, case group by group
    (unit cases each), a runner stopping once its TLEs reach its budget."""
    limit_of = {id(runner): runner.limits.cpu_ms for runner in runners}

    def grade_group(active: Sequence[Runner], group: Cases) -> list[Graded]:
        done = _rounds(active, group, settings.repeat, unit, settings.repeat_from_ms)
        return [
            confirm_wall_tles(r, group, g, limit_of[id(r)])
            for r, g in zip(active, done, strict=True)
        ]

    if settings.max_tle is None or len(cases) == 0:
        return grade_group(runners, cases)
    groups, cap = cases.slices(unit), settings.max_tle
    return capped(runners, groups, budgets, cap, grade_group, settings.cap_rejected)


def grade_cases(
    problem: Problem,
    submissions: Sequence[PreparedSubmission],
    cases: pa.RecordBatch | Sequence[Mapping[str, Any]],
    limits: Limits,
    context: rows.RowContext,
    *,
    settings: GradeSettings = DEFAULT,
    validate: bool = True,
    keep_outputs: bool = False,
    tle_left: Mapping[str, int] | None = None,
) -> Graded:
    """One RESULTS_SCHEMA row per (submission, case), case by case, each case's rows in
    submission order. `limits`: the problem's, with the settings' applied (the plan
    resolves them once per corpus); `validate=False` skips the problem's input validator:
    only for corpora whose manifest vouches for their inputs (grade.plan.needs_validation).
    `tle_left`: with max_tle, the TLEs each submission (by label) may still have (the
    driver's count over earlier chunks; a label not in it: max_tle)."""
    every = Cases.of(cases)
    n = len(every)
    if n == 0:
        return Graded(RESULTS_SCHEMA.empty_table(), [] if keep_outputs else None)
    good, positions, rejected = _validated(problem, every, validate, settings.fork_server)
    runnable = [s for s in submissions if s.compile_error is None]
    runners = [
        runner_for(problem, s, limits, settings=settings, keep_outputs=keep_outputs)
        for s in runnable
    ]
    unit = max(1, min(settings.batch, problem.multi_case)) if problem.join else 1
    budgets = [(tle_left or {}).get(s.label) for s in runnable]
    try:
        done = _graded(runners, good, settings, unit, budgets)
    finally:
        for runner in runners:
            runner.close()
    graded = dict(zip(map(id, runnable), done, strict=True))
    rejected_rows = rows.from_verdicts(rejected.verdicts, rejected.messages)
    tables: list[pa.Table] = []
    outputs: list[list[bytes | None]] = []
    for sub in submissions:
        if sub.compile_error is not None:
            # the compiler's message was cut to size when it was built: all of it is kept
            tables.append(rows.from_verdicts([str(Verdict.CE)] * n, [sub.compile_error] * n))
            outputs.append([None] * n)
            continue
        mine = graded[id(sub)]
        tables.append(
            rows.scatter([(positions, mine.table), (rejected.positions, rejected_rows)], n)
        )
        got: list[bytes | None] = [None] * n
        for at, data in zip(positions, mine.outputs or [], strict=False):
            got[at] = data
        outputs.append(got)
    table = rows.results_table(every.case_id, every.family, submissions, tables, context)
    kept = (
        [outputs[s][c] for c in range(n) for s in range(len(submissions))] if keep_outputs else None
    )
    return Graded(table, kept)
