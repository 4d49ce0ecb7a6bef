"""Grading throughput with the fork server against spawning, side by side in one run:
N gomoku cases (one case per file: one process per case) graded on the embedded Ray
cluster by a fast C++ program (the seed program, ../shared/seed_programs/gomoku.cpp)
and by datasets/examples/gomoku/correct.py, each with `--no-fork-server` and then
`--fork-server`. Prints cases/s and their ratio (targets: C++ >= 5x, Python >= 4x),
whether the verdicts agree case by case, and the median cpu_ms of each mode.

Then the CPU time a program with real work is measured at (target: within +-20 %
between the modes): a C program that burns ~50 ms, run through both runners; and with
--golden, the seed programs and every example under datasets/examples graded on the
whole golden corpus (../shared/golden) with each runner: the verdicts must agree.

    .venv/bin/python bench/fork_server.py [--n 20000] [--busy-runs 40] [--golden]
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/solvers.py would shadow the `solvers` package the problem plugins live in
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import os
import statistics
import tempfile
import time

import pyarrow.parquet as pq

from pipeline.corpus.generate import cluster_runner, generate_corpus
from pipeline.distribute.cluster import Cluster
from pipeline.grade.driver import run_grade
from pipeline.grade.engine import grade_cases
from pipeline.grade.plan import GradeOptions, GradeSettings, plan_grade
from pipeline.grade.rows import RowContext
from pipeline.grade.runners.program import ProgramRunner
from pipeline.limits import Limits
from pipeline.problem.registry import get_problem
from pipeline.program.submission import parse_spec, prepare

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT.parent / "shared" / "seed_programs" / "gomoku.cpp"
EXAMPLES = ROOT / "datasets" / "examples"
PYTHON = EXAMPLES / "gomoku" / "correct.py"
GOLDEN = ROOT.parent / "shared" / "golden"
TARGETS = {"C++": 5.0, "Python": 4.0}
BUSY = """#include <stdio.h>
int main(void) {
    volatile unsigned long x = 0;
    for (unsigned long i = 0; i < 60000000UL; i++) x += i ^ (x >> 3);
    printf("%lu\\n", x & 1);
    return 0;
}
"""


Rows = dict[str, tuple[str, float | None, str | None]]


def graded(corpus: Path, out: Path, submission: str, fork_server: bool) -> tuple[float, Rows]:
    """Cases/s of one grading, and its verdict and cpu_ms per case id."""
    plan = plan_grade(
        GradeOptions(
            corpora=[corpus],
            submissions=[submission],
            out=out,
            settings=GradeSettings(fork_server=fork_server),
            cache=False,
        )
    )
    start = time.perf_counter()
    outcome = run_grade(plan)
    rate = outcome.rows / (time.perf_counter() - start)
    table = pq.read_table(out / "results", columns=["case_id", "verdict", "cpu_ms", "runner"])
    values = zip(*(table[c].to_pylist() for c in ("verdict", "cpu_ms", "runner")), strict=True)
    rows = dict(zip(table["case_id"].to_pylist(), values, strict=True))
    return rate, rows


def busy_cpu(work: Path, runs: int) -> None:
    source = work / "busy.c"
    source.write_text(BUSY)
    problem = get_problem("gomoku")
    sub = prepare(parse_spec(str(source)), problem)
    limits = Limits.from_seconds(5.0)
    spawn = ProgramRunner(problem, sub, limits, fork_server=False)
    fork = ProgramRunner(problem, sub, limits)
    cpu: dict[str, list[float]] = {"spawn": [], "fork server": []}
    try:
        for i in range(runs):  # interleaved: the machine's noise hits both alike
            for name, runner in (("spawn", spawn), ("fork server", fork))[:: 1 if i % 2 else -1]:
                cpu[name].append(runner.execute("").cpu_ms)
    finally:
        fork.close()
    a, b = (statistics.median(cpu[k]) for k in ("spawn", "fork server"))
    print(
        f"busy C program, {runs} runs each: cpu_ms median spawn {a:.1f}, fork server {b:.1f}: "
        f"{(b - a) / a * 100:+.1f} % (target within +-20 %) -> "
        f"{'met' if abs(b - a) <= 0.2 * a else 'NOT met'}"
    )


def golden_cases(problem: str) -> list[dict[str, str]]:
    return [
        {
            "case_id": f"{path.parent.name}/{path.stem}",
            "family": path.parent.name,
            "input": path.read_text(),
            "expected": path.with_suffix(".ans").read_text(),
        }
        for path in sorted((GOLDEN / problem).glob("*/*.in"))
    ]


def golden_agreement() -> None:
    """Seed programs and examples on the whole golden corpus: spawned vs fork server."""
    for name in ("clocks", "gomoku", "mine", "spot", "tetris"):
        problem = get_problem(name)
        seed = SEED.with_name(f"{name}.cpp")
        specs = [f"cpp98:{seed}" if name == "spot" else str(seed)]
        specs += [str(p) for p in sorted((EXAMPLES / name).iterdir())]
        subs = [prepare(parse_spec(spec), problem) for spec in specs]
        cases = golden_cases(name)
        verdicts = {}
        for mode in (False, True):
            context = RowContext("b", name, 1, "b")
            settings = GradeSettings(fork_server=mode)
            table = grade_cases(
                problem, subs, cases, problem.limits, context, settings=settings
            ).table
            verdicts[mode] = table.column("verdict").to_pylist()
            runners = sorted(set(table.column("runner").to_pylist()))
        same = sum(a == b for a, b in zip(verdicts[False], verdicts[True], strict=True))
        print(
            f"golden {name}: {len(subs)} programs x {len(cases)} cases: verdicts agree on "
            f"{same}/{len(verdicts[False])}; fork-server run's runners {runners}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--busy-runs", type=int, default=40)
    parser.add_argument("--golden", action="store_true", help="also the golden agreement")
    args = parser.parse_args()
    if not SEED.is_file():
        raise SystemExit(f"the seed program {SEED} is missing (../shared is absent)")
    with tempfile.TemporaryDirectory() as tmp, Cluster("local") as cluster:
        work = Path(tmp)
        corpus = work / "gomoku"
        generate_corpus(get_problem("gomoku"), args.n, 1, corpus, runner=cluster_runner(cluster))
        print(f"{args.n} gomoku cases; cluster: {cluster.describe()}")
        print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        for label, submission in (("C++", str(SEED)), ("Python", str(PYTHON))):
            rates: dict[bool, float] = {}
            rows: dict[bool, Rows] = {}
            for fork_server in (False, True):
                out = work / f"{label}-{fork_server}"
                rates[fork_server], rows[fork_server] = graded(corpus, out, submission, fork_server)
            agree = sum(rows[False][c][0] == rows[True][c][0] for c in rows[False])
            served = {str(r[2]) for r in rows[True].values()}
            ratio = rates[True] / rates[False]
            cpu = [
                statistics.median(r[1] for r in rows[m].values() if r[1] is not None)
                for m in (False, True)
            ]
            print(
                f"{label}: spawn {rates[False]:,.0f} cases/s, fork server {rates[True]:,.0f} "
                f"cases/s: {ratio:.1f}x (target >= {TARGETS[label]:.0f}x) -> "
                f"{'met' if ratio >= TARGETS[label] else 'NOT met'}; verdicts agree on "
                f"{agree:,}/{len(rows[False]):,} cases; runner {sorted(served)}; "
                f"median cpu_ms spawn {cpu[0]:.2f}, fork server {cpu[1]:.2f}"
            )
        busy_cpu(work, args.busy_runs)
        if args.golden:
            golden_agreement()
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
