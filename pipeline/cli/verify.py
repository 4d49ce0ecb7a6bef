"""`gridjudge verify`: the problem setter's check of a problem package."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import EXIT_GATE, AllowUnsandboxed, say, user_errors, warn_isolation
from pipeline.verify.junit import write_junit
from pipeline.verify.runs import SERIAL_RUNS, VerifyOptions
from pipeline.verify.verification import verify_package


@user_errors
def verify(
    package: Annotated[Path, typer.Argument(help="Problem package folder (holding problem.yaml).")],
    junit: Annotated[
        Path | None, typer.Option(help="Write JUnit XML here: one testcase per expectation.")
    ] = None,
    repeat: Annotated[
        int,
        typer.Option(
            min=1,
            help="Runs of a case whose time may matter (its first AC and within a factor 2 of "
            "the limit or of the slowest accepted case); the times are their medians.",
        ),
    ] = VerifyOptions.repeat,
    address: Annotated[
        str | None,
        typer.Option(
            help="Ray cluster, as for grade (`local-serial`: no Ray; default: no Ray for a "
            f"package of up to {SERIAL_RUNS} runs, cases x submissions, else the embedded "
            "local Ray).",
        ),
    ] = VerifyOptions.address,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Submissions graded at once, side by side (default: the cluster's CPUs; "
            "1: one after the other, as problemtools grades them).",
        ),
    ] = VerifyOptions.workers,
    fork_server: Annotated[
        bool,
        typer.Option(
            "--fork-server/--no-fork-server",
            help="Fork each case's process from a server, as grade does (docs/sandbox.md).",
        ),
    ] = VerifyOptions.fork_server,
    work: Annotated[
        Path | None,
        typer.Option(help="Keep the corpus and run folders here (default: a temporary folder)."),
    ] = VerifyOptions.work,
    budget: Annotated[
        float | None,
        typer.Option(
            help="Stop grading after this many seconds (looked at as each submission starts) and "
            "report what was checked; the rest is listed as not checked.",
        ),
    ] = VerifyOptions.budget_s,
    python: Annotated[
        str | None,
        typer.Option(
            help="Language version of the package's `.py` submissions: `py3` (CPython) or "
            "`pypy3` (default: what problem.yaml's gridjudge.python says, else `pypy3` where "
            "installed, as problemtools runs them, else `py3`).",
        ),
    ] = VerifyOptions.python,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Fail on gridjudge's stricter findings too (WARN lines: a rejected "
            "submission that also crashes or times out on a later case, a TLE submission "
            "under limit x margin, a derived limit near a rounding boundary); every case of "
            "a rejected submission is then graded.",
        ),
    ] = VerifyOptions.strict,
    allow_unsandboxed: AllowUnsandboxed = False,
) -> None:
    """Check PACKAGE as a problem setter would: every input validates, the output
    validator survives junk output, every submission under submissions/ gets the verdict
    (and score) its folder promises, as the format's own tool reads it (legacy and
    2023-07: problemtools, the first rejected case; 2025-09: every case), and the time
    limit (given, or derived from the slowest accepted submission) keeps its margins.
    Exit 1 when any expectation fails; WARN lines (gridjudge's stricter findings) fail
    only with --strict. Progress goes out as each submission is graded (`... ` lines:
    its verdicts so far, the time limit derived)."""
    warn_isolation(allow_unsandboxed)
    options = VerifyOptions(
        package,
        repeat=repeat,
        address=address,
        fork_server=fork_server,
        work=work,
        budget_s=budget,
        python=python,
        progress=say,
        strict=strict,
        workers=workers,
    )
    result = verify_package(options)
    for check in result.checks:
        say(f"{check.status}  {check.name}: {check.detail}")
    if junit is not None:
        typer.echo(f"wrote {write_junit(junit, result)}")
    failed = len(result.failures)
    total = sum(not c.skipped for c in result.checks)
    unchecked = len(result.checks) - total
    warned = len(result.warnings)
    aside = f"; {warned} warning{'' if warned == 1 else 's'}" if warned else ""
    aside += f"; {unchecked} not checked" if unchecked else ""
    if failed:
        typer.echo(f"{failed} of {total} expectations failed{aside}")
        raise typer.Exit(EXIT_GATE)
    typer.echo(f"all {total} expectations hold (time limit {result.time_limit_s:g} s){aside}")
