"""`gridjudge demo`: the main job end to end on the embedded local Ray.

For each installed problem (or those asked for): generate a small corpus, grade the
in-process reference solver (`solver:P`) and the bundled example submissions of that
problem (datasets/examples/P/*: correct, wrong and slow programs), one run folder per
problem. Then one summary over all runs and one HTML report for all of them.

OUT/
    demo.json                what was run
    corpora/<problem>/       the generated corpora
    runs/<problem>/          one grading run each (results parts, run.json, summary,
                             report.html)
    summary.parquet          the summaries of all runs
    report.html              one report over all runs
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.distribute.cluster import Cluster
from pipeline.errors import GridjudgeError
from pipeline.grade.driver import run_grade
from pipeline.grade.interrupts import on_sigterm, raise_if_terminated, sigterm_interrupts
from pipeline.grade.plan import GradeOptions, GradeSettings, plan_grade
from pipeline.jobs.corpus import generate_on
from pipeline.private import private_dir, private_writer, write_private
from pipeline.problem.registry import all_problems, get_problem
from pipeline.program.examples import example_files
from pipeline.program.examples import examples_dir as bundled_examples
from pipeline.report.html import REPORT_FILE, render_report, write_report
from pipeline.results.store import SUMMARY_FILE, load_results, read_run_json
from pipeline.sandbox.isolation import probed, refusal

DEMO_SEED = 2026
# Cases per generator family of each problem, unless asked otherwise: every family shows
# up, and the whole demo stays a short wait on a small machine.
DEMO_CASES_PER_FAMILY = 20
# Cases per process for problems whose format holds several: one process start serves
# several cases, as `grade --batch` does.
DEMO_BATCH = 8
MARKER = "demo.json"


class DemoError(GridjudgeError):
    """The demo cannot run as asked; one line for the user."""


@dataclass
class DemoResult:
    out: Path
    summary: pa.Table
    report: Path
    runs: dict[str, Path] = field(default_factory=dict)
    cluster: str = ""
    verdicts: Counter[str] = field(default_factory=Counter)  # over every run
    elapsed_s: float = 0.0


def examples_dir() -> Path:
    """datasets/examples of the source checkout this package runs from."""
    path = bundled_examples()
    if path is None:
        raise DemoError("bundled examples not found (the demo needs a source checkout)")
    return path


def _label(path: Path) -> str:
    """The example's path relative to the working directory when that reads well."""
    rel = os.path.relpath(path)
    return rel if not rel.startswith("..") else str(path)


def example_submissions(problem: str) -> list[str]:
    """Submission specs of the bundled examples of `problem` (sorted by file name; none
    outside a source checkout: `run_demo` refuses to run there)."""
    return [_label(p) for p in example_files(problem)]


def _prepare_out(out: Path) -> None:
    """A new or empty folder, or one of an earlier demo (its outputs are replaced)."""
    if out.exists() and not out.is_dir():
        raise DemoError(f"{out} is not a folder")
    if out.is_dir() and any(out.iterdir()):
        if not (out / MARKER).is_file():
            raise DemoError(f"{out} is not empty and holds no earlier demo; choose another --out")
        for name in ("corpora", "runs"):
            shutil.rmtree(out / name, ignore_errors=True)
        for name in (MARKER, SUMMARY_FILE, REPORT_FILE):
            (out / name).unlink(missing_ok=True)
    private_dir(out)


def demo_counts(
    problems: Sequence[str] | None, counts: Mapping[str, int] | int | None = None
) -> dict[str, int]:
    """Cases per problem: `problems` (default: every installed one) with `counts` (one
    number for all, or per problem name); DEMO_CASES_PER_FAMILY per family where unset."""
    installed = all_problems()
    chosen = list(problems) if problems else list(installed)
    missing = [p for p in chosen if p not in installed]
    if missing:
        raise DemoError(f"problem(s) not installed: {', '.join(missing)}")
    asked = {p: counts for p in chosen} if isinstance(counts, int) else dict(counts or {})
    return {p: asked.get(p, DEMO_CASES_PER_FAMILY * len(installed[p].families)) for p in chosen}


def examples_unsandboxed() -> bool:
    """Whether the demo runs its examples without isolation: only where none is possible.
    They are gridjudge's own programs, not untrusted code, so the demo runs them anyway
    (as `grade --allow-unsandboxed`: run.json and every row say so) instead of refusing
    the first command a new user types on such a machine."""
    return refusal(probed()) is not None


def run_demo(
    out: Path,
    *,
    address: str | None = None,
    seed: int = DEMO_SEED,
    problems: Sequence[str] | None = None,
    counts: Mapping[str, int] | int | None = None,
    on_step: Callable[[str], None] | None = None,
    on_rows: Callable[[int, Counter[str]], None] | None = None,
) -> DemoResult:
    """Generate, grade and report the demo into `out` (see the module doc); which
    problems and how many cases: `demo_counts`."""
    start = time.monotonic()
    out = Path(out)
    cases = demo_counts(problems, counts)
    examples_dir()  # the demo grades the bundled examples: outside a checkout, say so first
    plan = {p: [f"solver:{p}", *example_submissions(p)] for p in cases}
    _prepare_out(out)
    # marked a demo's folder from the start: an interrupted demo is replaced by the next
    marker = {"run_id": "gridjudge demo", "status": "running", "seed": seed, "cases": cases}
    _write_marker(out, marker)
    say = on_step or (lambda _msg: None)
    result = DemoResult(out, pa.table({}), out / REPORT_FILE)

    def rows(n: int, verdicts: Counter[str]) -> None:
        result.verdicts.update(verdicts)
        if on_rows is not None:
            on_rows(n, verdicts)

    try:
        with sigterm_interrupts(), Cluster(address) as cluster:
            on_sigterm()  # ray.init replaced the handler
            _run_all(cluster, result, plan, cases, seed, address, rows, say)
    except KeyboardInterrupt:
        _write_marker(out, {**marker, "status": "interrupted"})
        raise
    _finish(result, plan, cases, seed)
    result.elapsed_s = time.monotonic() - start
    return result


def _write_marker(out: Path, info: dict[str, object]) -> None:
    write_private(out / MARKER, json.dumps(info, indent=2, sort_keys=True) + "\n")


def _run_all(
    cluster: Cluster,
    result: DemoResult,
    plan: dict[str, list[str]],
    cases: dict[str, int],
    seed: int,
    address: str | None,
    rows: Callable[[int, Counter[str]], None],
    say: Callable[[str], None],
) -> None:
    """Generate every corpus, then grade each problem into its run folder."""
    out = result.out
    result.cluster = cluster.describe()
    say(f"cluster: {result.cluster}")
    corpora: dict[str, Path] = {}
    for p, count in cases.items():
        corpora[p] = out / "corpora" / p
        m = generate_on(cluster, get_problem(p), count, seed, corpora[p])
        say(f"generated {m.count} {p} cases ({len(m.families)} families)")
        raise_if_terminated()
    for p in cases:
        run_dir = out / "runs" / p
        batch = DEMO_BATCH if get_problem(p).multi_case > 1 else 1
        options = GradeOptions(
            corpora=[corpora[p]],
            submissions=plan[p],
            out=run_dir,
            address=address,
            settings=GradeSettings(batch=batch, allow_unsandboxed=examples_unsandboxed()),
        )
        graded = run_grade(plan_grade(options), on_rows=rows)
        write_report(run_dir, summary=graded.summary)
        result.runs[p] = run_dir
        say(f"graded {p}: {', '.join(plan[p])} ({graded.rows} results)")
        raise_if_terminated()


def _finish(
    result: DemoResult, plan: dict[str, list[str]], counts: dict[str, int], seed: int
) -> None:
    summaries = [pq.read_table(run / SUMMARY_FILE) for run in result.runs.values()]
    result.summary = pa.concat_tables(summaries)
    with private_writer(result.out / SUMMARY_FILE) as sink:
        pq.write_table(result.summary, sink)
    info = {
        "run_id": "gridjudge demo",
        "cluster": result.cluster,
        "seed": seed,
        "cases": {p: counts[p] for p in plan},
        "submissions": plan,
        "runs": {p: str(run) for p, run in result.runs.items()},
        "run_ids": {p: read_run_json(run).get("run_id") for p, run in result.runs.items()},
        "status": "done",
    }
    results = pa.concat_tables(load_results(run) for run in result.runs.values())
    page = render_report(results, info, result.summary)
    write_private(result.report, page)
    _write_marker(result.out, info)
