"""`verify` of one of the repository's test packages (tests/packages/guess_cpp: an
interactive package with 8 submissions, two of them TLE) with 1 worker (the submissions
one after the other, as verify graded them before they went side by side) and with 2
workers, through the same code path on one embedded Ray started once for both (its
start is not timed). Each is run ROUNDS times, alternating; the best of each is
compared, and the ratio printed. The verdicts of every run must agree.

    .venv/bin/python bench/verify_parallel.py [PACKAGE]
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from pipeline.distribute.cluster import Cluster
from pipeline.verify.runs import VerifyOptions
from pipeline.verify.verification import verify_package

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "tests" / "packages" / "guess_cpp"
ROUNDS = 3
WORKERS = (1, 2)


def timed_verify(package: Path, workers: int, work: Path) -> tuple[float, list[str]]:
    """Wall seconds of one verify, and its checks' lines."""
    shutil.rmtree(work, ignore_errors=True)
    options = VerifyOptions(package, address="local", workers=workers, work=work)
    start = time.perf_counter()
    result = verify_package(options)
    elapsed = time.perf_counter() - start
    return elapsed, [f"{c.status} {c.name}" for c in result.checks]


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else PACKAGE
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    best: dict[int, float] = {}
    seen: set[tuple[str, ...]] = set()
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp:
        package = Path(shutil.copytree(source, Path(tmp) / source.name))
        with Cluster("local") as cluster:
            print(f"cluster: {cluster.describe()}")
            timed_verify(package, 2, Path(tmp) / "warm")  # builds cached, workers started
            for round_ in range(ROUNDS):
                for workers in WORKERS:
                    elapsed, checks = timed_verify(package, workers, Path(tmp) / "work")
                    seen.add(tuple(checks))
                    best[workers] = min(best.get(workers, elapsed), elapsed)
                    print(f"round {round_ + 1}: {workers} worker(s): {elapsed:.2f} s")
    if len(seen) != 1:
        raise SystemExit(f"the verdicts differ between runs: {sorted(seen)}")
    one, two = best[1], best[2]
    print(f"{source.name}: best of {ROUNDS}: 1 worker {one:.2f} s, 2 workers {two:.2f} s")
    print(f"ratio 1 worker / 2 workers: {one / two:.2f}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
