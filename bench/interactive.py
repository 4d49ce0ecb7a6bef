"""Throughput of an interactive package problem: a trivial C++ interactor and a trivial
C++ submission that exchange one line each way per round (`--rounds` per case), N cases
graded on the embedded Ray cluster: with both programs forked from their fork servers,
relayed by the judge (the transcript kept) and with their pipes joined (no transcript:
what verify does), and with both spawned.

Printed in the same run: the machine's floor for a design that gives every run a fresh
process, two bare forks per case (bench/package_bench.py's fork_floor: no sandbox, no
pipes, no judge), and each way's cases/s as a ratio to it; the fork servers' rate as a
ratio to spawning both; joined pipes as a ratio to the relay. Each way is graded twice,
interleaved, and its better rate kept.

    .venv/bin/python bench/interactive.py [--n 2000] [--rounds 1]
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
    long long n, rounds, got;
    if (!in || std::fscanf(in, "%lld %lld", &n, &rounds) != 2) return 1;
    for (long long i = 0; i < rounds; i++) {
        std::printf("%lld\n", n + i);
        std::fflush(stdout);
        if (std::scanf("%lld", &got) != 1 || got != n + i + 1) return 43;
    }
    return 42;
}
"""
SUBMISSION = r"""
#include <cstdio>
int main() {
    long long n;
    while (std::scanf("%lld", &n) == 1) {
        std::printf("%lld\n", n + 1);
        std::fflush(stdout);
    }
    return 0;
}
"""


def package(folder: Path, n: int, rounds: int) -> Path:
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
        (folder / "data" / "secret" / f"{i:06d}.in").write_text(f"{value} {rounds}\n")
        (folder / "data" / "secret" / f"{i:06d}.ans").write_text(f"{value + 1}\n")
    return folder


def graded(
    work: Path, corpus: Path, submission: Path, fork: bool, transcripts: bool = True
) -> float:
    name = ("fork-server" if fork else "spawn") + ("" if transcripts else "-joined")
    name += f"-{len(list(work.glob(name + '-*')))}"  # a folder of its own for each grading
    settings = GradeSettings(fork_server=fork, transcripts=transcripts)
    rate, verdicts = package_bench.graded(work, name, corpus, submission, settings)
    assert set(verdicts) == {"AC"}, verdicts
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=1, help="exchanges per case")
    args = parser.parse_args()
    with package_bench.bench_run(f"{args.n} interactive cases, {args.rounds} round(s)") as work:
        submission = work / "next.cpp"
        submission.write_text(SUBMISSION)
        folder = package(work / "next", args.n, args.rounds)
        corpus = package_bench.import_corpus(folder, work / "corpus")
        floor = package_bench.fork_floor(work, args.n)
        # twice each, interleaved, the better kept: the first grading of a run also warms
        # the Ray workers and the build cache up
        served, joined, spawned = 0.0, 0.0, 0.0
        for _ in range(2):
            served = max(served, graded(work, corpus, submission, fork=True))
            joined = max(joined, graded(work, corpus, submission, fork=True, transcripts=False))
            spawned = max(spawned, graded(work, corpus, submission, fork=False))
        print(
            f"floor, two bare forks per case and nothing else ({os.cpu_count()} loops): "
            f"{floor:,.0f} cases/s"
        )
        print(
            f"interactive, both forked from fork servers, relayed: {served:,.0f} cases/s, "
            f"{served / floor:.3f}x the floor, {served / spawned:.2f}x spawning both"
        )
        print(
            f"interactive, both forked, pipes joined (no transcript): {joined:,.0f} cases/s, "
            f"{joined / floor:.3f}x the floor, {joined / served:.2f}x relayed"
        )
        print(
            f"interactive, both spawned: {spawned:,.0f} cases/s, {spawned / floor:.3f}x the floor"
        )


if __name__ == "__main__":
    main()
