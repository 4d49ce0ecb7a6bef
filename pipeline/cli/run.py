"""`gridjudge run CONFIG`: the whole job described by a YAML config."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import (
    EXIT_GATE,
    AllowUnsandboxed,
    interrupts_end,
    user_errors,
    warn_isolation,
)


@user_errors
def run(
    config: Annotated[Path, typer.Argument(help="Run config (YAML); see configs/.")],
    address: Annotated[
        str | None,
        typer.Option(help="Ray cluster to join, overriding the config's `address`."),
    ] = None,
    allow_unsandboxed: AllowUnsandboxed = False,
) -> None:
    """Make missing corpora, grade every job, write reports — as the config says.

    Rerunning the same config resumes its runs (unless it sets `resume: false`). Exit
    code 1 when a job's `compare` gate trips, as `gridjudge compare` does."""
    # imported here: `run --help` must not load Ray, scipy and pandas
    from pipeline.compare.render import render
    from pipeline.jobs.config import load_config
    from pipeline.jobs.config_job import COMPARE_DIR, run_config
    from pipeline.report.terminal import print_summary, step_printer, wide_console

    cfg = load_config(config)
    # a job may allow it (allow_unsandboxed: true); a job that does not is refused
    warn_isolation(allow_unsandboxed or all(j.allow_unsandboxed for j in cfg.jobs.values()))
    if address is not None:
        cfg = cfg.model_copy(update={"address": address})
    console = wide_console()
    hint = f"finished chunks are in {cfg.out / 'runs'}; run the same config again to resume"
    if not cfg.resume:
        hint = f"finished chunks are in {cfg.out / 'runs'}; the config says resume: false"
    with interrupts_end(hint):
        result = run_config(cfg, on_step=step_printer(console))
    for name, job in result.jobs.items():
        if job.outcome.summary is not None:
            print_summary(job.outcome.summary, title=f"job {name}", console=console)
        if job.report is not None:
            console.print(f"report: {job.report}")
        if job.comparison is not None:
            render(job.comparison, console, max_rows=20, out_dir=job.run_dir / COMPARE_DIR)
    if result.gate_tripped:
        raise typer.Exit(EXIT_GATE)
