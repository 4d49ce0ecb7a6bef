"""`gridjudge solve`: the reference answer for a judge-format input."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import read_text_arg, user_errors
from pipeline.errors import GridjudgeError
from pipeline.problem.contract import InvalidInput
from pipeline.problem.registry import get_problem


@user_errors
def solve(
    problem: Annotated[str, typer.Argument(help="Problem name.")],
    file: Annotated[Path | None, typer.Argument(help="Input file (stdin when absent).")] = None,
    solver: Annotated[
        str | None, typer.Option(help="Solver version (default: the problem's default).")
    ] = None,
) -> None:
    """Print the reference answer (several cases where the format allows)."""
    p = get_problem(problem)
    if solver is not None and solver not in p.solvers:
        raise GridjudgeError(f"{problem} has no solver {solver!r} (has: {', '.join(p.solvers)})")
    text = read_text_arg(file)
    errors = p.validate(text)
    if errors:
        raise GridjudgeError(f"invalid input: {errors[0]}")
    try:
        answer = p.solve(text, solver)
    except InvalidInput as exc:
        raise GridjudgeError(f"invalid input: {exc}") from None
    typer.echo(answer, nl=not answer.endswith("\n"))
