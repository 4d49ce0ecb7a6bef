"""Planning a `grade` job: check corpora, submissions, limits and the run folder before
any work starts (one-line errors), and what run.json records about the run."""

from __future__ import annotations

import datetime as dt
import sys
import uuid
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.corpus.store import (
    CorpusError,
    Manifest,
    iter_batches,
    read_manifest,
    validator_fingerprint,
)
from pipeline.errors import GridjudgeError
from pipeline.limits import Limits
from pipeline.problem.contract import Problem
from pipeline.problem.registry import get_problem
from pipeline.program.submission import PreparedSubmission, SubmissionSpec, parse_spec, prepare
from pipeline.results import store as report


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
    submission_sets: list[SubmissionSpec] = field(default_factory=list)  # labelled by id


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
class GradeOutcome:
    rows: int = 0
    skipped: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    summary: pa.Table | None = None
    where: str = ""


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _check_corpus(path: Path) -> tuple[Manifest, pa.ChunkedArray]:
    """Manifest, problem and every part's schema, plus the case ids: all before any work."""
    manifest = read_manifest(path)
    parts = sorted(Path(path).glob("part-*.parquet"))
    if not parts and manifest.count:
        raise CorpusError(f"{path}: manifest lists {manifest.count} cases but no part files")
    ids = pa.chunked_array(
        [batch.column(0) for batch in iter_batches(path, columns=["case_id"])], type=pa.string()
    )
    if len(ids) != manifest.count:
        raise CorpusError(f"{path}: {len(ids)} rows on disk, manifest says {manifest.count}")
    return manifest, ids


def _check_unique_ids(corpora: list[tuple[Path, pa.ChunkedArray]]) -> None:
    """A case id appears once over all the corpora (counted in Arrow, not in a Python set)."""
    ids = pa.chunked_array([chunk for _, col in corpora for chunk in col.chunks], pa.string())
    if pc.count_distinct(ids).as_py() == len(ids):
        return
    counts = pc.value_counts(ids)
    twice = counts.filter(pc.greater(counts.field("counts"), 1)).field("values")[0].as_py()
    where = next(path for path, col in corpora if pc.any(pc.equal(col, twice)).as_py())
    raise CorpusError(f"{where}: case id {twice!r} appears twice in the corpora")


def needs_validation(manifest: Manifest, problem: Problem) -> bool:
    """Inputs are validated at grade time unless the corpus was written by `gridjudge
    generate` (which validates every input) with the validator this gridjudge has."""
    return manifest.validated_with != validator_fingerprint(problem)


def _limits(problem: Problem, options: GradeOptions) -> Limits:
    if (options.time_limit_s is not None and options.time_limit_s <= 0) or (
        options.memory_limit_mb is not None and options.memory_limit_mb <= 0
    ):
        raise GradeError("--time-limit and --memory-limit must be positive")
    return problem.limits.override(options.time_limit_s, options.memory_limit_mb)


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


def run_info(plan: GradePlan, status: str, outcome: GradeOutcome | None = None) -> dict[str, Any]:
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
    if not options.submissions and not options.submission_sets:
        raise GradeError("no --submission given")
    if options.batch_k < 1 or options.repeat < 1:
        raise GradeError("--batch and --repeat must be at least 1")
    specs = [parse_spec(raw) for raw in options.submissions] + list(options.submission_sets)
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

    checked = [(Path(path), *_check_corpus(path)) for path in options.corpora]
    _check_unique_ids([(path, ids) for path, _, ids in checked])  # before any compile
    corpora: list[CorpusPlan] = []
    for path, manifest, _ in checked:
        problem = get_problem(manifest.problem)
        subs = _prepare_all(specs, problem, options.cache_dir)
        limits = _limits(problem, options)
        validate = options.revalidate or needs_validation(manifest, problem)
        corpora.append(CorpusPlan(path, manifest, problem, subs, limits, validate))
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
