"""`gridjudge stress`: random cases until the submission fails one, then shrink it.

Exit 0: no failure within the budget; 1: a failing case was found (printed, and written
to --out); 2: a user error (unknown problem, family or solver, bad submission)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import AllowUnsandboxed, user_errors, warn_isolation
from pipeline.jobs.stress import stress_programs, write_failure
from pipeline.stress import search
from pipeline.stress.search import Failure, StressResult

EXIT_FAILURE_FOUND = 1
SHOW_CHARS = 1500


def _counts(result: StressResult) -> str:
    shown = ", ".join(f"{n} {v}" for v, n in sorted(result.verdicts.items()))
    extra = []
    if result.invalid:
        extra.append(f"{result.invalid} invalid generated")
    if result.reference_failed:
        extra.append(f"{result.reference_failed} without a reference answer")
    return f"{result.cases} cases ({shown or 'none'})" + "".join(f", {e}" for e in extra)


def _progress(result: StressResult) -> None:
    typer.echo(f"stress {result.problem}: {_counts(result)} in {result.elapsed_s:.1f} s", err=True)


def _show(title: str, text: str) -> None:
    typer.echo(f"--- {title}")
    body = text if len(text) <= SHOW_CHARS else text[:SHOW_CHARS] + "\n[... cut]\n"
    typer.echo(body, nl=not body.endswith("\n"))


def _show_failure(result: StressResult, failure: Failure) -> None:
    typer.echo(
        f"FAILED case {failure.index} (family {failure.family}): {failure.verdict}; "
        f"shrunk in {failure.shrink_steps} steps ({failure.shrink_tries} tries); "
        f"{_counts(result)}"
    )
    if failure.shrink_error:
        typer.echo(f"warning: the shrinker failed ({failure.shrink_error}); shrinking stopped")
    _show("input", failure.shrunk)
    _show("expected", failure.expected)
    _show("got", failure.actual)
    why = f": {failure.message}" if failure.message else ""
    typer.echo(f"--- verdict: {failure.verdict}{why}")


@user_errors
def stress(
    problem: Annotated[str, typer.Argument(help="Problem name.")],
    submission: Annotated[str, typer.Option(help="The program under test (a submission spec).")],
    against: Annotated[
        str | None, typer.Option(help="Compare with this submission instead of a solver.")
    ] = None,
    solver: Annotated[
        str | None, typer.Option(help="Reference solver version (default: the problem's).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the case generator.")] = search.DEFAULT_SEED,
    family: Annotated[
        list[str] | None, typer.Option(help="Generator family (repeatable; default: all).")
    ] = None,
    max_cases: Annotated[
        int, typer.Option(min=1, help="Stop after this many cases.")
    ] = search.DEFAULT_MAX_CASES,
    time_budget: Annotated[
        float, typer.Option(min=0.0, help="Stop generating after this many seconds.")
    ] = search.DEFAULT_TIME_BUDGET_S,
    out: Annotated[
        Path | None,
        typer.Option(help="Write the shrunk case: X.in (+ .ans, .out) or a folder."),
    ] = None,
    allow_unsandboxed: AllowUnsandboxed = False,
) -> None:
    """Random cases until the submission fails one, then shrink it to a small
    counterexample (exit 1), or none found within the budget (exit 0)."""
    warn_isolation(allow_unsandboxed)
    result = stress_programs(
        problem,
        submission,
        against=against,
        solver=solver,
        seed=seed,
        families=family or (),
        max_cases=max_cases,
        time_budget_s=time_budget,
        progress=_progress,
    )
    typer.echo(
        f"stress {result.problem}: {result.submission} against {result.reference}, seed {seed}"
    )
    if result.failure is None:
        typer.echo(
            f"no failure: {_counts(result)} in {result.elapsed_s:.1f} s "
            f"(stopped by {result.stopped_by.replace('_', ' ')})"
        )
        return
    _show_failure(result, result.failure)
    if out is not None:
        typer.echo("wrote " + ", ".join(str(p) for p in write_failure(out, result.failure)))
    raise typer.Exit(EXIT_FAILURE_FOUND)
