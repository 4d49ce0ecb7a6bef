"""`gridjudge inspect`: a corpus's manifest, checked against its parts; or, for a run
folder and a case, that case's results rows with an interactive case's transcript (the
whole transcript with --transcript, by running the case again)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import fail, say, user_errors
from pipeline.corpus.store import verify
from pipeline.grade.replay import case_rows, full_transcript
from pipeline.results.store import RUN_JSON


@user_errors
def inspect(
    corpus: Annotated[Path, typer.Argument(help="Corpus folder, or a run folder with --case.")],
    case: Annotated[
        str | None, typer.Option("--case", help="Run folder: show this case's rows.")
    ] = None,
    submission: Annotated[
        str | None,
        typer.Option("--submission", "-s", help="Run folder: only this submission's row."),
    ] = None,
    transcript: Annotated[
        bool,
        typer.Option(
            "--transcript",
            help="Run the case of --submission again and print its whole transcript.",
        ),
    ] = False,
) -> None:
    """Read a corpus back in full and check it against its manifest (count, hash); or
    show one case of a run folder (--case), an interactive case's transcript with it."""
    if (corpus / RUN_JSON).is_file():
        if case is None:
            raise fail(f"{corpus} is a run folder: name a case with --case")
        _case(corpus, case, submission, transcript)
        return
    manifest = verify(corpus)
    typer.echo(
        f"{corpus}: {manifest.count} cases of {manifest.problem}, "
        f"schema v{manifest.schema_version}, sha256 {manifest.content_sha256[:16]}…"
    )
    for family, count in manifest.families.items():
        say(f"  {family:<24} {count:>9}")
    typer.echo("ok: parts match the manifest")


def _case(run_dir: Path, case: str, submission: str | None, whole: bool) -> None:
    if whole:
        if submission is None:
            raise fail("--transcript runs one case of one submission: name it with -s")
        again = full_transcript(run_dir, submission, case)
        say(f"{submission} on {case}, run again: {again.check.verdict} {again.check.message}")
        say(again.transcript or "")
        return
    rows = case_rows(run_dir, case, submission)
    if not rows:
        raise fail(f"{run_dir}: no results for case {case!r}")
    for row in rows:
        message = f" ({row['checker_msg']})" if row["checker_msg"] else ""
        say(f"{row['submission']} on {case}: {row['verdict']}{message}")
        if row["transcript"]:
            typer.echo("transcript (> submission wrote, < judge program wrote):")
            say(str(row["transcript"]))
