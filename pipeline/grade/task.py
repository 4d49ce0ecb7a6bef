"""The task of `grade` that runs on a worker: grade one chunk of cases with the engine,
and stage its rows where the driver can commit them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.distribute.cluster import current_attempt, current_node, current_node_id
from pipeline.grade.engine import grade_cases
from pipeline.grade.rows import RowContext
from pipeline.grade.settings import GradeSettings
from pipeline.limits import Limits
from pipeline.problem.registry import get_problem
from pipeline.program import execute
from pipeline.program.submission import PreparedSubmission
from pipeline.results import store as run_folder
from pipeline.results.summary import SummaryParts


@dataclass
class GradeChunk:
    """One Ray task: cases of one problem x the submissions still to grade on them."""

    problem: str
    submissions: list[PreparedSubmission]
    cases: list[dict[str, Any]] | pa.RecordBatch  # CASE_COLUMNS; a batch pickles cheaply
    limits: Limits  # the corpus's (its problem's, with the settings' applied)
    settings: GradeSettings
    run_id: str
    validate: bool = True  # False: the corpus's manifest vouches for its inputs
    # with max_tle: the TLEs each submission (label) may still have (engine.grade_cases)
    tle_left: dict[str, int] | None = None
    # Where a worker on the driver's node (Cluster.node_id) stages the chunk's results
    # part itself (RUN_DIR); the driver commits it. Elsewhere the rows travel back.
    stage_dir: str | None = None
    # the folders of judge data behind the chunk (its corpus, the run folder, a package):
    # hidden from the programs' view on the worker
    judge_folders: tuple[str, ...] = ()
    stage_node: str = ""


@dataclass
class ChunkResult:
    """What a chunk's task sends back: its rows' verdict counts and summary, and either
    the rows or the part they were staged in (run_folder.stage_results_part)."""

    rows: int
    verdicts: Counter[str]
    summary: SummaryParts
    table: pa.Table | None = None
    staged: Path | None = None
    tles: Counter[str] = field(default_factory=Counter)  # TLE rows by submission label


def grade_and_stage(chunk: GradeChunk) -> ChunkResult:
    """The Ray task of `grade`: grade_chunk, then, on the driver's node, write the rows
    as a staged part here (so they do not travel through the object store and the driver
    only renames a file); otherwise send them back. Only the driver commits a part: a
    chunk run twice (its worker died after staging) leaves an uncommitted file behind,
    never a second row."""
    table = grade_chunk(chunk)
    summary = SummaryParts()
    summary.add(table)
    result = ChunkResult(
        table.num_rows,
        verdict_counts(table),
        summary,
        tles=tle_counts(table, chunk.settings.cap_rejected),
    )
    if chunk.stage_dir is not None and current_node_id() == chunk.stage_node:
        result.staged = run_folder.stage_results_part(Path(chunk.stage_dir), table)
    else:
        result.table = table
    return result


def grade_chunk(chunk: GradeChunk) -> pa.Table:
    """What runs inside a Ray task (or in-process in serial mode): the chunk's rows as a
    RESULTS_SCHEMA table, built here so the driver only writes it."""
    problem = get_problem(chunk.problem)
    execute.conceal(chunk.judge_folders)
    context = RowContext(chunk.run_id, problem.name, current_attempt(), current_node())
    return grade_cases(
        problem,
        chunk.submissions,
        chunk.cases,
        chunk.limits,
        context,
        settings=chunk.settings,
        validate=chunk.validate,
        tle_left=chunk.tle_left,
    ).table


def tle_counts(table: pa.Table, rejected: bool = False) -> Counter[str]:
    """TLE rows (with `rejected`: rows of any verdict but AC) by submission label."""
    verdicts = table.column("verdict")
    hit = pc.not_equal(verdicts, "AC") if rejected else pc.equal(verdicts, "TLE")
    tle = table.filter(hit).column("submission")
    return Counter({c["values"]: c["counts"] for c in pc.value_counts(tle).to_pylist()})


def verdict_counts(table: pa.Table) -> Counter[str]:
    counts = pc.value_counts(table.column("verdict")).to_pylist()
    return Counter({c["values"]: c["counts"] for c in counts})
