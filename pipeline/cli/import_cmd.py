"""`gridjudge import`: judge folders, Kattis packages or one multi-case file -> corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import say, user_errors
from pipeline.corpus.importers import import_path
from pipeline.errors import GridjudgeError
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
    out: Annotated[Path, typer.Option(help="Corpus folder to create (must be new or empty).")],
    problem: Annotated[
        str | None,
        typer.Option(
            help="Problem name (see `gridjudge problems`) or problem package folder; "
            "a package given as PATH is its own problem."
        ),
    ] = None,
    answers: Annotated[Path | None, typer.Option(help="Answer file of a multi-case input.")] = None,
) -> None:
    """Import test data into a corpus (parquet dataset + _corpus.json)."""
    if problem is None:
        if not is_package(path):
            raise GridjudgeError(
                f"{path}: not a problem package (no problem.yaml): name its problem with --problem"
            )
        problem = str(path)
    manifest = import_path(path, get_problem(problem), out, answers)
    if is_package(Path(problem)):  # validators gridjudge could not run: one line each
        for why in filter(None, map(unsupported, input_validator_paths(Path(problem)))):
            typer.echo(f"note: {why}")
    families = ", ".join(f"{k}={v}" for k, v in manifest.families.items())
    say(f"imported {manifest.count} cases of {manifest.problem} into {out} ({families})")
