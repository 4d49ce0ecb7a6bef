"""`gridjudge grade`: grade submissions on corpora through Ray, into a run folder."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from pipeline.cli.common import user_errors
from pipeline.grade.job import run_grade
from pipeline.grade.plan import GradeOptions, GradeOutcome, GradePlan, plan_grade
from pipeline.results import store as report

_STYLE = {"AC": "green", "WA": "red", "TLE": "yellow", "RE": "magenta", "CE": "red", "IE": "cyan"}


class _RateColumn(ProgressColumn):
    """Cases per second over the whole run so far (rich's own speed is a short window)."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        done = task.completed - task.fields.get("resumed", 0)
        rate = done / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.0f} cases/s", style="progress.data.speed")


def _verdict_text(counts: Counter[str]) -> str:
    return " ".join(f"[{_STYLE.get(v, 'white')}]{v} {n}[/]" for v, n in sorted(counts.items()) if n)


@user_errors
def grade(
    corpora: Annotated[
        list[Path], typer.Argument(help="Corpus folders (their problem is in their manifest).")
    ],
    submission: Annotated[
        list[str],
        typer.Option(
            "--submission",
            "-s",
            help="PATH, LANG:PATH, cmd:<command> or solver:<problem>\\[@<version>] (repeatable).",
        ),
    ],
    out: Annotated[Path, typer.Option(help="Run folder to write (results/, run.json, summary).")],
    address: Annotated[
        str | None,
        typer.Option(
            help="Ray cluster to join (default: RAY_ADDRESS, else an embedded local cluster; "
            "`local-serial` runs in this process without Ray).",
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option(help="Continue the run in --out: skip every pair that has a row.")
    ] = False,
    batch: Annotated[
        int, typer.Option(help="Cases per process where the problem's format allows several.")
    ] = 1,
    repeat: Annotated[
        int, typer.Option(help="Run each case R times (interleaved); keep every timing.")
    ] = 1,
    time_limit: Annotated[
        float | None, typer.Option(help="CPU seconds per case (default: the problem's).")
    ] = None,
    memory_limit: Annotated[
        int | None, typer.Option(help="MB per case (default: the problem's).")
    ] = None,
    revalidate: Annotated[
        bool,
        typer.Option(
            "--revalidate",
            help="Validate every input again (invalid -> IE). By default inputs are "
            "validated, except in corpora whose manifest says `gridjudge generate` "
            "validated them with this gridjudge's validator.",
        ),
    ] = False,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            help="Cases per Ray task (default: in-process 1,000-50,000 by corpus size, "
            "the last ones smaller; 32 subprocess)."
        ),
    ] = None,
    max_in_flight: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Chunks running at once (default: 2 x cluster CPUs). 1 for timing runs: "
            "chunks timed side by side on a small machine slow each other down.",
        ),
    ] = None,
    cache: Annotated[
        bool,
        typer.Option(
            "--cache/--no-cache",
            help="Take the rows of pairs graded before from the result cache (docs/cache.md).",
        ),
    ] = True,
    cache_max_mb: Annotated[
        int | None, typer.Option(min=1, help="Size cap of the result cache in MB.")
    ] = None,
    only: Annotated[
        str | None,
        typer.Option(help="failing | changed | new: only those pairs of the run in --since."),
    ] = None,
    since: Annotated[
        Path | None, typer.Option(help="The earlier run folder --only compares with.")
    ] = None,
    family: Annotated[
        str | None, typer.Option(help="Only cases of families matching GLOB.")
    ] = None,
    case: Annotated[str | None, typer.Option(help="Only cases whose id matches GLOB.")] = None,
    only_submission: Annotated[
        str | None, typer.Option(help="Only the submissions whose spec matches GLOB.")
    ] = None,
) -> None:
    """Grade every --submission on every case of the CORPORA; results parquet parts are
    written as chunks complete, so a killed run can be continued with --resume."""
    plan = plan_grade(
        GradeOptions(
            corpora=list(corpora),
            submissions=list(submission),
            out=out,
            address=address,
            resume=resume,
            batch_k=batch,
            repeat=repeat,
            time_limit_s=time_limit,
            memory_limit_mb=memory_limit,
            chunk_size=chunk_size,
            revalidate=revalidate,
            max_in_flight=max_in_flight,
            use_cache=cache,
            cache_max_mb=cache_max_mb,
            only=only,
            since=since,
            family=family,
            case=case,
            only_submission=only_submission,
        )
    )
    for part, moved, why in plan.set_aside:
        typer.echo(f"{part}: unreadable ({why}); moved to {moved}, its pairs are graded again")
    if plan.cache_reset:
        typer.echo(f"the result cache was not a database: moved to {plan.cache_reset}")
    for label in plan.changed:
        typer.echo(f"{label}: changed since the run in {out}; its rows are graded again")
    already = min(len(plan.done), plan.total_pairs)
    outcome = _run_with_progress(plan, out, already)
    if outcome.summary is not None:
        report.print_summary(outcome.summary, title=f"run {plan.run_id}")
    resumed = f", {already} resumed" if already else ""
    cached = f" ({outcome.cached} from the result cache)" if outcome.cached else ""
    typer.echo(f"graded {outcome.rows} pairs{cached}{resumed} into {out} on {outcome.where}")


def _run_with_progress(plan: GradePlan, out: Path, already: int) -> GradeOutcome:
    """run_grade with a progress bar on stderr; Ctrl-C says how to continue."""
    console = Console(stderr=True)
    counts: Counter[str] = Counter()
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[verdicts]}"),
        console=console,
        transient=False,
    ) as progress:
        task = progress.add_task(
            "grading", total=plan.total_pairs, completed=already, verdicts="", resumed=already
        )

        def on_rows(n: int, part_counts: Counter[str]) -> None:
            counts.update(part_counts)
            progress.update(task, advance=n, verdicts=_verdict_text(counts))

        def on_start(where: str) -> None:
            progress.update(task, description=f"grading on {where}")

        try:
            return run_grade(plan, on_rows=on_rows, on_start=on_start)
        except KeyboardInterrupt:
            progress.stop()
            typer.echo(
                f"interrupted: finished chunks are in {out}; continue with --resume", err=True
            )
            raise typer.Exit(130) from None
