"""The kill matrix: every program of the population on every case, graded by `grade`
itself (a run folder under the strength folder: Ray, the result cache, batched runs,
`--resume` after a kill), then read back as one row per (program, case).

A program is killed by a case when its verdict there blames the program (WA, PE, TLE,
MLE, RE, OLE) and the case ran: with `--max-tle N` a program's cases after its N-th TLE
are not run (a mutant that loops forever would cost the time limit on every case), and
their TLE rows kill nothing. IE (the case is invalid) and JE (the judge failed) kill nothing; CE
cannot occur, as a program that does not compile is left out of the population. A
mutant that agrees with the reference on every case is AC everywhere: a survivor.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.corpus.store import iter_batches
from pipeline.grade.driver import run_grade
from pipeline.grade.plan import GradeOptions, GradeOutcome, plan_grade
from pipeline.grade.settings import GradeSettings
from pipeline.grade.time_verdicts import NOT_RUN
from pipeline.results.store import iter_results, write_batches
from pipeline.schemas import STRENGTH_MATRIX_SCHEMA
from pipeline.strength.population import Program

KILLING = frozenset({"WA", "PE", "TLE", "MLE", "RE", "OLE"})
_KILLING = pa.array(sorted(KILLING), pa.string())


@dataclass(frozen=True)
class GradeRun:
    """Where and how the population is graded: `grade`'s own options."""

    out: Path
    address: str | None = None
    resume: bool = False
    settings: GradeSettings = field(default_factory=GradeSettings)
    cache: bool = True
    max_in_flight: int | None = None
    chunk_size: int | None = None  # None: grade's choice


def grade_population(
    corpus: Path,
    programs: list[Program],
    run: GradeRun,
    on_rows: Callable[[int, Counter[str]], None] | None = None,
) -> GradeOutcome:
    """Every program on every case of `corpus`, as `gridjudge grade` grades them, into
    the run folder `run.out`."""
    options = GradeOptions(
        corpora=[corpus],
        submissions=[],
        out=run.out,
        address=run.address,
        resume=run.resume,
        settings=run.settings,
        cache=run.cache,
        max_in_flight=run.max_in_flight,
        chunk_size=run.chunk_size,
        submission_sets=[p.spec for p in programs],
    )
    return run_grade(plan_grade(options), on_rows=on_rows)


@dataclass(frozen=True)
class Cases:
    """The corpus's case ids and families in corpus order."""

    ids: list[str]
    families: list[str]

    @cached_property
    def id_array(self) -> pa.Array:
        return pa.array(self.ids, pa.string())

    @cached_property
    def family_array(self) -> pa.Array:
        return pa.array(self.families, pa.string())


def corpus_cases(corpus: Path) -> Cases:
    ids: list[str] = []
    families: list[str] = []
    for batch in iter_batches(corpus, columns=["case_id", "family"]):
        ids += batch.column(0).to_pylist()
        families += [f or "" for f in batch.column(1).to_pylist()]
    return Cases(ids, families)


@dataclass(frozen=True)
class KillMatrix:
    """What the cover and the report read from the matrix: `kills[program, case]` (bool,
    programs in population order, cases in corpus order), each case's CPU over every
    program (ms), and how many rows matrix.parquet holds."""

    kills: np.ndarray
    cost: np.ndarray
    pairs: int


_COLUMNS = ["submission", "case_id", "verdict", "cpu_ms", "tle_kind", "attempt"]


class _Pairs:
    """Rows of the run's results as pair numbers (program * cases + case), -1 for a row
    of a program or case not in the population or the corpus."""

    def __init__(self, programs: list[Program], cases: Cases) -> None:
        self.labels = pa.array([p.label for p in programs], pa.string())
        self.kinds = pa.array([p.kind for p in programs], pa.string())
        self.cases = cases
        self.count = len(programs) * len(cases.ids)

    def of(self, batch: pa.RecordBatch) -> np.ndarray:
        at_program = pc.index_in(batch.column("submission"), value_set=self.labels)
        at_case = pc.index_in(batch.column("case_id"), value_set=self.cases.id_array)
        program = np.asarray(pc.fill_null(at_program, -1), dtype=np.int64)
        case = np.asarray(pc.fill_null(at_case, -1), dtype=np.int64)
        return np.where((program >= 0) & (case >= 0), program * len(self.cases.ids) + case, -1)


def _superseded(run_dir: Path, pairs: _Pairs, seen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs written more than once (a retried chunk writes its pairs again), sorted,
    and the row number (in the order iter_results reads) of each one's last attempt, the
    later row of equal attempts (as `last_attempts` keeps). Reads the results twice when
    a pair repeats; holds a flag a pair (`seen`, all False on entry and on return), not
    the rows."""
    repeated: list[np.ndarray] = []
    for batch in iter_results(run_dir, ["submission", "case_id"]):
        at = pairs.of(batch)
        at = at[at >= 0]
        values, counts = np.unique(at, return_counts=True)
        repeated += [values[counts > 1], values[seen[values]]]
        seen[values] = True
    seen[:] = False
    twice = np.unique(np.concatenate(repeated)) if repeated else np.zeros(0, np.int64)
    if not len(twice):
        return twice, np.zeros(0, np.int64)
    best_rank = np.full(len(twice), -1, dtype=np.int64)
    best_row = np.zeros(len(twice), dtype=np.int64)
    row = 0
    for batch in iter_results(run_dir, ["submission", "case_id", "attempt"]):
        at = pairs.of(batch)
        rows = np.arange(row, row + batch.num_rows)
        row += batch.num_rows
        attempts = np.asarray(pc.fill_null(batch.column("attempt"), 0), dtype=np.int64)
        mine = np.isin(at, twice)
        slots = np.searchsorted(twice, at[mine])
        for k, r, a in zip(slots, rows[mine], attempts[mine], strict=True):
            if (a, r) > (best_rank[k], best_row[k]):
                best_rank[k], best_row[k] = a, r
    return twice, np.sort(best_row)


def write_kill_matrix(
    run_dir: Path, programs: list[Program], cases: Cases, path: Path
) -> KillMatrix:
    """matrix.parquet at `path`, one row per (program, case) from the run's results (the
    last attempt of each pair), in the order the results are read; read batch by batch, so
    the driver holds one bit a pair and one batch of rows, never the matrix's rows."""
    pairs = _Pairs(programs, cases)
    kills = np.zeros(pairs.count, dtype=bool)
    twice, last_rows = _superseded(run_dir, pairs, kills)
    cost = np.zeros(len(cases.ids), dtype=np.float64)
    written = 0

    def batches() -> Iterator[pa.RecordBatch]:
        nonlocal cost, written
        row = 0
        for batch in iter_results(run_dir, _COLUMNS):
            at = pairs.of(batch)
            rows = np.arange(row, row + batch.num_rows)
            row += batch.num_rows
            keep = (at >= 0) & (~np.isin(at, twice) | np.isin(rows, last_rows))
            if not keep.any():
                continue
            at, kept = at[keep], batch.filter(pa.array(keep))
            program, case = pa.array(at // len(cases.ids)), pa.array(at % len(cases.ids))
            verdicts = kept.column("verdict")
            ran = pc.fill_null(pc.not_equal(kept.column("tle_kind"), NOT_RUN), True)
            killed = pc.and_(pc.is_in(verdicts, value_set=_KILLING), ran)
            kills[at[np.asarray(killed, dtype=bool)]] = True
            cpu = np.asarray(pc.fill_null(kept.column("cpu_ms"), 0.0), dtype=np.float64)
            cost += np.bincount(np.asarray(case), weights=cpu, minlength=len(cases.ids))
            written += kept.num_rows
            yield pa.record_batch(
                [
                    pairs.labels.take(program),
                    pairs.kinds.take(program),
                    cases.id_array.take(case),
                    cases.family_array.take(case),
                    verdicts,
                    kept.column("cpu_ms"),
                    killed,
                    ran,
                ],
                schema=STRENGTH_MATRIX_SCHEMA,
            )

    write_batches(path, STRENGTH_MATRIX_SCHEMA, batches())
    shape = (len(programs), len(cases.ids))
    return KillMatrix(kills.reshape(shape), cost, written)
