"""`gridjudge generate`: a deterministic corpus from a problem's generators, in parallel."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline.cli.common import user_errors
from pipeline.distribute.cluster import Cluster
from pipeline.jobs.corpus import DEFAULT_SEED, check_generate, generate_on
from pipeline.problem.registry import get_problem
from pipeline.report.progress import CountProgress


@user_errors
def generate(
    problem: Annotated[str, typer.Argument(help="Problem name, see `gridjudge problems`.")],
    out: Annotated[Path, typer.Option(help="Corpus folder to create (must be new or empty).")],
    count: Annotated[int, typer.Option(help="Number of cases, split evenly over families.")],
    seed: Annotated[int, typer.Option(help="Seed: same seed, same corpus.")] = DEFAULT_SEED,
    family: Annotated[
        list[str] | None,
        typer.Option("--family", help="Generator family (repeatable; default: all)."),
    ] = None,
    address: Annotated[
        str | None,
        typer.Option(
            help="Ray cluster to join (default: RAY_ADDRESS, else an embedded local "
            "cluster; `local-serial` runs in this process without Ray)."
        ),
    ] = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            help="Cases per Ray task (default: ~8 tasks per CPU, 10..500); "
            "does not change the corpus."
        ),
    ] = None,
) -> None:
    """Generate a deterministic corpus with expected answers, in parallel on Ray.

    Case i of family F is seeded from (SEED, F, i) alone: the corpus does
    not depend on the chunk size or the cluster. COUNT is split evenly over
    the families (the first COUNT mod F families get one more). Expected
    answers come from the default reference solver; inputs are validated (the
    manifest records the validator, so `grade` need not validate them again).
    """
    prob, families = get_problem(problem), family or ()
    check_generate(prob, count, families, out)  # bad requests fail before Ray starts
    with (
        Cluster(address) as cluster,
        CountProgress(f"generating {prob.name}", count, Console(stderr=True)) as progress,
    ):
        manifest = generate_on(
            cluster,
            prob,
            count,
            seed,
            out,
            families,
            chunk_size=chunk_size,
            on_rows=progress.advance,
        )
        where = cluster.describe()
    shown = ", ".join(f"{k}={v}" for k, v in manifest.families.items())
    typer.echo(
        f"generated {manifest.count} cases of {prob.name} into {out} on {where} "
        f"({shown}; sha256 {manifest.content_sha256[:16]})"
    )
