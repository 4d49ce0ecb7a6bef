"""`gridjudge run CONFIG`: the whole job of a config — make the corpora that are missing,
grade every job into <out>/runs/<job>, write each job's reports — on one cluster."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.compare.options import CompareOptions
from pipeline.compare.pair import Comparison
from pipeline.compare.render import write_outputs
from pipeline.compare.runs import compare_runs
from pipeline.corpus.importers import import_path
from pipeline.corpus.store import CorpusError, manifest_path, read_manifest
from pipeline.distribute.cluster import Cluster
from pipeline.grade.driver import run_grade
from pipeline.grade.interrupts import on_sigterm, raise_if_terminated, sigterm_interrupts
from pipeline.grade.plan import GradeOptions, GradeOutcome, plan_grade
from pipeline.jobs.config import CorpusSpec, JobSpec, RunConfig
from pipeline.jobs.corpus import generate_on
from pipeline.jobs.scores import finish_run, policy_for
from pipeline.problem.registry import get_problem
from pipeline.program.submission_sets import collect

COMPARE_DIR = "compare"  # a job's comparison, inside its run folder


@dataclass
class JobResult:
    run_dir: Path
    outcome: GradeOutcome
    report: Path | None = None
    comparison: Comparison | None = None
    gate_tripped: bool = False


@dataclass
class ConfigResult:
    cluster: str = ""
    corpora: dict[str, Path] = field(default_factory=dict)
    jobs: dict[str, JobResult] = field(default_factory=dict)

    @property
    def gate_tripped(self) -> bool:
        return any(job.gate_tripped for job in self.jobs.values())


def ensure_corpus(name: str, spec: CorpusSpec, path: Path, cluster: Cluster) -> tuple[Path, str]:
    """The corpus at `path`, made first when it does not exist; (path, what was done)."""
    wanted = (
        spec.generate.problem if spec.generate else spec.import_.problem if spec.import_ else None
    )
    if manifest_path(path) is not None:
        manifest = read_manifest(path)
        if wanted is not None and manifest.problem != wanted:
            raise CorpusError(
                f"corpus {name!r} at {path} holds {manifest.problem}, the config says {wanted}"
            )
        return path, f"corpus {name}: {manifest.count} {manifest.problem} cases (existing)"
    if spec.generate is not None:
        g = spec.generate
        m = generate_on(cluster, get_problem(g.problem), g.count, g.seed, path, g.families)
        return path, f"corpus {name}: generated {m.count} {m.problem} cases"
    if spec.import_ is not None:
        i = spec.import_
        m = import_path(i.source, get_problem(i.problem), path, i.answers)
        return path, f"corpus {name}: imported {m.count} {m.problem} cases from {i.source}"
    raise CorpusError(
        f"corpus {name!r}: {path} is not a corpus and the config says neither generate nor import"
    )


def run_config(
    config: RunConfig,
    *,
    on_step: Callable[[str], None] | None = None,
    on_rows: Callable[[int, Counter[str]], None] | None = None,
) -> ConfigResult:
    say = on_step or (lambda _msg: None)
    result = ConfigResult()
    with sigterm_interrupts(), Cluster(config.address) as cluster:
        on_sigterm()  # ray.init replaced the handler: SIGTERM ends the run as Ctrl-C does
        result.cluster = cluster.describe()
        say(f"cluster: {result.cluster}")
        for name, spec in config.corpora.items():
            path, what = ensure_corpus(name, spec, config.corpus_path(name), cluster)
            result.corpora[name] = path
            say(what)
        for name, job in config.jobs.items():
            run_dir = config.out / "runs" / name
            options = GradeOptions(
                corpora=[result.corpora[c] for c in job.corpora],
                submissions=job.specs,
                submission_sets=collect(
                    [s.dir for s in job.sets if s.dir], [s.list_ for s in job.sets if s.list_]
                ),
                out=run_dir,
                address=config.address,
                resume=config.resume,
                settings=job.settings,
                **job.options,
            )
            policy = policy_for(job.scoring, options.corpora)
            outcome = run_grade(plan_grade(options), on_rows=on_rows)
            raise_if_terminated()
            job_result = JobResult(run_dir, outcome)
            done = finish_run(run_dir, policy, job.feedback.value, outcome.summary, config.html)
            job_result.report = done.report if done is not None else None
            result.jobs[name] = job_result
            say(
                f"job {name}: {outcome.rows - outcome.cached} new results, "
                f"{outcome.cached} from the result cache, {outcome.skipped} already done "
                f"-> {run_dir}"
            )
            if job.compare is not None:
                _compare(job, job_result)
                say(
                    f"job {name}: compare {job.compare.a} -> {job.compare.b}: "
                    f"{job_result.comparison.verdict.verdict if job_result.comparison else '?'}"
                    f"{' (gate tripped)' if job_result.gate_tripped else ''}"
                )
    return result


def _compare(job: JobSpec, result: JobResult) -> None:
    """The job's own comparison of two of its submissions, written beside its results."""
    assert job.compare is not None
    spec = job.compare
    comparison = compare_runs(result.run_dir, None, spec.a, spec.b, CompareOptions())
    write_outputs(comparison, result.run_dir / COMPARE_DIR, spec.junit)
    result.comparison = comparison
    result.gate_tripped = comparison.verdict.trips(spec.fail_on)
