"""Time verdicts that do not depend on the machine's load, and the TLE cap.

A TLE whose CPU time is under the CPU limit was killed by the wall clock: the program
waited (for the CPU, taken by other work on the machine, or in a sleep). It is run again
alone, after the runner's other cases, with no other case of this worker running; the
rerun's verdict counts. One still wall-killed under the CPU limit keeps its TLE, marked
`tle_kind` "wall" (a CPU-limit TLE is "cpu"). An interactive case ended as idle (both
sides waiting to read: grade.verdict.IDLE_MARK) is "idle", and not run again: the load
does not make a deadlock. With `max_tle` N, once a submission has N
TLEs (with `cap_rejected`, N rejected cases of any verdict) its remaining cases are not
run: TLE rows marked "not-run".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.grade import rows
from pipeline.grade.cases import Cases
from pipeline.grade.runners import Graded, Runner
from pipeline.grade.verdict import IDLE_MARK

CPU, WALL, NOT_RUN, IDLE = "cpu", "wall", "not-run", "idle"
# rows with these marks are not stored in the result cache (a later run, whose TLE
# budget may differ, runs those cases); a wall TLE is, with its mark, under the cache's
# rule for TLEs
NOT_CACHED = (NOT_RUN,)


def tle_kinds(table: pa.Table, cpu_limit_ms: float) -> list[str | None]:
    """Each row's mark: "cpu" for a TLE over the CPU limit, "wall" for one under it,
    "idle" for an interaction's deadlock."""
    verdicts = table.column("verdict").to_pylist()
    cpu = table.column("cpu_ms").to_pylist()
    said = table.column("checker_msg").to_pylist()
    return [
        None
        if v != "TLE"
        else IDLE
        if (m or "").startswith(IDLE_MARK)
        else WALL
        if c is not None and c <= cpu_limit_ms
        else CPU
        for v, c, m in zip(verdicts, cpu, said, strict=True)
    ]


def _marked(table: pa.Table, kinds: Sequence[str | None]) -> pa.Table:
    at = table.schema.get_field_index("tle_kind")
    return table.set_column(at, "tle_kind", pa.array(list(kinds), pa.string()))


def confirm_wall_tles(runner: Runner, cases: Cases, graded: Graded, cpu_limit_ms: float) -> Graded:
    """`graded` with each wall-clock TLE replaced by its rerun alone, and every TLE
    marked (see the module's docstring)."""
    kinds = tle_kinds(graded.table, cpu_limit_ms)
    suspects = [i for i, kind in enumerate(kinds) if kind == WALL]
    if not suspects:
        return Graded(_marked(graded.table, kinds), graded.outputs)
    again = runner.grade(cases.take(suspects))
    redone = tle_kinds(again.table, cpu_limit_ms)
    rows_now = graded.table.to_pylist()
    outputs = list(graded.outputs) if graded.outputs is not None else None
    for j, i in enumerate(suspects):
        row = again.table.slice(j, 1).to_pylist()[0]
        if redone[j] == WALL:
            why = f"CPU {row['cpu_ms']:.0f} ms, under the limit; again when run alone"
            row["checker_msg"] = f"{row['checker_msg'] or 'TLE'} ({why})"
        rows_now[i], kinds[i] = row, redone[j]
        if outputs is not None and again.outputs is not None:
            outputs[i] = again.outputs[j]
    table = pa.Table.from_pylist(rows_now, schema=rows.GRADED_SCHEMA)
    return Graded(_marked(table, kinds), outputs)


def not_run(n: int, max_tle: int, rejected: bool = False) -> Graded:
    """The rows of cases a submission does not run: it has max_tle TLEs (rejected
    cases) already."""
    what = "rejected cases" if rejected else "TLEs"
    why = f"not run: {max_tle} {what} already (--max-tle {max_tle})"
    table = rows.from_verdicts(["TLE"] * n, [why] * n)
    return Graded(_marked(table, [NOT_RUN] * n), [b""] * n)


def tle_count(graded: Graded, rejected: bool = False) -> int:
    """The TLE rows (with `rejected`: the rows of any verdict but AC)."""
    verdicts = graded.table.column("verdict")
    hit = pc.not_equal(verdicts, "AC") if rejected else pc.equal(verdicts, "TLE")
    return int(pc.sum(hit).as_py() or 0)


def capped(
    runners: Sequence[Runner],
    groups: Sequence[Cases],
    budgets: Sequence[int | None],
    max_tle: int,
    grade_group: Callable[[Sequence[Runner], Cases], list[Graded]],
    rejected: bool = False,
) -> list[Graded]:
    """Each runner's rows over the groups in turn; a runner whose budget of TLEs (with
    `rejected`, of rejected cases) is spent gets not-run rows for the groups left.
    `grade_group(runners, cases)` grades one group with several runners (interleaved
    repeats) and confirms wall TLEs."""
    left = [max_tle if b is None else b for b in budgets]
    parts: list[list[Graded]] = [[] for _ in runners]
    for group in groups:
        active = [i for i in range(len(runners)) if left[i] > 0]
        done = dict(zip(active, grade_group([runners[i] for i in active], group), strict=True))
        for i in range(len(runners)):
            got = done.get(i) or not_run(len(group), max_tle, rejected)
            left[i] -= tle_count(got, rejected) if i in done else 0
            parts[i].append(got)
    return [_joined(p) for p in parts]


def _joined(parts: list[Graded]) -> Graded:
    if not parts:
        return Graded(rows.GRADED_SCHEMA.empty_table(), [])
    outputs = None
    if all(p.outputs is not None for p in parts):
        outputs = [o for p in parts for o in (p.outputs or [])]
    return Graded(pa.concat_tables([p.table for p in parts]), outputs)
