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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.corpus.store import iter_batches
from pipeline.grade.driver import run_grade
from pipeline.grade.plan import GradeOptions, GradeOutcome, plan_grade
from pipeline.grade.settings import GradeSettings
from pipeline.grade.time_verdicts import NOT_RUN
from pipeline.results import store as run_folder
from pipeline.results.summary import last_attempts
from pipeline.schemas import STRENGTH_MATRIX_SCHEMA
from pipeline.strength.population import Program

KILLING = frozenset({"WA", "PE", "TLE", "MLE", "RE", "OLE"})


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


def corpus_cases(corpus: Path) -> Cases:
    ids: list[str] = []
    families: list[str] = []
    for batch in iter_batches(corpus, columns=["case_id", "family"]):
        ids += batch.column(0).to_pylist()
        families += [f or "" for f in batch.column(1).to_pylist()]
    return Cases(ids, families)


def kill_matrix(run_dir: Path, programs: list[Program], cases: Cases) -> pa.Table:
    """One row per (program, case) from the run's results (its last attempt), programs
    in population order, cases in corpus order."""
    columns = ["submission", "problem", "case_id", "verdict", "cpu_ms", "tle_kind", "attempt"]
    rows = last_attempts(run_folder.load_results(run_dir, columns=columns))
    labels = [p.label for p in programs]
    at_program = pc.index_in(rows.column("submission"), value_set=pa.array(labels))
    at_case = pc.index_in(rows.column("case_id"), value_set=pa.array(cases.ids))
    known = pc.and_(pc.is_valid(at_program), pc.is_valid(at_case))
    rows, at_program, at_case = (
        rows.filter(known),
        at_program.filter(known),
        at_case.filter(known),
    )
    order = np.lexsort((np.asarray(at_case), np.asarray(at_program)))
    program_at = np.asarray(at_program)[order]
    case_at = np.asarray(at_case)[order]
    verdicts = rows.column("verdict").take(pa.array(order))
    ran = pc.fill_null(pc.not_equal(rows.column("tle_kind").take(pa.array(order)), NOT_RUN), True)
    kinds = [p.kind for p in programs]
    return pa.Table.from_pydict(
        {
            "program": pa.array(labels).take(pa.array(program_at)),
            "kind": pa.array(kinds).take(pa.array(program_at)),
            "case_id": pa.array(cases.ids).take(pa.array(case_at)),
            "family": pa.array(cases.families).take(pa.array(case_at)),
            "verdict": verdicts,
            "cpu_ms": rows.column("cpu_ms").take(pa.array(order)),
            "killed": pc.and_(pc.is_in(verdicts, value_set=pa.array(sorted(KILLING))), ran),
            "ran": ran,
        },
        schema=STRENGTH_MATRIX_SCHEMA,
    )


def as_arrays(matrix: pa.Table, labels: list[str], cases: Cases) -> tuple[np.ndarray, np.ndarray]:
    """The matrix as `kills[program, case]` (bool; programs in the order of `labels`,
    cases in corpus order) and each case's CPU over every program (ms): what the set
    cover reads."""
    at_program = pc.index_in(matrix.column("program"), value_set=pa.array(labels))
    at_case = pc.index_in(matrix.column("case_id"), value_set=pa.array(cases.ids))
    programs = np.asarray(pc.fill_null(at_program, 0), dtype=np.int64)
    positions = np.asarray(pc.fill_null(at_case, 0), dtype=np.int64)
    kills = np.zeros((len(labels), len(cases.ids)), dtype=bool)
    killed = np.asarray(matrix.column("killed"), dtype=bool)
    kills[programs[killed], positions[killed]] = True
    cpu = np.asarray(pc.fill_null(matrix.column("cpu_ms"), 0.0), dtype=float)
    cost = np.bincount(positions, weights=cpu, minlength=len(cases.ids))
    return kills, cost
