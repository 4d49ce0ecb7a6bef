"""`gridjudge demo`: generate, grade and report all five problems on the embedded Ray."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import user_errors
from pipeline.jobs.demo import DEMO_COUNTS, DEMO_PROBLEMS, run_demo
from pipeline.report.terminal import print_summary, wide_console


@user_errors
def demo(
    out: Annotated[
        Path, typer.Option(help="Output folder (an earlier demo there is replaced).")
    ] = Path("demo-out"),
    address: Annotated[
        str | None,
        typer.Option(help="Ray cluster to join (default: RAY_ADDRESS, else embedded local Ray)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the generated corpora.")] = 2026,
    cases: Annotated[
        int | None,
        typer.Option(help="Cases per problem (default: 120-240 depending on the problem)."),
    ] = None,
    problem: Annotated[
        list[str] | None,
        typer.Option("--problem", help="Only these problems (repeatable; default: all five)."),
    ] = None,
) -> None:
    """Run the main job on a fresh machine: generate, grade, summarize, report.

    For each problem: a generated corpus, graded for the reference solver
    (solver:P) and the bundled example submissions in datasets/examples
    (correct, wrong and slow programs in C++ and Python). Writes one run
    folder per problem, summary.parquet and report.html into OUT.
    """
    console = wide_console()
    chosen = tuple(problem or DEMO_PROBLEMS)
    counts = {p: cases for p in chosen} if cases is not None else dict(DEMO_COUNTS)
    verdicts: Counter[str] = Counter()
    start = time.monotonic()

    def step(message: str) -> None:
        console.print(f"[dim]{time.monotonic() - start:6.1f}s[/dim] {message}", highlight=False)

    def rows(_n: int, counts: Counter[str]) -> None:
        verdicts.update(counts)

    result = run_demo(
        out, address=address, seed=seed, problems=chosen, counts=counts, on_step=step, on_rows=rows
    )
    print_summary(result.summary, title="gridjudge demo", console=console)
    total = sum(verdicts.values())
    console.print(
        f"{total} results ({', '.join(f'{v} {n}' for v, n in verdicts.most_common())}) "
        f"in {time.monotonic() - start:.0f} s on {result.cluster}",
        highlight=False,
    )
    console.print(
        f"wrote {out / 'summary.parquet'}, {result.report} and run folders under {out / 'runs'}",
        highlight=False,
    )
