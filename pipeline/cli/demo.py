"""`gridjudge demo`: generate, grade and report every installed problem on the embedded Ray."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import interrupts_end, user_errors, warn_isolation
from pipeline.jobs.demo import DEMO_CASES_PER_FAMILY, DEMO_SEED, run_demo
from pipeline.report.terminal import print_summary, step_printer, wide_console
from pipeline.results.store import SUMMARY_FILE


@user_errors
def demo(
    out: Annotated[
        Path, typer.Option(help="Output folder (an earlier demo there is replaced).")
    ] = Path("demo-out"),
    address: Annotated[
        str | None,
        typer.Option(help="Ray cluster to join (default: RAY_ADDRESS, else embedded local Ray)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the generated corpora.")] = DEMO_SEED,
    cases: Annotated[
        int | None,
        typer.Option(
            help=f"Cases per problem (default: {DEMO_CASES_PER_FAMILY} per generator family)."
        ),
    ] = None,
    problem: Annotated[
        list[str] | None,
        typer.Option(
            "--problem", help="Only these problems (repeatable; default: every installed one)."
        ),
    ] = None,
) -> None:
    """Run the main job on a fresh machine: generate, grade, summarize, report.

    For each problem: a generated corpus, graded for the reference solver
    (solver:P) and the bundled example submissions in datasets/examples
    (correct, wrong and slow programs in C++ and Python). Writes one run
    folder per problem, summary.parquet and report.html into OUT.
    """
    # the line on the isolation a submission gets here, as `grade` says it; no refusal:
    # the demo's examples are gridjudge's own (jobs.demo.examples_unsandboxed)
    warn_isolation(allow_unsandboxed=True)
    console = wide_console()
    hint = f"finished runs are in {out / 'runs'}; `gridjudge demo` again starts over"
    with interrupts_end(hint):
        result = run_demo(
            out,
            address=address,
            seed=seed,
            problems=problem,
            counts=cases,
            on_step=step_printer(console),
        )
    print_summary(result.summary, title="gridjudge demo", console=console)
    shown = ", ".join(f"{v} {n}" for v, n in result.verdicts.most_common())
    total = result.verdicts.total()
    console.print(
        f"{total} results ({shown}) in {result.elapsed_s:.0f} s on {result.cluster}",
        highlight=False,
    )
    console.print(
        f"wrote {result.out / SUMMARY_FILE}, {result.report} and run folders under "
        f"{result.out / 'runs'}",
        highlight=False,
    )
