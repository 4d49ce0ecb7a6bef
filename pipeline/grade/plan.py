"""Planning a `grade` job: check corpora, submissions, limits and the run folder before
any work starts (one-line errors), and what run.json records about the run."""

from __future__ import annotations

import datetime as dt
import os
import sys
import uuid
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.corpus.store import (
    MAX_INPUT_MB,
    CorpusError,
    Manifest,
    check_sizes,
    iter_batches,
    read_manifest,
    validator_fingerprint,
    verify,
)
from pipeline.grade.cache import CacheStats, open_cache
from pipeline.grade.select import Selection, make_selection
from pipeline.grade.settings import DEFAULT, GradeError, GradeSettings, resume_conflict
from pipeline.limits import Limits
from pipeline.problem.contract import Problem
from pipeline.problem.registry import get_problem
from pipeline.program.languages.multipliers import checked_multipliers
from pipeline.program.submission import PreparedSubmission, SubmissionSpec, parse_spec, prepare
from pipeline.results import folder
from pipeline.results import store as run_folder
from pipeline.sandbox.isolation import admit, isolation_level, probed

__all__ = ["GradeError", "GradeOptions", "GradeSettings", "plan_grade"]


@dataclass
class GradeOptions:
    corpora: list[Path]
    submissions: list[str]
    out: Path
    address: str | None = None
    resume: bool = False
    settings: GradeSettings = DEFAULT  # how the cases are graded
    chunk_size: int | None = None  # None: chosen per runner (grade.chunk_sizes)
    max_in_flight: int | None = None
    cache_dir: Path | None = None  # of builds; None: program.build.default_cache_dir()
    # Grade corpora whose parts no longer hash to their manifest's content_sha256 (by
    # default such a corpus is refused: `inspect`'s check, corpus.store.verify).
    trust_corpus: bool = False
    # The largest row group of inputs or answers read from a corpus, so the largest case
    # (corpus.store.iter_batches): a larger one is refused before it is read.
    max_input_mb: int = MAX_INPUT_MB
    # The result cache (grade.cache): off with cache=False; None: its defaults.
    cache: bool = True
    result_cache: Path | None = None
    cache_max_mb: int | None = None
    # Selective grading (grade.select): only pairs every given filter accepts.
    only: str | None = None
    since: Path | None = None
    family: str | None = None
    case: str | None = None
    only_submission: str | None = None
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
    selection: Selection = field(default_factory=Selection)
    # --resume: results parts that did not read, moved aside: (part, moved to, why)
    set_aside: list[tuple[Path, Path, str]] = field(default_factory=list)
    # --resume: submissions whose content changed since; their earlier rows were dropped
    changed: list[str] = field(default_factory=list)
    cache_reset: str = ""  # where a result cache file that was not a database went
    lock: folder.RunLock | None = None  # on the run folder, from planning to the run's end


@dataclass
class GradeOutcome:
    rows: int = 0  # written by this run, `cached` of them from the result cache
    skipped: int = 0
    cached: int = 0
    cache: CacheStats | None = None
    verdicts: Counter[str] = field(default_factory=Counter)
    summary: pa.Table | None = None
    where: str = ""


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _check_corpus(path: Path, options: GradeOptions) -> tuple[Manifest, pa.ChunkedArray]:
    """Manifest, problem, every part's schema and the size of its row groups (from the
    metadata), plus the case ids: all before any work; unless the corpus is trusted,
    the parts' content hashed against the manifest."""
    read_manifest(path)
    check_sizes(path, options.max_input_mb)
    trust = options.trust_corpus
    manifest = read_manifest(path) if trust else verify(path, options.max_input_mb)
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


def _require_answers(path: Path, problem: Problem, max_input_mb: int) -> None:
    """A problem without a reference solver (a package) is graded against the corpus's
    answers alone: every case must have one."""
    for batch in iter_batches(path, columns=["expected"], max_input_mb=max_input_mb):
        if batch.column(0).null_count:
            raise GradeError(
                f"corpus {path} has cases without an expected answer and problem "
                f"{problem.name} has no reference solver: import the .ans files with them"
            )


def _prepare_all(
    specs: list[SubmissionSpec],
    problem: Problem,
    cache_dir: Path | None,
    time_multipliers: dict[str, float] | None = None,
) -> list[PreparedSubmission]:
    """Every spec that fits this problem (a `solver:` spec fits only its own problem)."""
    out = []
    for spec in specs:
        if spec.kind == "solver" and spec.problem != problem.name:
            continue
        out.append(prepare(spec, problem, cache_dir, time_multipliers=time_multipliers))
    return out


def _selected_pairs(c: CorpusPlan, selection: Selection) -> int:
    """How many pairs of the corpus the selection grades (all, without one)."""
    if not selection.active:
        return c.manifest.count * len(c.submissions)
    count = 0
    for batch in iter_batches(c.path, columns=["case_id", "family"]):
        for case_id, family in zip(*(col.to_pylist() for col in batch.columns), strict=True):
            count += sum(selection.wants(s, case_id, family) for s in c.submissions)
    return count


def run_info(plan: GradePlan, status: str, outcome: GradeOutcome | None = None) -> dict[str, Any]:
    o = plan.options
    info: dict[str, Any] = {
        "run_id": plan.run_id,
        "status": status,
        "started_at": plan.started_at,
        "command": " ".join(sys.argv),
        # what isolation a submission of this run got on the driver's machine
        "isolation": isolation_level(probed())[0],
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
        **o.settings.model_dump(),
        "address": o.address,
        "pairs": plan.total_pairs,
        "selection": {
            k: str(v) if isinstance(v, Path) else v
            for k, v in (
                ("only", o.only),
                ("since", o.since),
                ("family", o.family),
                ("case", o.case),
                ("submission", o.only_submission),
            )
            if v is not None
        },
        "cache": o.cache,
    }
    if outcome is not None and outcome.cache is not None:
        info["cache_stats"] = asdict(outcome.cache)
    if outcome is not None:
        info.update(
            finished_at=_now(),
            rows_written=outcome.rows,
            rows_resumed=outcome.skipped,
            rows_cached=outcome.cached,
            verdicts=dict(outcome.verdicts),
            cluster=outcome.where,
        )
    return info


def _check_resume(previous: dict[str, Any], plan: GradePlan) -> None:
    """A resumed run must grade the same corpora under the same rules."""
    o = plan.options
    changed = resume_conflict(previous, o.settings)
    if changed:
        raise GradeError(f"--resume: {o.out} was run with {changed}")
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
    specs = [parse_spec(raw) for raw in options.submissions] + list(options.submission_sets)
    if len({s.label for s in specs}) != len(specs):
        raise GradeError("the same --submission is given twice")
    previous = _previous_run(options)
    settings = options.settings
    # untrusted code where no isolation is possible: refused unless allowed
    admit(settings.allow_unsandboxed)
    checked = [(Path(path), *_check_corpus(path, options)) for path in options.corpora]
    _check_unique_ids([(path, ids) for path, _, ids in checked])  # before any compile
    corpora: list[CorpusPlan] = []
    for path, manifest, _ in checked:
        problem = get_problem(manifest.problem)
        if problem.default_solver is None:
            _require_answers(path, problem, options.max_input_mb)
        factors = checked_multipliers(settings.time_multipliers or {})
        subs = _prepare_all(specs, problem, options.cache_dir, factors)
        limits = settings.limits_for(problem.limits)
        validate = settings.revalidate or needs_validation(manifest, problem)
        corpora.append(CorpusPlan(path, manifest, problem, subs, limits, validate))
    for spec in specs:
        if spec.kind == "solver" and all(c.problem.name != spec.problem for c in corpora):
            raise GradeError(f"submission {spec.label!r}: no corpus of problem {spec.problem!r}")

    selection = make_selection(
        options.only, options.since, options.family, options.case, options.only_submission
    )
    probe = open_cache(options.cache, options.result_cache, options.cache_max_mb)
    if probe is not None:  # a cache that cannot be opened fails here, before any work
        probe.close()
    cache_reset = probe.stats.reset if probe is not None else ""
    run_id = (previous or {}).get("run_id") or (
        dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
    )
    total = sum(_selected_pairs(c, selection) for c in corpora)
    plan = GradePlan(options, run_id, corpora, set(), total, _now(), selection)
    plan.cache_reset = cache_reset
    if previous is not None:
        _check_resume(previous, plan)
        plan.started_at = previous.get("started_at") or plan.started_at
    _lock(plan, previous)
    if options.resume:
        _take_over(plan, previous or {})
    return plan


def _previous_run(options: GradeOptions) -> dict[str, Any] | None:
    """The run.json of the run in --out, for --resume. A folder holding anything but
    gridjudge's own files (a `.lock` left by an earlier grade of this user; with
    --resume, a run's files and folders) is refused: a link or another user's file
    planted there would be written through."""
    out = Path(options.out)
    previous = os.path.lexists(out / run_folder.RUN_JSON)
    if previous and not options.resume:
        raise GradeError(f"{out} already holds a run: pass --resume, or choose another --out")
    resuming = options.resume  # a run's own entries, run.json or not (a killed run's parts)
    ours = (folder.RUN_FILES, folder.RUN_FOLDERS) if resuming else ((run_folder.LOCK_FILE,), ())
    foreign = folder.foreign_entry(out, *ours) if out.is_dir() else None
    if foreign is not None:
        what = "holds" if resuming else "is not empty: it holds"
        raise GradeError(f"output folder {out} {what} {foreign}, not gridjudge's: refused")
    return run_folder.read_run_json(out) if previous else None


def _lock(plan: GradePlan, previous: dict[str, Any] | None) -> None:
    """Lock the run folder (a second writer is refused), then look at it again: another
    grade may have written a run there since it was first looked at."""
    plan.lock = folder.RunLock(plan.options.out)
    try:
        now = _previous_run(plan.options)
        if (now or {}).get("run_id") != (previous or {}).get("run_id"):
            raise GradeError(f"{plan.options.out}: another grade wrote a run there meanwhile")
    except BaseException:
        plan.lock.release()
        raise


def _take_over(plan: GradePlan, previous: dict[str, Any]) -> None:
    """What a resumed run keeps of its folder: unreadable results parts are moved aside
    and the rows of a submission whose content changed since are dropped (their pairs
    are graded again); every other row is done."""
    out = Path(plan.options.out)
    plan.set_aside = run_folder.set_aside_unreadable(out)
    before = {
        s["label"]: s.get("sha")
        for c in previous.get("corpora", [])
        for s in c.get("submissions", [])
    }
    changed = {
        s.label
        for c in plan.corpora
        for s in c.submissions
        if s.label in before and before[s.label] != s.sha
    }
    if changed:
        run_folder.drop_submissions(out, changed)
    plan.changed = sorted(changed)
    plan.done = run_folder.done_keys(out)
