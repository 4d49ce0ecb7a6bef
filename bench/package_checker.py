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

# bench/solvers.py would shadow the `solvers` package the problem plugins live in
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import os
import random
import shutil
import subprocess
import tempfile
import time

from pipeline.corpus.store import import_path
from pipeline.distribute.cluster import Cluster
from pipeline.grade.job import run_grade
from pipeline.grade.plan import GradeOptions, plan_grade
from pipeline.problem.registry import get_problem

ROOT = Path(__file__).resolve().parents[1]
VALIDATOR = ROOT / "tests" / "packages" / "pairsum_cpp" / "output_validators"
TARGET = 5_000
SUBMISSION = """#include <cstdio>
int main() { long long n; if (std::scanf("%lld", &n) != 1) return 1;
             std::printf("%lld 0\\n", n); return 0; }
"""

# forks N children; each reads nothing, prints a number as the submission does, exits
FORKS = r"""
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char** argv) {
    long n = std::atol(argv[1]);
    for (long i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid == 0) { std::printf("%ld 0\n", i); std::exit(0); }
        int status;
        if (pid < 0 || waitpid(pid, &status, 0) != pid) return 1;
    }
    return 0;
}
"""


def fork_floor(work: Path, n: int) -> float:
    """Cases/s when every case costs two bare forks and nothing else, one loop per core."""
    source, binary = work / "forks.cpp", work / "forks"
    source.write_text(FORKS)
    subprocess.run(["g++", "-O2", "-o", str(binary), str(source)], check=True)
    cores = os.cpu_count() or 1
    per_core = 2 * n // cores
    start = time.perf_counter()
    loops = [
        subprocess.Popen([str(binary), str(per_core)], stdout=subprocess.DEVNULL)
        for _ in range(cores)
    ]
    if any(loop.wait() != 0 for loop in loops):
        raise SystemExit("the fork loop failed")
    return per_core * cores / 2 / (time.perf_counter() - start)


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
    corpus = work / f"{name}-corpus"
    import_path(pkg, get_problem(str(pkg)), corpus, None)
    plan = plan_grade(
        GradeOptions(
            corpora=[corpus],
            submissions=[str(submission)],
            out=work / f"{name}-run",
            cache=False,
        )
    )
    start = time.perf_counter()
    outcome = run_grade(plan)
    rate = outcome.rows / (time.perf_counter() - start)
    assert dict(outcome.verdicts) == {"AC": n}, outcome.verdicts
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, Cluster("local") as cluster:
        work = Path(tmp)
        submission = work / "split.cpp"
        submission.write_text(SUBMISSION)
        print(f"{args.n} cases; cluster: {cluster.describe()}")
        print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        floor = fork_floor(work, args.n)
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
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
