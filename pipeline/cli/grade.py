"""`gridjudge grade`: grade submissions on corpora through Ray, into a run folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline.cli.common import (
    AllowUnsandboxed,
    RayAddress,
    interrupts_end,
    say,
    user_errors,
    warn_isolation,
)
from pipeline.grade.driver import run_grade
from pipeline.grade.plan import GradeOptions, GradePlan, plan_grade
from pipeline.grade.settings import DEFAULT, GradeSettings
from pipeline.jobs.scores import Finished, finish_run, policy_for
from pipeline.program import submission_sets
from pipeline.program.languages.multipliers import parse_multipliers
from pipeline.report.progress import GradeProgress
from pipeline.report.terminal import graded_line, print_summary, tle_marks
from pipeline.scoring.feedback import Feedback


@user_errors
def grade(
    corpora: Annotated[
        list[Path], typer.Argument(help="Corpus folders (their problem is in their manifest).")
    ],
    out: Annotated[Path, typer.Option(help="Run folder to write (results/, run.json, summary).")],
    submission: Annotated[
        list[str],
        typer.Option(
            "--submission",
            "-s",
            help="PATH, LANG:PATH, cmd:<command> or solver:<problem>[@<version>] (repeatable).",
        ),
    ] = [],  # noqa: B006 (typer reads the default; never mutated)
    submission_dirs: Annotated[
        list[Path],
        typer.Option(
            "--submissions",
            help="A folder: each file or folder in it is one "
            "submission, its id the name without extension (repeatable).",
        ),
    ] = [],  # noqa: B006
    skip_unknown: Annotated[
        bool,
        typer.Option(
            "--skip-unknown",
            help="In --submissions folders, leave out files that are not sources "
            "(a README, notes) instead of refusing the folder.",
        ),
    ] = False,
    submission_lists: Annotated[
        list[Path],
        typer.Option("--submissions-list", help="A CSV of submissions: id, path[, language]."),
    ] = [],  # noqa: B006
    scoring: Annotated[
        Path | None, typer.Option(help="Scoring policy (YAML; default: one group per family).")
    ] = None,
    feedback: Annotated[
        Feedback,
        typer.Option(
            help="feedback/<id>.md: show the failing cases' inputs and checker messages, "
            "or only their verdicts and what the judge measured."
        ),
    ] = Feedback.hide_inputs,
    address: RayAddress = GradeOptions.address,
    resume: Annotated[
        bool, typer.Option(help="Continue the run in --out: skip every pair that has a row.")
    ] = GradeOptions.resume,
    batch: Annotated[
        int, typer.Option(help="Cases per process where the problem's format allows several.")
    ] = DEFAULT.batch,
    repeat: Annotated[
        int, typer.Option(help="Run each case R times (interleaved); keep every timing.")
    ] = DEFAULT.repeat,
    fork_server: Annotated[
        bool,
        typer.Option(
            "--fork-server/--no-fork-server",
            help="Fork each case's process from a server started once per submission "
            "(docs/sandbox.md); spawn every process with --no-fork-server.",
        ),
    ] = DEFAULT.fork_server,
    transcripts: Annotated[
        bool,
        typer.Option(
            "--transcripts/--no-transcripts",
            help="Keep an interactive case's transcript (the judge relays each message); "
            "--no-transcripts joins the two programs' pipes: faster on chatty problems.",
        ),
    ] = DEFAULT.transcripts,
    time_limit: Annotated[
        float | None, typer.Option(help="CPU seconds per case (default: the problem's).")
    ] = DEFAULT.time_limit,
    memory_limit: Annotated[
        int | None, typer.Option(help="MB per case (default: the problem's).")
    ] = DEFAULT.memory_limit,
    revalidate: Annotated[
        bool,
        typer.Option(
            "--revalidate",
            help="Validate every input again (invalid -> IE). By default inputs are "
            "validated, except in corpora whose manifest says `gridjudge generate` "
            "validated them with this gridjudge's validator.",
        ),
    ] = DEFAULT.revalidate,
    max_tle: Annotated[
        int | None,
        typer.Option(
            help="After N TLEs of one submission, its remaining cases are not run "
            "(TLE rows marked not-run; default: every case runs)."
        ),
    ] = DEFAULT.max_tle,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            help="Cases per Ray task (default: chosen by how the cases run, docs/performance.md)."
        ),
    ] = GradeOptions.chunk_size,
    max_in_flight: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Chunks running at once (default: 2 x cluster CPUs). 1 for timing runs: "
            "chunks timed side by side on a small machine slow each other down.",
        ),
    ] = GradeOptions.max_in_flight,
    time_multipliers: Annotated[
        str | None,
        typer.Option(help="Per-language factors of the CPU limit, e.g. 'java=2,py3=3' (none)."),
    ] = None,
    cache: Annotated[
        bool,
        typer.Option(
            "--cache/--no-cache",
            help="Take the rows of pairs graded before from the result cache (docs/cache.md).",
        ),
    ] = GradeOptions.cache,
    cache_max_mb: Annotated[
        int | None, typer.Option(min=1, help="Size cap of the result cache in MB.")
    ] = GradeOptions.cache_max_mb,
    trust_corpus: Annotated[
        bool,
        typer.Option(
            "--trust-corpus",
            help="Grade a corpus whose parts no longer match its manifest's content hash "
            "(`gridjudge inspect` shows it); refused by default.",
        ),
    ] = GradeOptions.trust_corpus,
    max_input_mb: Annotated[
        int,
        typer.Option(
            min=1,
            help="The largest case's input or answer read from a corpus, in MB: a larger "
            "row group is refused from the parquet metadata, before it is read (docs/data.md).",
        ),
    ] = GradeOptions.max_input_mb,
    only: Annotated[
        str | None,
        typer.Option(help="failing | changed | new: only those pairs of the run in --since."),
    ] = GradeOptions.only,
    since: Annotated[
        Path | None, typer.Option(help="The earlier run folder --only compares with.")
    ] = GradeOptions.since,
    family: Annotated[
        str | None, typer.Option(help="Only cases of families matching GLOB.")
    ] = GradeOptions.family,
    case: Annotated[
        str | None, typer.Option(help="Only cases whose id matches GLOB.")
    ] = GradeOptions.case,
    only_submission: Annotated[
        str | None, typer.Option(help="Only the submissions whose spec matches GLOB.")
    ] = GradeOptions.only_submission,
    allow_unsandboxed: AllowUnsandboxed = DEFAULT.allow_unsandboxed,
) -> None:
    """Grade every --submission on every case of the CORPORA; results parquet parts are
    written as chunks complete, so a killed run can be continued with --resume."""
    settings = GradeSettings.of_options(
        time_limit=time_limit,
        memory_limit=memory_limit,
        batch=batch,
        repeat=repeat,
        fork_server=fork_server,
        transcripts=transcripts,
        revalidate=revalidate,
        time_multipliers=parse_multipliers(time_multipliers) if time_multipliers else None,
        max_tle=max_tle,
        allow_unsandboxed=allow_unsandboxed,
    )
    warn_isolation(settings.allow_unsandboxed)
    sets = submission_sets.collect(
        submission_dirs,
        submission_lists,
        skip_unknown,
        on_skip=lambda path, why: say(f"skipped {path}: {why}"),
    )
    policy = policy_for(scoring, list(corpora))
    plan = plan_grade(
        GradeOptions(
            corpora=list(corpora),
            submissions=list(submission),
            out=out,
            address=address,
            resume=resume,
            settings=settings,
            chunk_size=chunk_size,
            max_in_flight=max_in_flight,
            cache=cache,
            trust_corpus=trust_corpus,
            max_input_mb=max_input_mb,
            cache_max_mb=cache_max_mb,
            only=only,
            since=since,
            family=family,
            case=case,
            only_submission=only_submission,
            submission_sets=sets,
        )
    )
    _say_plan(plan, out)
    already = min(len(plan.done), plan.total_pairs)
    with (
        interrupts_end(f"finished chunks are in {out}; continue with --resume"),
        GradeProgress(plan.total_pairs, already, Console(stderr=True)) as progress,
    ):
        outcome = run_grade(plan, on_rows=progress.on_rows, on_start=progress.on_start)
    done = finish_run(out, policy, feedback.value, outcome.summary)
    if outcome.summary is not None:
        marks = tle_marks(done.book) if done is not None else None
        print_summary(outcome.summary, title=f"run {plan.run_id}", marks=marks)
    typer.echo(graded_line(outcome.rows, outcome.cached, already, out, outcome.where))
    typer.echo(_written(done))


def _written(done: Finished | None) -> str:
    if done is None:
        return "no results: no gradebook or report"
    rows = f"{len(done.book)} gradebook row" + ("" if len(done.book) == 1 else "s")
    return f"wrote {rows}, feedback/ and {done.report}"


def _say_plan(plan: GradePlan, out: Path) -> None:
    """What the plan found before any work: parts set aside, a cache reset, changes, and
    isolation below full (said before the plan, by warn_isolation)."""
    for part, moved, why in plan.set_aside:
        typer.echo(f"{part}: unreadable ({why}); moved to {moved}, its pairs are graded again")
    if plan.cache_reset:
        typer.echo(f"the result cache was not a database: moved to {plan.cache_reset}")
    for label in plan.changed:
        say(f"{label}: changed since the run in {out}; its rows are graded again")
