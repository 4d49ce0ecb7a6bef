"""`gridjudge compare`: verdict flips and timing regressions between two runs, or between
two submissions of one run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline.cli.common import user_errors
from pipeline.compare.pair import FAIL_ON_CHOICES, CompareError, CompareOptions
from pipeline.compare.render import render, write_comparison, write_junit
from pipeline.compare.runs import compare_runs

EXIT_GATE = 1


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
    include_cached: Annotated[
        bool, typer.Option(help="Also use the timings of rows taken from the result cache.")
    ] = False,
) -> None:
    """Compare verdicts and timings case by case; exit 1 when the --fail-on gate trips."""
    if fail_on not in FAIL_ON_CHOICES:
        raise CompareError(
            f"--fail-on must be one of {', '.join(FAIL_ON_CHOICES)} (got {fail_on!r})"
        )
    if metric not in ("cpu", "wall"):
        raise CompareError(f"--metric must be cpu or wall (got {metric!r})")
    comparison = compare_runs(
        run_a,
        run_b,
        submission_a,
        submission_b,
        CompareOptions(
            metric="wall" if metric == "wall" else "cpu",
            alpha=alpha,
            factor=factor,
            min_repeats=min_repeats,
            seed=seed,
            time_limit_ms=None if time_limit is None else time_limit * 1000.0,
            include_cached=include_cached,
        ),
    )
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
