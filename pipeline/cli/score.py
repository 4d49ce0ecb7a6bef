"""`gridjudge score`: rescore a finished run under a scoring policy, without grading."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from pipeline.cli.common import user_errors
from pipeline.jobs.scores import finish_run
from pipeline.report.terminal import name_cell, wide_console
from pipeline.results.store import RunDirError
from pipeline.scoring.feedback import Feedback
from pipeline.scoring.policy import load_policy


@user_errors
def score(
    run_dir: Annotated[Path, typer.Argument(help="Run folder written by `gridjudge grade`.")],
    scoring: Annotated[
        Path | None,
        typer.Option(help="Scoring policy (YAML; default: the run's last, else one per family)."),
    ] = None,
    feedback: Annotated[
        Feedback,
        typer.Option(
            help="feedback/<id>.md: show the failing cases' inputs and checker messages, "
            "or only their verdicts and what the judge measured."
        ),
    ] = Feedback.hide_inputs,
) -> None:
    """Score RUN_DIR from its results parquet (no submission runs): rewrite gradebook.csv,
    gradebook.parquet, feedback/<id>.md, scoring.yaml and report.html, print the scores."""
    if not run_dir.is_dir():
        raise RunDirError(f"run folder {run_dir} does not exist")
    policy = load_policy(scoring) if scoring is not None else None
    done = finish_run(run_dir, policy, feedback.value)
    if done is None:
        raise RunDirError(f"{run_dir} has no results to score")
    table = Table("submission", "score", *(g.name for g in done.policy.groups), "compile")
    for row in done.book.to_pylist():
        # a run over several problems: a row has its own problem's groups only
        got = [row.get(f"points_{g.name}") for g in done.policy.groups]
        points = ["" if p is None else f"{p:.2f}" for p in got]
        table.add_row(name_cell(row["submission"]), f"{row['score']:.2f}", *points, row["compile"])
    wide_console().print(table)
    typer.echo(f"scored {len(done.book)} submissions out of {done.policy.max_score:g} in {run_dir}")
