"""What the package benches (package_checker.py, interactive.py) share: the machine's
floor for a design that gives every run a fresh process (two bare forks per case), a
package imported as a corpus, one timed grading, and the frame of a run (a scratch
folder, the embedded Ray, the load before and after).

A bench imports this module before it takes bench/ off sys.path (bench/solvers.py would
shadow the `solvers` package); nothing imported here imports `solvers`.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline.corpus.importers import import_path
from pipeline.distribute.cluster import Cluster
from pipeline.grade.driver import run_grade
from pipeline.grade.plan import GradeOptions, plan_grade
from pipeline.grade.settings import DEFAULT, GradeSettings
from pipeline.problem.registry import get_problem

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


def import_corpus(package: Path, corpus: Path) -> Path:
    """The package's cases as a corpus at `corpus`."""
    import_path(package, get_problem(str(package)), corpus, None)
    return corpus


def graded(
    work: Path,
    name: str,
    corpus: Path,
    submission: Path,
    settings: GradeSettings = DEFAULT,
) -> tuple[float, Counter[str]]:
    """Cases/s of grading `submission` on `corpus` (no result cache) into work/NAME-run,
    and the verdicts."""
    plan = plan_grade(
        GradeOptions(
            corpora=[corpus],
            submissions=[str(submission)],
            out=work / f"{name}-run",
            cache=False,
            settings=settings,
        )
    )
    start = time.perf_counter()
    outcome = run_grade(plan)
    return outcome.rows / (time.perf_counter() - start), Counter(dict(outcome.verdicts))


@contextmanager
def bench_run(what: str) -> Iterator[Path]:
    """A scratch folder on an embedded local Ray; prints WHAT with the cluster and the
    load average at the start, and the load average at the end."""
    with tempfile.TemporaryDirectory() as tmp, Cluster("local") as cluster:
        print(f"{what}; cluster: {cluster.describe()}")
        print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        yield Path(tmp)
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
