"""`grade` as a library: plan (check everything, fail before work starts), then run the
chunks through distribute.Cluster and write one results part per completed chunk.

    plan = plan_grade(GradeOptions(corpora=[...], submissions=[...], out=RUN_DIR))
    outcome = run_grade(plan, on_rows=callback)

RUN_DIR/run.json is written when the run starts (status "running") and again at the end
("done", or "failed"/"interrupted"); RUN_DIR/summary.parquet at the end. `resume=True`
keeps the run's id and skips every (submission, case) that already has a row.
"""

from __future__ import annotations

import datetime as dt
import sys
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline import report
from pipeline.batch import grade_batch
from pipeline.corpus import (
    CorpusError,
    Manifest,
    iter_batches,
    read_manifest,
    validator_fingerprint,
)
from pipeline.distribute import Cluster, current_attempt, current_node
from pipeline.errors import GridjudgeError
from pipeline.execution import Limits
from pipeline.inprocess import chunk_fast_path_applies, grade_columns
from pipeline.problem import Problem
from pipeline.registry import get_problem
from pipeline.submission import PreparedSubmission, SubmissionSpec, parse_spec, prepare

IN_PROCESS_CHUNK = 1000  # cases per Ray task when every submission is an in-process solver,
MAX_IN_PROCESS_CHUNK = 20000  # ... up to this many in large corpora
CHUNKS_PER_CORPUS = 16
SUBPROCESS_CHUNK = 32  # cases per Ray task when submissions spawn processes
MAX_BATCHED_CHUNK = 2000
CASE_COLUMNS = ["case_id", "family", "input", "expected"]


class GradeError(GridjudgeError):
    """The grading job cannot start (or resume) as asked; one line for the user."""


@dataclass
class GradeOptions:
    corpora: list[Path]
    submissions: list[str]
    out: Path
    address: str | None = None
    resume: bool = False
    batch_k: int = 1
    repeat: int = 1
    time_limit_s: float | None = None  # None: the problem's own limit
    memory_limit_mb: int | None = None
    chunk_size: int | None = None  # None: chosen per runner (see chunk_size_for)
    # Validate the inputs of every corpus, even one whose manifest says `gridjudge
    # generate` validated them with this very validator (those are trusted by default).
    revalidate: bool = False
    max_in_flight: int | None = None
    cache_dir: Path | None = None


@dataclass
class CorpusPlan:
    path: Path
    manifest: Manifest
    problem: Problem
    submissions: list[PreparedSubmission]
    limits: Limits
    validate: bool = True  # False: the manifest vouches for every input (see needs_validation)


@dataclass
class GradePlan:
    options: GradeOptions
    run_id: str
    corpora: list[CorpusPlan]
    done: set[tuple[str, str]]
    total_pairs: int
    started_at: str = ""


@dataclass
class GradeChunk:
    """One Ray task: cases of one problem x the submissions still to grade on them."""

    problem: str
    submissions: list[PreparedSubmission]
    cases: list[dict[str, Any]] | pa.RecordBatch  # CASE_COLUMNS; a batch pickles cheaply
    limits: Limits
    batch_k: int
    repeat: int
    run_id: str
    validate: bool = True


@dataclass
class GradeOutcome:
    rows: int = 0
    skipped: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    summary: pa.Table | None = None
    where: str = ""


def grade_chunk(chunk: GradeChunk) -> pa.Table:
    """What runs inside a Ray task (or in-process in serial mode): the chunk's rows as a
    RESULTS_SCHEMA table, built here so the driver only writes it."""
    problem = get_problem(chunk.problem)
    if isinstance(chunk.cases, pa.RecordBatch) and chunk_fast_path_applies(
        chunk.submissions, chunk.repeat
    ):

        def general(subs: Sequence[PreparedSubmission], cases: list[dict[str, Any]]) -> pa.Table:
            return grade_batch(
                problem,
                subs,
                cases,
                chunk.limits,
                batch_k=chunk.batch_k,
                repeat=chunk.repeat,
                run_id=chunk.run_id,
                attempt=current_attempt(),
                node=current_node(),
                validate=chunk.validate,
            )

        return grade_columns(
            problem,
            chunk.submissions,
            chunk.cases,
            chunk.limits,
            run_id=chunk.run_id,
            attempt=current_attempt(),
            node=current_node(),
            validate=chunk.validate,
            general=general,
        )
    return grade_batch(
        problem,
        chunk.submissions,
        chunk.cases if isinstance(chunk.cases, list) else case_dicts(chunk.cases),
        chunk.limits,
        batch_k=chunk.batch_k,
        repeat=chunk.repeat,
        run_id=chunk.run_id,
        attempt=current_attempt(),
        node=current_node(),
        validate=chunk.validate,
    )


def case_dicts(batch: pa.RecordBatch) -> list[dict[str, Any]]:
    """The CASE_COLUMNS of a record batch as one dict per case (column by column: several
    times cheaper than RecordBatch.to_pylist)."""
    case_id, family, text, expected = (batch.column(c).to_pylist() for c in CASE_COLUMNS)
    return [
        {"case_id": a, "family": b, "input": c, "expected": d}
        for a, b, c, d in zip(case_id, family, text, expected, strict=True)
    ]


def chunk_size_for(
    submissions: list[PreparedSubmission], batch_k: int, cases: int | None = None
) -> int:
    """Cases per Ray task. In-process solvers: large chunks, since Ray and the driver
    (a task, a results part) cost milliseconds per chunk whatever its size (measured on
    200,000 gomoku cases, 2 cores: 12,500 cases per task spend ~10% less CPU in total than
    5,000), but at least ~16 chunks per corpus so that the cluster's CPUs share the work
    and finish together: between IN_PROCESS_CHUNK and MAX_IN_PROCESS_CHUNK. Subprocess
    runs: a few dozen (each case costs milliseconds); with batching, enough cases for
    several full batches per task."""
    if all(s.kind == "solver" or s.compile_error for s in submissions):
        share = (cases or 0) // CHUNKS_PER_CORPUS
        return max(IN_PROCESS_CHUNK, min(MAX_IN_PROCESS_CHUNK, share))
    if batch_k > 1:
        return min(MAX_BATCHED_CHUNK, max(SUBPROCESS_CHUNK, 4 * batch_k))
    return SUBPROCESS_CHUNK


# ------------------------------------------------------------------------ planning


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _check_corpus(path: Path) -> tuple[Manifest, list[str]]:
    """Manifest, problem and every part's schema, plus the case ids: all before any work."""
    manifest = read_manifest(path)
    parts = sorted(Path(path).glob("part-*.parquet"))
    if not parts and manifest.count:
        raise CorpusError(f"{path}: manifest lists {manifest.count} cases but no part files")
    ids: list[str] = []
    for batch in iter_batches(path, columns=["case_id"]):
        ids.extend(batch.column(0).to_pylist())
    if len(ids) != manifest.count:
        raise CorpusError(f"{path}: {len(ids)} rows on disk, manifest says {manifest.count}")
    return manifest, ids


def needs_validation(manifest: Manifest, problem: Problem) -> bool:
    """Inputs are validated at grade time unless the corpus was written by `gridjudge
    generate` (which validates every input) with the validator this gridjudge has."""
    return manifest.validated_with != validator_fingerprint(problem)


def _limits(problem: Problem, options: GradeOptions) -> Limits:
    time_s = options.time_limit_s if options.time_limit_s is not None else problem.time_limit_s
    memory = options.memory_limit_mb or problem.memory_limit_mb
    if time_s <= 0 or memory <= 0:
        raise GradeError("--time-limit and --memory-limit must be positive")
    return Limits(time_s=time_s, memory_mb=memory)


def _prepare_all(
    specs: list[SubmissionSpec], problem: Problem, cache_dir: Path | None
) -> list[PreparedSubmission]:
    """Every spec that fits this problem (a `solver:` spec fits only its own problem)."""
    out = []
    for spec in specs:
        if spec.kind == "solver" and spec.problem != problem.name:
            continue
        out.append(prepare(spec, problem, cache_dir))
    return out


def _run_info(plan: GradePlan, status: str, outcome: GradeOutcome | None = None) -> dict[str, Any]:
    o = plan.options
    info: dict[str, Any] = {
        "run_id": plan.run_id,
        "status": status,
        "started_at": plan.started_at,
        "command": " ".join(sys.argv),
        "corpora": [
            {
                "path": str(Path(c.path).resolve()),
                "problem": c.problem.name,
                "count": c.manifest.count,
                "content_sha256": c.manifest.content_sha256,
                "limits": asdict(c.limits),
                "validated_at_grade": c.validate,
                "submissions": [
                    {
                        "label": s.label,
                        "sha": s.sha,
                        "kind": s.kind,
                        "compiled": not s.compile_error,
                    }
                    for s in c.submissions
                ],
            }
            for c in plan.corpora
        ],
        "submissions": list(o.submissions),
        "batch": o.batch_k,
        "repeat": o.repeat,
        "revalidate": o.revalidate,
        "address": o.address,
        "pairs": plan.total_pairs,
    }
    if outcome is not None:
        info.update(
            finished_at=_now(),
            rows_written=outcome.rows,
            rows_resumed=outcome.skipped,
            verdicts=dict(outcome.verdicts),
            cluster=outcome.where,
        )
    return info


def _check_resume(previous: dict[str, Any], plan: GradePlan) -> None:
    """A resumed run must grade the same corpora under the same rules."""
    o = plan.options
    for key, now in (("batch", o.batch_k), ("repeat", o.repeat), ("revalidate", o.revalidate)):
        if previous.get(key, False if key == "revalidate" else None) != now:
            raise GradeError(f"--resume: {o.out} was run with {key}={previous.get(key)}, not {now}")
    before = {c["content_sha256"]: c for c in previous.get("corpora", [])}
    for c in plan.corpora:
        old = before.get(c.manifest.content_sha256)
        if old is None:
            raise GradeError(f"--resume: corpus {c.path} is not part of the run in {o.out}")
        if old.get("limits") != asdict(c.limits):
            raise GradeError(f"--resume: limits for {c.path} differ from the run in {o.out}")


def plan_grade(options: GradeOptions) -> GradePlan:
    """Check corpora, submissions, limits and the run folder; build nothing yet but the
    submissions (compiled once here, so a compile error is one CE per case)."""
    if not options.corpora:
        raise GradeError("no corpus given")
    if not options.submissions:
        raise GradeError("no --submission given")
    if options.batch_k < 1 or options.repeat < 1:
        raise GradeError("--batch and --repeat must be at least 1")
    specs = [parse_spec(raw) for raw in options.submissions]
    if len({s.label for s in specs}) != len(specs):
        raise GradeError("the same --submission is given twice")
    out = Path(options.out)
    previous: dict[str, Any] | None = None
    if (out / report.RUN_JSON).exists():
        if not options.resume:
            raise GradeError(f"{out} already holds a run: pass --resume, or choose another --out")
        previous = report.read_run_json(out)
    elif out.exists() and any(out.iterdir()) and not options.resume:
        raise GradeError(f"output folder {out} is not empty")

    corpora: list[CorpusPlan] = []
    seen: set[str] = set()
    for path in options.corpora:
        manifest, ids = _check_corpus(path)
        problem = get_problem(manifest.problem)
        for case_id in ids:
            if case_id in seen:
                raise CorpusError(f"{path}: case id {case_id!r} appears twice in the corpora")
            seen.add(case_id)
        subs = _prepare_all(specs, problem, options.cache_dir)
        limits = _limits(problem, options)
        validate = options.revalidate or needs_validation(manifest, problem)
        corpora.append(CorpusPlan(Path(path), manifest, problem, subs, limits, validate))
    for spec in specs:
        if spec.kind == "solver" and all(c.problem.name != spec.problem for c in corpora):
            raise GradeError(f"submission {spec.label!r}: no corpus of problem {spec.problem!r}")

    total = sum(c.manifest.count * len(c.submissions) for c in corpora)
    done = report.done_keys(out) if options.resume else set()
    run_id = (previous or {}).get("run_id") or (
        dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
    )
    plan = GradePlan(options, run_id, corpora, done, total, started_at=_now())
    if previous is not None:
        _check_resume(previous, plan)
        plan.started_at = previous.get("started_at") or plan.started_at
    return plan


# ------------------------------------------------------------------------ running


def iter_chunks(plan: GradePlan) -> Iterator[GradeChunk]:
    """Chunks of consecutive cases needing the same submissions (all of them, except on
    resume), streamed from the corpora: memory is bounded by the chunk size."""
    o = plan.options
    for c in plan.corpora:
        size = o.chunk_size or chunk_size_for(c.submissions, o.batch_k, c.manifest.count)
        everyone = tuple(range(len(c.submissions)))
        if not plan.done:  # a fresh run: every case of every record batch, no lookups
            for batch in iter_batches(c.path, batch_size=size, columns=CASE_COLUMNS):
                for start in range(0, batch.num_rows, size):
                    yield _chunk(plan, c, everyone, batch.slice(start, size))
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
    return GradeChunk(
        c.problem.name, subs, cases, c.limits, o.batch_k, o.repeat, plan.run_id, c.validate
    )


def verdict_counts(table: pa.Table) -> Counter[str]:
    counts = pc.value_counts(table.column("verdict")).to_pylist()
    return Counter({c["values"]: c["counts"] for c in counts})


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
    report.write_run_json(out, _run_info(plan, "running"))
    status = "failed"
    try:
        with Cluster(plan.options.address) as cluster:
            outcome.where = cluster.describe()
            if on_start is not None:
                on_start(outcome.where)
            results = cluster.map_unordered(
                grade_chunk, iter_chunks(plan), max_in_flight=plan.options.max_in_flight
            )
            for _chunk, table in results:
                report.write_results_part(out, table)
                counts = verdict_counts(table)
                outcome.rows += table.num_rows
                outcome.verdicts.update(counts)
                if on_rows is not None:
                    on_rows(table.num_rows, counts)
        outcome.summary = report.write_summary(out)
        status = "done"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        report.write_run_json(out, _run_info(plan, status, outcome))
    return outcome
