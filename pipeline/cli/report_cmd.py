"""`gridjudge report`: terminal summary tables, summary.parquet and report.html of a run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import user_errors
from pipeline.report.html import REPORT_FILE, write_report
from pipeline.report.terminal import print_summary, wide_console
from pipeline.results.store import (
    SUMMARY_FILE,
    RunDirError,
    unfinished,
    unreadable_parts,
    write_summary,
)


@user_errors
def report(
    run_dir: Annotated[Path, typer.Argument(help="Run folder written by `gridjudge grade`.")],
    html: Annotated[
        Path | None,
        typer.Option(help=f"Where to write the HTML report (default RUN_DIR/{REPORT_FILE})."),
    ] = None,
    families: Annotated[
        bool, typer.Option("--families/--no-families", help="Also print one line per family.")
    ] = False,
) -> None:
    """Print a run's summary; (re)write RUN_DIR/summary.parquet and the HTML report.

    The HTML report is one self-contained file (inline CSS and SVG charts,
    no network resources): run info, summary, verdicts per submission, cpu
    time per family, slowest cases, failing cases with checker message and
    the head of the output.
    """
    if not run_dir.is_dir():
        raise RunDirError(f"run folder {run_dir} does not exist")
    console = wide_console()
    for part, why in unreadable_parts(run_dir):  # reported without: see `grade --resume`
        console.print(f"{part}: unreadable ({why}); reporting the other parts", highlight=False)
    summary = write_summary(run_dir, skip_unreadable=True)
    if unfinished(run_dir):
        console.print(unfinished(run_dir), highlight=False)
    if summary.num_rows == 0:
        console.print(f"{run_dir}: no results yet")
    else:
        print_summary(summary, families=families, title=f"summary of {run_dir}", console=console)
    target = write_report(run_dir, html, summary=summary)
    console.print(f"wrote {run_dir / SUMMARY_FILE} and {target}", highlight=False)
