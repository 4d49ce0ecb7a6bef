"""`gridjudge generate`: a deterministic corpus from a problem's generators, in parallel;
or, given a problem package with generators/generators.yaml, the package's own data/ as
`bt generate` writes it (one verb for "make the test data", and a package path was
refused before: a package problem has no generator families)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline.cli.common import user_errors
from pipeline.corpus.generate import GenerateError
from pipeline.distribute.cluster import Cluster
from pipeline.jobs.corpus import DEFAULT_SEED, check_generate, generate_on
from pipeline.package.generation import generate_package
from pipeline.package.generators import GeneratorsError, has_generators
from pipeline.problem.registry import get_problem
from pipeline.report.progress import CountProgress


@user_errors
def generate(
    problem: Annotated[
        str,
        typer.Argument(
            help="Problem name, see `gridjudge problems`; or a problem package folder "
            "with generators/generators.yaml (its data/ is generated)."
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(help="Corpus folder to create (must be new or empty); not for a package."),
    ] = None,
    count: Annotated[
        int | None,
        typer.Option(help="Number of cases, split evenly over families; not for a package."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed: same seed, same corpus.")] = DEFAULT_SEED,
    family: Annotated[
        list[str] | None,
        typer.Option("--family", help="Generator family (repeatable; default: all)."),
    ] = None,
    address: Annotated[
        str | None,
        typer.Option(
            help="Ray cluster to join (default: RAY_ADDRESS, else an embedded local "
            "cluster, else for a package of at most 32 cases this process; "
            "`local-serial` runs in this process without Ray)."
        ),
    ] = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            help="Cases per Ray task (default: ~8 tasks per CPU, 10..500); "
            "does not change the corpus."
        ),
    ] = None,
    fork_server: Annotated[
        bool,
        typer.Option(
            "--fork-server/--no-fork-server",
            help="A package's generators and solution: fork each run from a server "
            "(docs/sandbox.md).",
        ),
    ] = True,
) -> None:
    """Generate a deterministic corpus with expected answers, in parallel on Ray.

    Case i of family F is seeded from (SEED, F, i) alone: the corpus does
    not depend on the chunk size or the cluster. COUNT is split evenly over
    the families (the first COUNT mod F families get one more). Expected
    answers come from the default reference solver; inputs are validated (the
    manifest records the validator, so `grade` need not validate them again).

    A package folder with generators/generators.yaml: its cases are written into its
    data/ (each case's files, each folder's test_group.yaml); a case whose generator
    command, program and seed are unchanged comes from the generation cache.
    """
    if has_generators(Path(problem)):
        if out is not None or count is not None:
            raise GeneratorsError(
                f"{problem}: its generators.yaml gives the cases: no --out, --count"
            )
        _generate_package(Path(problem), fork_server, address)
        return
    if out is None or count is None:
        raise GenerateError("--out and --count are needed (or a package with generators.yaml)")
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


def _generate_package(root: Path, fork_server: bool, address: str | None) -> None:
    done = generate_package(root, fork=fork_server, address=address)
    for note in done.notes:
        typer.echo(note, err=True)
    typer.echo(
        f"generated {done.cases} cases of {root} into {root / 'data'}: "
        f"{done.ran} program runs, {len(done.written)} files written"
    )
