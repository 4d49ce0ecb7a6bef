"""`grade` as a library: plan (pipeline.grade.plan: check everything, fail before work
starts), then run the chunks through distribute.Cluster and write one results part per
completed chunk.

    plan = plan_grade(GradeOptions(corpora=[...], submissions=[...], out=RUN_DIR))
    outcome = run_grade(plan, on_rows=callback)

RUN_DIR/run.json is written when the run starts (status "running") and again at the end
("done", or "failed"/"interrupted"); RUN_DIR/summary.parquet at the end. `resume=True`
keeps the run's id and skips every (submission, case) that already has a row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.corpus.store import (
    iter_batches,
)
from pipeline.distribute.cluster import Cluster
from pipeline.grade.cases import CASE_COLUMNS
from pipeline.grade.engine import Settings
from pipeline.grade.plan import (
    CorpusPlan,
    GradeOutcome,
    GradePlan,
    run_info,
)
from pipeline.grade.task import GradeChunk, grade_and_stage
from pipeline.program.submission import PreparedSubmission
from pipeline.results import store as report
from pipeline.results.summary import SUMMARY_INPUT, SummaryParts, last_attempts

IN_PROCESS_CHUNK = 1000  # cases per Ray task when every submission is an in-process solver,
MAX_IN_PROCESS_CHUNK = 50000  # ... up to this many in large corpora
CHUNKS_PER_CPU = 4  # ... and about this many chunks per CPU of the cluster
SUBPROCESS_CHUNK = 32  # cases per Ray task when submissions spawn processes
MAX_BATCHED_CHUNK = 2000


def case_dicts(batch: pa.RecordBatch) -> list[dict[str, Any]]:
    """The CASE_COLUMNS of a record batch as one dict per case (column by column: several
    times cheaper than RecordBatch.to_pylist)."""
    case_id, family, text, expected = (batch.column(c).to_pylist() for c in CASE_COLUMNS)
    return [
        {"case_id": a, "family": b, "input": c, "expected": d}
        for a, b, c, d in zip(case_id, family, text, expected, strict=True)
    ]


def chunk_size_for(
    submissions: list[PreparedSubmission], batch_k: int, cases: int | None = None, cpus: int = 1
) -> int:
    """Cases per Ray task. In-process solvers: large chunks, since a Ray task costs
    milliseconds of CPU (its arguments and results through the object store) whatever its
    size, but about CHUNKS_PER_CPU chunks per cluster CPU so that the CPUs share the work
    and finish together: between IN_PROCESS_CHUNK and MAX_IN_PROCESS_CHUNK.
    Subprocess runs: a few dozen (each case costs milliseconds); with batching, enough
    cases for several full batches per task."""
    if in_process(submissions):
        share = (cases or 0) // (CHUNKS_PER_CPU * max(1, cpus))
        return max(IN_PROCESS_CHUNK, min(MAX_IN_PROCESS_CHUNK, share))
    if batch_k > 1:
        return min(MAX_BATCHED_CHUNK, max(SUBPROCESS_CHUNK, 4 * batch_k))
    return SUBPROCESS_CHUNK


def in_process(submissions: list[PreparedSubmission]) -> bool:
    """Every submission runs inside the worker (reference solvers; a submission that did
    not compile runs nothing)."""
    return all(s.kind == "solver" or s.compile_error for s in submissions)


def tapered_size(size: int, left: int, cpus: int) -> int:
    """The next in-process chunk's size when `left` cases remain: `size`, and over the
    last cpus x size cases what is left shared among the CPUs, so the chunks halve down
    to IN_PROCESS_CHUNK. Workers do not run at one speed (whichever core Ray's daemons and
    the driver woke on): small last chunks let the faster one take more of the tail."""
    return max(min(size, IN_PROCESS_CHUNK), min(size, -(-left // max(1, cpus))))


# ------------------------------------------------------------------------ planning


# ------------------------------------------------------------------------ running


def iter_chunks(
    plan: GradePlan, cpus: int = 1, stage_node: str | None = None
) -> Iterator[GradeChunk]:
    """Chunks of consecutive cases needing the same submissions (all of them, except on
    resume), streamed from the corpora: memory is bounded by the chunk size. `cpus`: of
    the cluster the chunks go to; `stage_node`: the driver's node, whose workers stage
    their results parts in RUN_DIR (None: none does)."""
    for chunk in _chunks(plan, cpus):
        if stage_node is not None:
            chunk.stage_dir, chunk.stage_node = str(plan.options.out), stage_node
        yield chunk


def _chunks(plan: GradePlan, cpus: int) -> Iterator[GradeChunk]:
    o = plan.options
    for c in plan.corpora:
        count = c.manifest.count
        size = o.chunk_size or chunk_size_for(c.submissions, o.batch_k, count, cpus)
        everyone = tuple(range(len(c.submissions)))
        if not plan.done:  # a fresh run: every case of every record batch, no lookups
            tapers = o.chunk_size is None and in_process(c.submissions)
            left = count
            for batch in iter_batches(c.path, batch_size=size, columns=CASE_COLUMNS):
                start = 0
                while start < batch.num_rows:
                    take = tapered_size(size, left, cpus) if tapers else size
                    yield _chunk(plan, c, everyone, batch.slice(start, take))
                    start += take
                    left -= take
            continue
        cases: list[dict[str, Any]] = []
        key: tuple[int, ...] = ()
        for batch in iter_batches(c.path, batch_size=size, columns=CASE_COLUMNS):
            for case in case_dicts(batch):
                todo = tuple(
                    i
                    for i, s in enumerate(c.submissions)
                    if (s.label, case["case_id"]) not in plan.done
                )
                if not todo:
                    continue
                if cases and (todo != key or len(cases) >= size):
                    yield _chunk(plan, c, key, cases)
                    cases = []
                key = todo
                cases.append(case)
        if cases:
            yield _chunk(plan, c, key, cases)


def _chunk(
    plan: GradePlan,
    c: CorpusPlan,
    sub_ids: tuple[int, ...],
    cases: list[dict[str, Any]] | pa.RecordBatch,
) -> GradeChunk:
    o = plan.options
    subs = [c.submissions[i] for i in sub_ids]
    settings = Settings(c.limits, batch_k=o.batch_k, repeat=o.repeat, validate=c.validate)
    return GradeChunk(c.problem.name, subs, cases, settings, plan.run_id)


def run_grade(
    plan: GradePlan,
    *,
    on_rows: Callable[[int, Counter[str]], None] | None = None,
    on_start: Callable[[str], None] | None = None,
) -> GradeOutcome:
    """Run every chunk, writing one results part per completed chunk, then the summary.
    `on_rows(n, verdict_counts)` is called after each part is written."""
    out = Path(plan.options.out)
    outcome = GradeOutcome(skipped=len(plan.done))
    report.write_run_json(out, run_info(plan, "running"))
    status = "failed"
    summary = SummaryParts()  # filled as chunks arrive: the run's tail does not re-read it
    if plan.done:  # the rows a resumed run already has
        summary.add(last_attempts(report.load_results(out, columns=[*SUMMARY_INPUT, "attempt"])))
    try:
        with Cluster(plan.options.address) as cluster:
            outcome.where = cluster.describe()
            if on_start is not None:
                on_start(outcome.where)
            results = cluster.map_unordered(
                grade_and_stage,
                iter_chunks(plan, cluster.total_cpus(), cluster.node_id()),
                max_in_flight=plan.options.max_in_flight,
            )
            for _chunk, result in results:
                if result.staged is not None:
                    report.commit_results_part(result.staged)
                elif result.table is not None:
                    report.write_results_part(out, result.table)
                summary.merge(result.summary)
                outcome.rows += result.rows
                outcome.verdicts.update(result.verdicts)
                if on_rows is not None:
                    on_rows(result.rows, result.verdicts)
        outcome.summary = report.write_summary(out, summary.table())
        report.remove_staged_parts(out)
        status = "done"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        report.write_run_json(out, run_info(plan, status, outcome))
    return outcome
