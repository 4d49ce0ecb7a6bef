"""`gridjudge compare`: verdict flips and timing regressions between two runs, or between
two submissions of one run."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated, Any

import pyarrow as pa
import typer
from rich.console import Console

from pipeline.cli.common import user_errors
from pipeline.compare import (
    FAIL_ON_CHOICES,
    CompareError,
    CompareOptions,
    compare_results,
    resolve_pairs,
    submissions_of,
)
from pipeline.compare_render import render, write_comparison, write_junit
from pipeline.errors import GridjudgeError
from pipeline.registry import get_problem
from pipeline.report import RUN_JSON, RunDirError, load_results, read_run_json, results_dir

EXIT_GATE = 1


def load_run(run_dir: Path) -> tuple[pa.Table, dict[str, Any]]:
    """A run folder's results (RESULTS_SCHEMA) and run.json (empty when the run did not
    finish); a missing, empty or corrupt run folder is a one-line RunDirError."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise RunDirError(f"run folder {run_dir} does not exist")
    has_json = (run_dir / RUN_JSON).is_file()
    if not has_json and not results_dir(run_dir).is_dir():
        raise RunDirError(f"{run_dir} is not a run folder: no {RUN_JSON} and no results/")
    info = read_run_json(run_dir) if has_json else {}
    try:
        table = load_results(run_dir)
    except (pa.ArrowException, ValueError, KeyError) as exc:
        message = " ".join(str(exc).split())[:200]
        raise RunDirError(
            f"{run_dir}: results do not match the results schema ({message})"
        ) from None
    if table.num_rows == 0:
        raise RunDirError(f"{run_dir} has no results rows")
    return table, info


def time_limits_ms(info: dict[str, Any], results: pa.Table) -> dict[str, float]:
    """Each problem's CPU time limit in ms: from run.json (the limits of each corpus, or a
    top-level `limits`), else the problem's own limit from the registry; problems with
    neither get no distance-to-limit flags."""
    limits: dict[str, float] = {}
    for corpus in info.get("corpora") or []:
        if isinstance(corpus, dict):
            time_s = (corpus.get("limits") or {}).get("time_s")
            if isinstance(corpus.get("problem"), str) and isinstance(time_s, int | float):
                limits.setdefault(corpus["problem"], float(time_s) * 1000.0)
    top = info.get("limits")
    top_s = top.get("time_s") if isinstance(top, dict) else None
    for problem in set(results.column("problem").to_pylist()):
        if problem in limits:
            continue
        if isinstance(top_s, int | float):
            limits[problem] = float(top_s) * 1000.0
            continue
        with contextlib.suppress(GridjudgeError):  # unknown problem: no limit known
            limits[problem] = float(get_problem(problem).time_limit_s) * 1000.0
    return limits


@user_errors
def compare(
    run_a: Annotated[Path, typer.Argument(help="Baseline run folder (A).")],
    run_b: Annotated[
        Path | None,
        typer.Argument(help="Candidate run folder (B); absent: compare two submissions of RUN_A."),
    ] = None,
    submission_a: Annotated[str | None, typer.Option(help="Submission label on side A.")] = None,
    submission_b: Annotated[str | None, typer.Option(help="Submission label on side B.")] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Write compare.parquet, compare_summary.parquet, compare.json here."),
    ] = None,
    fail_on: Annotated[
        str,
        typer.Option(
            help="Exit 1 on: regression (flip away from AC or significant slowdown), "
            "any-change, or never."
        ),
    ] = "regression",
    junit: Annotated[Path | None, typer.Option(help="Write JUnit XML here.")] = None,
    metric: Annotated[str, typer.Option(help="Timing compared: cpu or wall.")] = "cpu",
    factor: Annotated[
        float, typer.Option(help="Effect size: a change counts only beyond this ratio.")
    ] = 1.1,
    alpha: Annotated[float, typer.Option(help="Significance level.")] = 0.05,
    min_repeats: Annotated[
        int, typer.Option(help="Timings needed on both sides for a per-case test.")
    ] = 5,
    time_limit: Annotated[
        float | None, typer.Option(help="Time limit in seconds (default: run.json / problem).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    max_rows: Annotated[int, typer.Option(help="Rows shown per case list.")] = 50,
) -> None:
    """Compare verdicts and timings case by case; exit 1 when the --fail-on gate trips."""
    if fail_on not in FAIL_ON_CHOICES:
        raise CompareError(
            f"--fail-on must be one of {', '.join(FAIL_ON_CHOICES)} (got {fail_on!r})"
        )
    if metric not in ("cpu", "wall"):
        raise CompareError(f"--metric must be cpu or wall (got {metric!r})")
    table_a, info_a = load_run(run_a)
    table_b = load_run(run_b)[0] if run_b is not None else None
    pairs = resolve_pairs(
        submissions_of(table_a),
        None if table_b is None else submissions_of(table_b),
        submission_a,
        submission_b,
    )
    limit_ms = time_limit * 1000.0 if time_limit is not None else time_limits_ms(info_a, table_a)
    options = CompareOptions(
        metric="wall" if metric == "wall" else "cpu",
        alpha=alpha,
        factor=factor,
        min_repeats=min_repeats,
        seed=seed,
        time_limit_ms=limit_ms,
    )
    comparison = compare_results(table_a, table_b, pairs, options)
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    render(comparison, console, max_rows=max_rows)
    if out is not None:
        for path in write_comparison(out, comparison):
            typer.echo(f"wrote {path}")
    if junit is not None:
        typer.echo(f"wrote {write_junit(junit, comparison)}")
    if comparison.verdict.trips(fail_on):
        raise typer.Exit(EXIT_GATE)
