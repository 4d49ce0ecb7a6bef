"""`gridjudge compare`: verdict flips and timing regressions between two runs, or between
two submissions of one run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import EXIT_GATE, user_errors
from pipeline.compare.options import (
    DEFAULT_FAIL_ON,
    FAIL_ON_CHOICES,
    MAX_ROWS,
    METRICS,
    OUTPUT_FILES,
    CompareOptions,
    one_of,
)


@user_errors
def compare(
    run_a: Annotated[Path, typer.Argument(help="Baseline run folder (A).")],
    run_b: Annotated[
        Path | None,
        typer.Argument(help="Candidate run folder (B); absent: compare two submissions of RUN_A."),
    ] = None,
    submission_a: Annotated[str | None, typer.Option(help="Submission label on side A.")] = None,
    submission_b: Annotated[str | None, typer.Option(help="Submission label on side B.")] = None,
    out: Annotated[Path | None, typer.Option(help=f"Write {', '.join(OUTPUT_FILES)} here.")] = None,
    fail_on: Annotated[
        str,
        typer.Option(
            help="Exit 1 on: regression (flip away from AC or significant slowdown), "
            "any-change, or never.",
        ),
    ] = DEFAULT_FAIL_ON,
    junit: Annotated[Path | None, typer.Option(help="Write JUnit XML here.")] = None,
    metric: Annotated[str, typer.Option(help="Timing compared: cpu or wall.")] = (
        CompareOptions.metric
    ),
    factor: Annotated[
        float, typer.Option(help="Effect size: a change counts only beyond this ratio.")
    ] = CompareOptions.factor,
    alpha: Annotated[float, typer.Option(help="Significance level.")] = CompareOptions.alpha,
    min_repeats: Annotated[
        int, typer.Option(help="Timings needed on both sides for a per-case test.")
    ] = CompareOptions.min_repeats,
    time_limit: Annotated[
        float | None, typer.Option(help="Time limit in seconds (default: run.json / problem).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = CompareOptions.seed,
    max_rows: Annotated[int, typer.Option(help="Rows shown per case list.")] = MAX_ROWS,
    include_cached: Annotated[
        bool, typer.Option(help="Also use the timings of rows taken from the result cache.")
    ] = CompareOptions.include_cached,
) -> None:
    """Compare verdicts and timings case by case; exit 1 when the --fail-on gate trips."""
    # imported here: scipy and pandas cost about a second, which --help must not pay
    from rich.console import Console

    from pipeline.compare.render import render, write_outputs
    from pipeline.compare.runs import compare_runs

    gate = one_of(fail_on, FAIL_ON_CHOICES, "--fail-on")
    options = CompareOptions(
        metric=one_of(metric, METRICS, "--metric"),
        alpha=alpha,
        factor=factor,
        min_repeats=min_repeats,
        seed=seed,
        time_limit_ms=None if time_limit is None else time_limit * 1000.0,
        include_cached=include_cached,
    )
    comparison = compare_runs(run_a, run_b, submission_a, submission_b, options)
    console = Console()
    render(
        comparison,
        console if console.is_terminal else Console(width=160),
        max_rows=max_rows,
        out_dir=out,
    )
    for path in write_outputs(comparison, out, junit):
        typer.echo(f"wrote {path}")
    if comparison.verdict.trips(gate):
        raise typer.Exit(EXIT_GATE)
