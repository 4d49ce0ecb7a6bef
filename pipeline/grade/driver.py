"""`grade` as a library: plan (pipeline.grade.plan: check everything, fail before work
starts), then run the chunks through distribute.Cluster and write one results part per
completed chunk.

    plan = plan_grade(GradeOptions(corpora=[...], submissions=[...], out=RUN_DIR))
    outcome = run_grade(plan, on_rows=callback)

RUN_DIR/run.json is written when the run starts (status "running") and again at the end
("done", or "failed"/"interrupted"); RUN_DIR/summary.parquet at the end. `resume=True`
keeps the run's id and skips every (submission, case) that already has a row.

The driver holds the result cache (pipeline.grade.cache): pairs it has rows for are
written from it as the chunks are made and never become tasks; the rows of each
committed chunk are stored in it. A run the cache has every row of starts no cluster.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.corpus.store import (
    iter_batches,
)
from pipeline.distribute.cluster import Cluster
from pipeline.grade.cache import ROW_COLUMNS, ResultCache, open_cache
from pipeline.grade.cache_key import KeyBase, case_digest, pair_key
from pipeline.grade.cases import CASE_COLUMNS
from pipeline.grade.chunk_sizes import chunk_size_for, in_process, tapered_size
from pipeline.grade.interrupts import on_sigterm, raise_if_terminated, sigterm_interrupts
from pipeline.grade.plan import (
    CorpusPlan,
    GradeOutcome,
    GradePlan,
    run_info,
)
from pipeline.grade.task import ChunkResult, GradeChunk, grade_and_stage, verdict_counts
from pipeline.grade.time_verdicts import NOT_CACHED
from pipeline.results import store as run_folder
from pipeline.results.summary import SUMMARY_INPUT, SummaryParts, last_attempts
from pipeline.schemas import RESULTS_SCHEMA

READ_CASES = 4096  # cases read from a corpus at a time, at least (a whole number of chunks)


# ------------------------------------------------------------------------ running


class RunDriver:
    """One run on the driver: makes the chunks (writing the rows the cache has), commits
    each chunk's results part and stores its fresh rows in the cache."""

    def __init__(
        self,
        plan: GradePlan,
        outcome: GradeOutcome,
        on_rows: Callable[[int, Counter[str]], None] | None,
        cache: ResultCache | None,
    ) -> None:
        self.plan, self.outcome, self.on_rows, self.cache = plan, outcome, on_rows, cache
        self.out = Path(plan.options.out)
        self.summary = SummaryParts()  # filled as chunks arrive: no pass over the run at the end
        self.cpus = 1
        self.stage_node: str | None = None
        # the cache key of every row of each chunk in flight (row order), its CPU limit
        self.pending: dict[int, tuple[list[bytes], float]] = {}
        self.tles: Counter[str] = Counter()  # TLE rows by submission label (--max-tle)

    def begin(self) -> None:
        """run.json "running". Called where whatever follows, an interrupt included, ends
        the run through end_run: a SIGTERM right after this write must not leave a run
        that says "running" for ever."""
        run_folder.write_run_json(self.out, run_info(self.plan, "running"))

    def chunks(self) -> Iterator[GradeChunk]:
        for c in self.plan.corpora:
            for chunk in self._corpus_chunks(c):
                self.stage(chunk)
                yield chunk

    def stage(self, chunk: GradeChunk) -> None:
        if self.stage_node is not None:
            chunk.stage_dir, chunk.stage_node = str(self.out), self.stage_node

    def _corpus_chunks(self, c: CorpusPlan) -> Iterator[GradeChunk]:
        o, plan = self.plan.options, self.plan
        count = c.manifest.count
        # Batches of whole chunks, as large as the largest chunk (the cluster's CPUs, which
        # size the chunks of in-process solvers, are known only once a first chunk needs
        # the cluster) and of READ_CASES at least: a batch is one cache lookup and one part
        # of cached rows.
        largest = o.chunk_size or chunk_size_for(c.submissions, o.settings, count)
        read = largest * -(-READ_CASES // largest)
        tapers = o.chunk_size is None and in_process(c.submissions)
        everyone = tuple(range(len(c.submissions)))
        lookups = bool(plan.done) or plan.selection.active
        hashers = self._hashers(c) if self.cache is not None else []
        seen = 0
        batches = iter_batches(
            c.path, batch_size=read, columns=CASE_COLUMNS, max_input_mb=o.max_input_mb
        )
        for batch in batches:  # bounded in bytes too: a batch is copied to the cluster
            n = batch.num_rows
            todo = self._todo(c, batch) if lookups else [everyone] * n
            keys: dict[tuple[int, int], bytes] = {}
            if self.cache is not None:
                todo, keys = self._reuse(c, batch, todo, hashers)
            for subs, positions in _runs(todo):
                start = 0
                while start < len(positions):
                    # sized anew for each chunk: the first is made before the cluster
                    # (and its CPUs) is known
                    size = o.chunk_size or chunk_size_for(
                        c.submissions, o.settings, count, self.cpus
                    )
                    left = count - (seen + positions[start])
                    take = tapered_size(size, left, self.cpus) if tapers else size
                    piece = positions[start : start + take]
                    chunk = _chunk(plan, c, subs, _cases(batch, piece), self.tles)
                    if keys:
                        row_keys = [keys[(at, i)] for at in piece for i in subs]
                        self.pending[id(chunk)] = (row_keys, c.limits.cpu_ms)
                    yield chunk
                    start += take
            seen += n

    def _todo(self, c: CorpusPlan, batch: pa.RecordBatch) -> list[tuple[int, ...]]:
        """For each case of the batch, the submissions to grade on it (not done yet on
        resume, and selected)."""
        done, selection = self.plan.done, self.plan.selection
        wants = selection.wants if selection.active else None
        ids = batch.column(0).to_pylist()
        families = batch.column(1).to_pylist()
        return [
            tuple(
                i
                for i, s in enumerate(c.submissions)
                if (s.label, case_id) not in done and (wants is None or wants(s, case_id, family))
            )
            for case_id, family in zip(ids, families, strict=True)
        ]

    def _hashers(self, c: CorpusPlan) -> list[Any]:
        base = KeyBase(c.problem, c.limits, self.plan.options.settings)
        return [base.for_submission(s) for s in c.submissions]

    def _reuse(
        self, c: CorpusPlan, batch: pa.RecordBatch, todo: list[tuple[int, ...]], hashers: list[Any]
    ) -> tuple[list[tuple[int, ...]], dict[tuple[int, int], bytes]]:
        """Write the rows the cache has for the batch's pairs; the pairs left to grade,
        and every pair's key."""
        assert self.cache is not None
        inputs, expected = batch.column(2).to_pylist(), batch.column(3).to_pylist()
        keys: dict[tuple[int, int], bytes] = {}
        for at, subs in enumerate(todo):
            if subs:
                case = case_digest(inputs[at] or "", expected[at])
                for i in subs:
                    keys[(at, i)] = pair_key(hashers[i], case)
        found = self.cache.lookup(list(keys.values()), c.limits)
        if found:
            hits = [(at, i, found[k]) for (at, i), k in keys.items() if k in found]
            self._add(cached_table(self.plan.run_id, c, batch, hits))
        left = [
            tuple(i for i in subs if keys[(at, i)] not in found) for at, subs in enumerate(todo)
        ]
        return left, keys

    def commit(self, chunk: GradeChunk, result: ChunkResult) -> None:
        """Make the chunk's rows part of the run, and store them in the cache."""
        table = result.table
        if result.staged is not None:
            part = run_folder.commit_results_part(result.staged)
            if self.cache is not None and id(chunk) in self.pending:
                table = pq.read_table(part, columns=list(ROW_COLUMNS))
        elif table is not None:
            run_folder.write_results_part(self.out, table)
        self.summary.merge(result.summary)
        self._count(result.rows, result.verdicts)
        self.tles.update(result.tles)
        keys, graded_ms = self.pending.pop(id(chunk), ([], 0.0))
        if self.cache is not None and table is not None and len(keys) == table.num_rows:
            keep = pc.invert(pc.is_in(table.column("tle_kind"), pa.array(NOT_CACHED)))
            keep = pc.fill_null(keep, True).to_pylist()
            kept = [k for k, ok in zip(keys, keep, strict=True) if ok]
            self.cache.store_table(kept, table.filter(pa.array(keep)), graded_ms)

    def _add(self, table: pa.Table) -> None:
        """Rows made on the driver (from the cache): a part of the run like any other."""
        run_folder.write_results_part(self.out, table)
        self.summary.add(table)
        self.outcome.cached += table.num_rows
        self._count(table.num_rows, verdict_counts(table))

    def _count(self, rows: int, verdicts: Counter[str]) -> None:
        self.outcome.rows += rows
        self.outcome.verdicts.update(verdicts)
        if self.on_rows is not None:
            self.on_rows(rows, verdicts)


def _cases(batch: pa.RecordBatch, positions: list[int]) -> pa.RecordBatch:
    """The cases at these positions of the batch (a zero-copy slice when consecutive)."""
    if positions[-1] - positions[0] + 1 == len(positions):
        return batch.slice(positions[0], len(positions))
    return batch.take(pa.array(positions, pa.int64()))


def _runs(todo: list[tuple[int, ...]]) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """Runs of consecutive positions with the same (non-empty) submissions to grade."""
    current: tuple[int, ...] = ()
    positions: list[int] = []
    for at, subs in enumerate(todo):
        if subs != current or not subs:
            if current and positions:
                yield current, positions
            current, positions = subs, []
        if subs:
            positions.append(at)
    if current and positions:
        yield current, positions


def _chunk(
    plan: GradePlan,
    c: CorpusPlan,
    sub_ids: tuple[int, ...],
    cases: list[dict[str, Any]] | pa.RecordBatch,
    tles: Counter[str],
) -> GradeChunk:
    subs = [c.submissions[i] for i in sub_ids]
    settings = plan.options.settings
    chunk = GradeChunk(c.problem.name, subs, cases, c.limits, settings, plan.run_id, c.validate)
    package = Path(c.problem.name)  # a package's problem is named by its absolute folder
    folders = [c.path, plan.options.out, *([package] if package.is_absolute() else [])]
    chunk.judge_folders = tuple(str(p.resolve()) for p in folders if p.is_dir())
    if settings.max_tle is not None:  # the TLEs each may still have, after earlier chunks
        chunk.tle_left = {s.label: max(0, settings.max_tle - tles[s.label]) for s in subs}
    return chunk


def run_grade(
    plan: GradePlan,
    *,
    on_rows: Callable[[int, Counter[str]], None] | None = None,
    on_start: Callable[[str], None] | None = None,
) -> GradeOutcome:
    """Run every chunk, writing one results part per completed chunk (and one per batch
    of rows the cache gives), then the summary. `on_rows(n, verdict_counts)` is called
    after each part is written. No cluster is started when the cache has every row."""
    driver = start_run(plan, on_rows)
    with sigterm_interrupts():
        _run(plan, driver, on_start)
    return driver.outcome


def start_run(
    plan: GradePlan, on_rows: Callable[[int, Counter[str]], None] | None = None
) -> RunDriver:
    """A run's first step: its result cache opened (failing before any write); its
    driver, which makes its chunks and commits their results (`begin` writes run.json
    "running", once the caller is set to end the run)."""
    o = plan.options
    cache = open_cache(o.cache, o.result_cache, o.cache_max_mb)
    return RunDriver(plan, GradeOutcome(skipped=len(plan.done)), on_rows, cache)


def _run(plan: GradePlan, driver: RunDriver, on_start: Callable[[str], None] | None) -> None:
    """The run's body (see run_grade): run.json says how it ended."""
    out, outcome = Path(plan.options.out), driver.outcome
    status = "failed"
    try:
        driver.begin()
        if plan.done:  # the rows a resumed run already has
            driver.summary.add(
                last_attempts(run_folder.load_results(out, columns=[*SUMMARY_INPUT, "attempt"]))
            )
        chunks = driver.chunks()
        first = next(chunks, None)
        if first is None:
            outcome.where = "the result cache" if outcome.cached else "nothing to grade"
            if on_start is not None:
                on_start(outcome.where)
        else:
            _grade_on_cluster(plan, driver, itertools.chain([first], chunks), on_start)
        status = "done"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        end_run(driver, status)


def end_run(driver: RunDriver, status: str) -> None:
    """A run's last step, however it ended (`status`: run.json's): when "done", its
    summary written and the staged parts no chunk committed removed; the cache closed,
    run.json written, the run folder's lock released."""
    plan, outcome, cache = driver.plan, driver.outcome, driver.cache
    out = Path(plan.options.out)
    try:
        if status == "done":
            outcome.summary = run_folder.write_summary(out, driver.summary.table())
            run_folder.remove_staged_parts(out)
    except Exception:
        status = "failed"
        raise
    finally:
        if cache is not None:
            cache.close()
            outcome.cache = cache.stats
        run_folder.write_run_json(out, run_info(plan, status, outcome))
        if plan.lock is not None:
            plan.lock.release()


def _grade_on_cluster(
    plan: GradePlan,
    driver: RunDriver,
    chunks: Iterator[GradeChunk],
    on_start: Callable[[str], None] | None,
) -> None:
    with Cluster(plan.options.address) as cluster:
        on_sigterm()  # ray.init replaced the handler
        driver.outcome.where = cluster.describe()
        if on_start is not None:
            on_start(driver.outcome.where)
        driver.cpus, driver.stage_node = cluster.total_cpus(), cluster.node_id()
        results = cluster.map_unordered(
            grade_and_stage, _staged(driver, chunks), max_in_flight=plan.options.max_in_flight
        )
        for chunk, result in results:
            driver.commit(chunk, result)
            raise_if_terminated()


def _staged(driver: RunDriver, chunks: Iterator[GradeChunk]) -> Iterator[GradeChunk]:
    """The chunks, each staged where the driver's node is (the first was made before the
    cluster was there)."""
    for chunk in chunks:
        driver.stage(chunk)
        yield chunk


def cached_table(
    run_id: str, c: CorpusPlan, batch: pa.RecordBatch, hits: list[tuple[int, int, tuple[Any, ...]]]
) -> pa.Table:
    """RESULTS_SCHEMA rows of cache hits (position in the batch, submission, entry row),
    marked cached."""
    n = len(hits)
    at = pa.array([h[0] for h in hits], pa.int64())
    subs = [c.submissions[h[1]] for h in hits]
    entries = [h[2] for h in hits]
    columns: dict[str, Any] = {name: [e[j] for e in entries] for j, name in enumerate(ROW_COLUMNS)}
    columns.update(
        run_id=pa.repeat(pa.scalar(run_id), n),
        problem=pa.repeat(pa.scalar(c.problem.name), n),
        attempt=pa.repeat(pa.scalar(1, pa.int32()), n),
        cached=pa.repeat(pa.scalar(True), n),
        case_id=batch.column(0).take(at),
        family=pc.fill_null(batch.column(1).take(at), ""),
        submission=[s.label for s in subs],
        submission_sha=[s.sha for s in subs],
    )
    return pa.Table.from_pydict(
        {name: columns[name] for name in RESULTS_SCHEMA.names}, schema=RESULTS_SCHEMA
    )
