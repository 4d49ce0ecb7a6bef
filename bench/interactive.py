"""Throughput of an interactive package problem: a trivial C++ interactor and a trivial
C++ submission that exchange one line each way per case (two sandboxed processes joined
through the judge's relay, interact.interact), N cases graded on the embedded Ray cluster,
once with both programs forked from their fork servers and once with both spawned.

Printed in the same run: the machine's floor for a design that gives every run a fresh
process, two bare forks per case (bench/package_bench.py's fork_floor: no sandbox, no
pipes, no judge), and each way's cases/s as a ratio to it; and the fork servers' rate as
a ratio to spawning both.

    .venv/bin/python bench/interactive.py [--n 2000]
"""

from __future__ import annotations

import sys
from pathlib import Path

import package_bench  # beside this script: found while bench/ is sys.path[0]

# bench/solvers.py would shadow the `solvers` package the problem plugins live in
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import os
import random

from pipeline.grade.settings import GradeSettings

INTERACTOR = r"""
#include <cstdio>
int main(int argc, char** argv) {
    FILE* in = std::fopen(argv[1], "r");
    long long n, got;
    if (!in || std::fscanf(in, "%lld", &n) != 1) return 1;
    std::printf("%lld\n", n);
    std::fflush(stdout);
    if (std::scanf("%lld", &got) != 1) return 43;
    return got == n + 1 ? 42 : 43;
}
"""
SUBMISSION = r"""
#include <cstdio>
int main() {
    long long n;
    if (std::scanf("%lld", &n) != 1) return 1;
    std::printf("%lld\n", n + 1);
    std::fflush(stdout);
    return 0;
}
"""


def package(folder: Path, n: int) -> Path:
    (folder / "data" / "secret").mkdir(parents=True)
    (folder / "output_validator" / "next").mkdir(parents=True)
    (folder / "output_validator" / "next" / "next.cpp").write_text(INTERACTOR)
    (folder / "problem.yaml").write_text(
        "problem_format_version: 2023-07\ntype: interactive\nname: Next\n"
        "limits:\n  time_limit: 1\n  memory: 256\n"
    )
    rng = random.Random(1)
    for i in range(n):
        value = rng.randint(0, 10**9)
        (folder / "data" / "secret" / f"{i:06d}.in").write_text(f"{value}\n")
        (folder / "data" / "secret" / f"{i:06d}.ans").write_text(f"{value + 1}\n")
    return folder


def graded(work: Path, corpus: Path, submission: Path, fork: bool) -> float:
    name = "fork-server" if fork else "spawn"
    settings = GradeSettings(fork_server=fork)
    rate, verdicts = package_bench.graded(work, name, corpus, submission, settings)
    assert set(verdicts) == {"AC"}, verdicts
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2_000)
    args = parser.parse_args()
    with package_bench.bench_run(f"{args.n} interactive cases") as work:
        submission = work / "next.cpp"
        submission.write_text(SUBMISSION)
        corpus = package_bench.import_corpus(package(work / "next", args.n), work / "corpus")
        floor = package_bench.fork_floor(work, args.n)
        served = graded(work, corpus, submission, fork=True)
        spawned = graded(work, corpus, submission, fork=False)
        print(
            f"floor, two bare forks per case and nothing else ({os.cpu_count()} loops): "
            f"{floor:,.0f} cases/s"
        )
        print(
            f"interactive, both forked from fork servers: {served:,.0f} cases/s, "
            f"{served / floor:.3f}x the floor, {served / spawned:.2f}x spawning both"
        )
        print(
            f"interactive, both spawned: {spawned:,.0f} cases/s, {spawned / floor:.3f}x the floor"
        )


if __name__ == "__main__":
    main()
