"""`gridjudge export`: a built-in problem as a Kattis problem package."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import user_errors
from pipeline.export.kattis import (
    DEFAULT_CASES_PER_FAMILY,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    export_problem,
)
from pipeline.jobs.demo import examples_dir


@user_errors
def export(
    problem: Annotated[str, typer.Argument(help="Problem name.")],
    out: Annotated[Path, typer.Option(help="New package folder (lowercase letters, digits).")],
    seed: Annotated[int, typer.Option(help="Seed of the generated cases.")] = DEFAULT_SEED,
    count: Annotated[
        int | None,
        typer.Option(help=f"Cases in all (default: {DEFAULT_CASES_PER_FAMILY} per family)."),
    ] = None,
    samples: Annotated[
        int, typer.Option(help="Cases in data/sample: case 0 of the first families.")
    ] = DEFAULT_SAMPLES,
) -> None:
    """Write PROBLEM as a Kattis problem package (2023-07 format): generated data, input
    and output validators, the reference solver and the example submissions."""
    result = export_problem(
        problem, out, examples=examples_dir() / problem, seed=seed, count=count, samples=samples
    )
    folders = ", ".join(f"{k} {len(v)}" for k, v in result.submissions.items())
    judged = result.programs.get("output_validator", "default output validator")
    typer.echo(
        f"exported {result.problem} to {result.out}: {result.samples} sample and "
        f"{result.secret} secret cases, {judged}; submissions: {folders}"
    )
