"""`gridjudge generate`: a deterministic corpus from a problem's generators, in parallel."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from pipeline.cli.common import user_errors
from pipeline.corpus.generate import (
    GenerateError,
    auto_chunk_size,
    cluster_runner,
    family_counts,
    generate_corpus,
)
from pipeline.distribute.cluster import Cluster
from pipeline.problem.registry import get_problem


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
    prob = get_problem(problem)
    family_counts(prob, count, family or ())  # bad requests fail before Ray starts
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise GenerateError(f"output folder {out} is not empty")
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
            chunk_size=chunk_size or auto_chunk_size(count, cluster.total_cpus()),
            runner=cluster_runner(cluster),
            on_rows=lambda n: progress.advance(task, n),
        )
        where = cluster.describe()
    families = ", ".join(f"{k}={v}" for k, v in manifest.families.items())
    typer.echo(
        f"generated {manifest.count} cases of {prob.name} into {out} on {where} "
        f"({families}; sha256 {manifest.content_sha256[:16]})"
    )
