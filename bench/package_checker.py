"""Throughput of a package problem whose answers are judged by a custom output validator
(a C++ program run per case, the Kattis protocol), against the same cases judged by the
default validator (gridjudge's own, in the judge process): a trivial accepted C++
submission, N cases, graded on the embedded Ray cluster in the same run.

Target: the custom-checker problem keeps >= 5,000 cases/s on 2 cores.

Also printed, measured in the same run: the machine's floor for a design that gives every
run a fresh process -- two bare forks per case (the submission's and the checker's) of
a C++ process that does the trivial work and exits, no sandbox and no judge, one loop
per core. No grading of such a problem can be faster than this.

    .venv/bin/python bench/package_checker.py [--n 20000]
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
import shutil

ROOT = Path(__file__).resolve().parents[1]
VALIDATOR = ROOT / "tests" / "packages" / "pairsum_cpp" / "output_validators"
TARGET = 5_000
SUBMISSION = """#include <cstdio>
int main() { long long n; if (std::scanf("%lld", &n) != 1) return 1;
             std::printf("%lld 0\\n", n); return 0; }
"""


def package(folder: Path, n: int, custom: bool) -> Path:
    """Pair sum: print two non-negative integers whose sum is N."""
    (folder / "data" / "secret").mkdir(parents=True)
    validation = "validation: custom\n" if custom else ""
    (folder / "problem.yaml").write_text(f"name: Pair sum\n{validation}limits:\n  memory: 256\n")
    if custom:
        shutil.copytree(VALIDATOR, folder / "output_validators")
    rng = random.Random(1)
    for i in range(n):
        value = rng.randint(0, 10**9)
        (folder / "data" / "secret" / f"{i:06d}.in").write_text(f"{value}\n")
        (folder / "data" / "secret" / f"{i:06d}.ans").write_text(f"{value} 0\n")
    return folder


def graded(work: Path, name: str, n: int, custom: bool, submission: Path) -> float:
    pkg = package(work / name, n, custom)
    corpus = package_bench.import_corpus(pkg, work / f"{name}-corpus")
    rate, verdicts = package_bench.graded(work, name, corpus, submission)
    assert verdicts == {"AC": n}, verdicts
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    args = parser.parse_args()
    with package_bench.bench_run(f"{args.n} cases") as work:
        submission = work / "split.cpp"
        submission.write_text(SUBMISSION)
        floor = package_bench.fork_floor(work, args.n)
        default = graded(work, "default", args.n, False, submission)
        custom = graded(work, "custom", args.n, True, submission)
        print(
            f"floor, two bare forks per case and nothing else ({os.cpu_count()} loops): "
            f"{floor:,.0f} cases/s"
        )
        print(f"default validator (in the judge): {default:,.0f} cases/s")
        print(
            f"custom C++ output validator: {custom:,.0f} cases/s, {custom / default:.2f}x the "
            f"default validator's (target >= {TARGET:,} cases/s) -> "
            f"{'met' if custom >= TARGET else 'NOT met'}; {custom / floor:.2f}x the floor"
        )


if __name__ == "__main__":
    main()
