"""`gridjudge strength`: how strong a test set is. Every wrong program (and mutants of a
correct one) on every case, which cases kill which programs, the survivors, and the
smallest corpus that kills everything the full one kills (docs/strength.md).

Exit 0: the matrix and the minimal corpus are written (survivors or not); 2: a user
error (a target that is neither corpus nor package, a missing program, a bad option);
130 / 143: interrupted (the graded chunks are kept: continue with --resume)."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import (
    AllowUnsandboxed,
    RayAddress,
    interrupts_end,
    say,
    user_errors,
    warn_isolation,
)
from pipeline.grade.plan import GradeOptions
from pipeline.grade.settings import DEFAULT, GradeSettings
from pipeline.strength.matrix import GradeRun
from pipeline.strength.run import (
    DEFAULT_COVER_TIME_S,
    StrengthOptions,
    StrengthOutcome,
    run_strength,
)

SHOWN_SURVIVORS = 20
DEFAULT_MAX_TLE = 3
PROGRESS_S = 5.0


@user_errors
def strength(
    target: Annotated[
        Path, typer.Argument(help="A corpus folder of a built-in problem, or a problem package.")
    ],
    out: Annotated[Path, typer.Option(help="Folder to write the matrix, tables and corpora.")],
    wrong: Annotated[
        list[Path],
        typer.Option(help="A wrong program, or a folder of them (repeatable)."),
    ] = [],  # noqa: B006 (typer reads the default; never mutated)
    mutate: Annotated[
        list[Path],
        typer.Option(
            help="A correct source file to make mutants of (repeatable; default: a "
            "package's accepted submissions)."
        ),
    ] = [],  # noqa: B006
    mutants: Annotated[
        int, typer.Option(min=0, help="How many mutants to grade, sampled from all made.")
    ] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the mutant sample and the searches.")] = 0,
    examples: Annotated[
        bool,
        typer.Option(
            "--examples/--no-examples",
            help="Add a built-in problem's wrong examples (datasets/examples/PROBLEM/).",
        ),
    ] = StrengthOptions.examples,
    stress_survivors: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="Seconds of `stress` per survivor for a case that kills it (a built-in "
            "problem); the shrunk cases go to OUT/regression/ (default 0: none).",
        ),
    ] = 0.0,
    address: RayAddress = GradeOptions.address,
    resume: Annotated[
        bool, typer.Option(help="Continue the strength run in --out (its grading run).")
    ] = False,
    batch: Annotated[
        int, typer.Option(help="Cases per process where the problem's format allows several.")
    ] = DEFAULT.batch,
    time_limit: Annotated[
        float | None, typer.Option(help="CPU seconds per case (default: the problem's).")
    ] = DEFAULT.time_limit,
    cover_time_limit: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Seconds the solver may spend on each cover; then the best cover found "
            "is written and said to be unproven.",
        ),
    ] = DEFAULT_COVER_TIME_S,
    max_tle: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="After N TLEs of a program its other cases are not run (they kill "
            "nothing): a mutant that loops forever costs N time limits, not one per case.",
        ),
    ] = DEFAULT_MAX_TLE,
    cache: Annotated[
        bool,
        typer.Option("--cache/--no-cache", help="Take pairs graded before from the result cache."),
    ] = GradeOptions.cache,
    allow_unsandboxed: AllowUnsandboxed = DEFAULT.allow_unsandboxed,
) -> None:
    """Grade wrong programs and mutants on every case of TARGET; write the kill matrix,
    the survivors and the minimal corpus that still kills every killed program."""
    settings = GradeSettings.of_options(
        batch=batch, time_limit=time_limit, max_tle=max_tle, allow_unsandboxed=allow_unsandboxed
    )
    warn_isolation(settings.allow_unsandboxed)
    grading = GradeRun(out / "run", address, resume, settings, cache)
    options = StrengthOptions(
        target, out, list(wrong), list(mutate), mutants, seed, grading,
        examples=examples, stress_s=stress_survivors, cover_time_s=cover_time_limit,
    )  # fmt: skip
    rows = _Rows()
    with interrupts_end(f"graded chunks are in {out / 'run'}; continue with --resume"):
        outcome = run_strength(options, rows.on_rows, rows.stage)
    _print(outcome, out)


class _Rows:
    """A line on stderr at most every PROGRESS_S seconds while the pairs are graded."""

    def __init__(self) -> None:
        self.rows, self.counts, self.start = 0, Counter[str](), time.monotonic()
        self.last = self.start

    def stage(self, line: str) -> None:
        """A step's line; the rate counts from the step that grades."""
        typer.echo(line, err=True)
        self.start = self.last = time.monotonic()

    def on_rows(self, n: int, counts: Counter[str]) -> None:
        self.rows += n
        self.counts.update(counts)
        now = time.monotonic()
        if now - self.last >= PROGRESS_S:
            self.last = now
            shown = ", ".join(f"{v} {k}" for k, v in sorted(self.counts.items()))
            rate = self.rows / max(now - self.start, 1e-9)
            typer.echo(f"graded {self.rows} pairs ({shown}), {rate:.0f}/s", err=True)


def _print(outcome: StrengthOutcome, out: Path) -> None:
    f = outcome.figures
    by_kind = ", ".join(f"{n} {kind}" for kind, n in f["programs_by_kind"].items())
    typer.echo(f"programs: {f['programs']} ({by_kind})")
    if f["mutants_made"]:
        typer.echo(
            f"mutants: {f['mutants_made']} made, {f['mutants_sampled']} sampled (seed "
            f"{f['seed']}), {f['mutants_compile_failed']} did not compile (dropped)"
        )
    for check in outcome.target.checks:  # a package's inputs and submissions, as verify's
        if not check.ok and not check.skipped:
            say(f"left out: {check.name}: {check.detail}")
    for line in f["not_mutated"]:
        say(f"not mutated: {line}")
    for label in f["compile_failed"]:
        say(f"left out: {label} does not compile, or its language cannot run here")
    typer.echo(f"matrix: {outcome.pairs} pairs; killed {f['killed']} of {f['programs']}")
    survivors = f["survivors"]
    if survivors:
        shown = ", ".join(survivors[:SHOWN_SURVIVORS])
        more = f" and {len(survivors) - SHOWN_SURVIVORS} more" if len(survivors) > 20 else ""
        say(f"survivors ({len(survivors)}): {shown}{more}")
    else:
        typer.echo("survivors: none")
    share = f["minimal_cases"] / f["cases"] * 100 if f["cases"] else 0.0
    cpu_share = f["minimal_cpu_ms"] / f["cpu_ms"] * 100 if f["cpu_ms"] else 0.0
    typer.echo(
        f"minimal corpus: {f['minimal_cases']} of {f['cases']} cases ({share:.1f}%), "
        f"{cpu_share:.1f}% of the CPU; by CPU: {f['minimal_by_cpu_cases']} cases"
    )
    if not f["optimal"]:
        typer.echo(
            f"the cover is the best found within --cover-time-limit, not proven minimal "
            f"(at most {f['gap']:.1%} above the bound)"
        )
    if "regression_cases" in f:
        found = f["regression_cases"]
        typer.echo(f"stress: a case that kills {found} of the survivors, in regression/")
    written = "matrix.parquet, programs.parquet, cases.parquet, families.parquet, minimal/"
    written += ", report.html"
    extra = ", data/" if outcome.target.package is not None else ""
    extra += ", survivors.parquet, regression/" if "regression_cases" in f else ""
    typer.echo(f"wrote {written}{extra} and strength.json in {out}")
