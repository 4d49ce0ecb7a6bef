"""`gridjudge generate`: a deterministic corpus from a problem's generators, in parallel."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from pipeline.cli.common import user_errors
from pipeline.distribute import Cluster
from pipeline.generate import DEFAULT_CHUNK_SIZE, cluster_runner, generate_corpus
from pipeline.registry import get_problem


@user_errors
def generate(
    problem: Annotated[str, typer.Argument(help="Problem name, see `gridjudge problems`.")],
    out: Annotated[Path, typer.Option(help="Corpus folder to create (must be new or empty).")],
    count: Annotated[int, typer.Option(help="Number of cases, split evenly over families.")],
    seed: Annotated[int, typer.Option(help="Seed: same seed, same corpus.")] = 0,
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
        int, typer.Option(help="Cases per Ray task (does not change the corpus).")
    ] = DEFAULT_CHUNK_SIZE,
) -> None:
    """Generate a corpus: case i of family F is seeded from (SEED, F, i), expected answers
    come from the problem's default reference solver, every input is validated."""
    prob = get_problem(problem)
    console = Console(stderr=True)
    with (
        Cluster(address) as cluster,
        Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as progress,
    ):
        task = progress.add_task(f"generating {prob.name}", total=count)
        manifest = generate_corpus(
            prob,
            count,
            seed,
            out,
            family or (),
            chunk_size=chunk_size,
            runner=cluster_runner(cluster),
            on_rows=lambda n: progress.advance(task, n),
        )
        where = cluster.describe()
    families = ", ".join(f"{k}={v}" for k, v in manifest.families.items())
    typer.echo(
        f"generated {manifest.count} cases of {prob.name} into {out} on {where} "
        f"({families}; sha256 {manifest.content_sha256[:16]})"
    )
