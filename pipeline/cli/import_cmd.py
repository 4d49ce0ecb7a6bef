"""`gridjudge import`: judge folders, Kattis packages or one multi-case file -> corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import user_errors
from pipeline.corpus.importers import import_path
from pipeline.package.checktestdata import unsupported
from pipeline.package.problem import input_validator_paths
from pipeline.package.spec import is_package
from pipeline.problem.registry import get_problem


@user_errors
def import_corpus(
    path: Annotated[
        Path,
        typer.Argument(
            help="Judge folder (NNNN.in [+ .ans]), Kattis "
            "package (data/sample, data/secret), or one "
            "multi-case input file."
        ),
    ],
    problem: Annotated[
        str, typer.Option(help="Problem name (see `gridjudge problems`) or problem package folder.")
    ],
    out: Annotated[Path, typer.Option(help="Corpus folder to create (must be new or empty).")],
    answers: Annotated[Path | None, typer.Option(help="Answer file of a multi-case input.")] = None,
) -> None:
    """Import test data into a corpus (parquet dataset + _corpus.json)."""
    manifest = import_path(path, get_problem(problem), out, answers)
    if is_package(Path(problem)):  # validators gridjudge could not run: one line each
        for why in filter(None, map(unsupported, input_validator_paths(Path(problem)))):
            typer.echo(f"note: {why}")
    families = ", ".join(f"{k}={v}" for k, v in manifest.families.items())
    typer.echo(f"imported {manifest.count} cases of {manifest.problem} into {out} ({families})")
