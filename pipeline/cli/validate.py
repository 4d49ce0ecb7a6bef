"""`gridjudge validate`: exit 0 for a valid input, 1 with the validator's messages."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import read_text_arg, user_errors
from pipeline.problem.registry import get_problem
from pipeline.text import printable

EXIT_INVALID = 1  # Kattis input validators exit 42 for valid; we keep 0/1 for shell use


@user_errors
def validate(
    problem: Annotated[str, typer.Argument(help="Problem name.")],
    file: Annotated[Path | None, typer.Argument(help="Input file (stdin when absent).")] = None,
) -> None:
    """Check an input against the problem's rules; every violated rule is named."""
    errors = get_problem(problem).validate(read_text_arg(file))
    for message in errors:
        typer.echo(printable(message, lines=True), err=True)
    if errors:
        raise typer.Exit(EXIT_INVALID)
    typer.echo("valid")
