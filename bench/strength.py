"""`strength`'s driver side (docs/strength.md), on synthetic kill matrices:

1. the minimal set cover's solve time (HiGHS through scipy.optimize.milp), by count and
   by CPU, at programs x cases sizes up to 1,000 x 10,000, each within --time-limit
   (then the best cover found, and the gap HiGHS could not close);
2. the driver's memory as the matrix grows: a matrix table of 10^5, 10^6, 10^7 pairs
   turned into the cover's arrays (`as_arrays`) and covered, its peak RSS growth.

A synthetic matrix has what a real one has: families of cases, each program killed by
the cases of a few families (a share of them), many programs alike (mutants of one line
killed by the same cases), some killed by nothing. Grading itself (pairs per second)
is `grade`'s and measured by bench/throughput.py.

    .venv/bin/python bench/strength.py [--sizes 100x1000,1000x10000] [--memory 5,6,7]
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import gc
import time

import numpy as np
import psutil
import pyarrow as pa

from pipeline.strength.cover import Cover, minimal_cover
from pipeline.strength.matrix import Cases, as_arrays

FAMILIES = 20


def synthetic(programs: int, cases: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """kills[program, case] and each case's CPU ms."""
    rng = np.random.default_rng(seed)
    family = rng.integers(0, FAMILIES, cases)
    kinds = max(1, programs // 4)  # a quarter as many ways to be wrong as programs
    kills_of = np.zeros((kinds, cases), dtype=bool)
    for k in range(kinds):
        for f in rng.choice(FAMILIES, rng.integers(1, 4), replace=False):
            mine = family == f
            kills_of[k, mine] = rng.random(int(mine.sum())) < rng.uniform(0.01, 0.5)
    kills = kills_of[rng.integers(0, kinds, programs)]
    kills[rng.random(programs) < 0.1] = False  # survivors
    return kills, rng.gamma(2.0, 5.0, cases)


def _proof(cover: Cover) -> str:
    return "optimal" if cover.optimal else f"gap {cover.gap:.0%}"


def bench_cover(sizes: list[tuple[int, int]], limit_s: float) -> None:
    print("programs x cases    killed distinct  cover  time              by CPU  time")
    for programs, cases in sizes:
        kills, cost = synthetic(programs, cases)
        distinct = len(np.unique(kills[kills.any(axis=1)], axis=0))
        start = time.perf_counter()
        by_count = minimal_cover(kills, cost, time_limit_s=limit_s)
        count_s = time.perf_counter() - start
        start = time.perf_counter()
        by_cpu = minimal_cover(kills, cost, by_cpu=True, time_limit_s=limit_s)
        cpu_s = time.perf_counter() - start
        killed = int(kills.any(axis=1).sum())
        print(
            f"{programs:>6} x {cases:<9} {killed:>6} {distinct:>8} {len(by_count.cases):>6} "
            f"{count_s:6.1f} s {_proof(by_count):>8} {len(by_cpu.cases):>6} {cpu_s:6.1f} s "
            f"{_proof(by_cpu)}"
        )


def matrix_table(programs: int, cases: int) -> tuple[pa.Table, list[str], Cases]:
    kills, cost = synthetic(programs, cases)
    labels = [f"p{i}" for i in range(programs)]
    ids = [f"c{j}" for j in range(cases)]
    table = pa.table(
        {
            "program": pa.array(np.repeat(np.array(labels), cases)),
            "case_id": pa.array(np.tile(np.array(ids), programs)),
            "cpu_ms": pa.array(np.tile(cost / max(1, programs), programs)),
            "killed": pa.array(kills.ravel()),
        }
    )
    return table, labels, Cases(ids, ["f"] * cases)


def bench_memory(exponents: list[int], limit_s: float) -> None:
    print("pairs      programs x cases   table MB  RSS growth MB  arrays+cover s")
    process = psutil.Process()
    for e in exponents:
        programs = 10 ** (e // 2)
        cases = 10**e // programs
        gc.collect()
        before = process.memory_info().rss
        table, labels, cases_of = matrix_table(programs, cases)
        start = time.perf_counter()
        kills, cost = as_arrays(table, labels, cases_of)
        minimal_cover(kills, cost, time_limit_s=limit_s)
        took = time.perf_counter() - start
        grown = (process.memory_info().rss - before) / 2**20
        print(
            f"10^{e:<6} {programs:>7} x {cases:<9} {table.nbytes / 2**20:9.1f} "
            f"{grown:14.1f} {took:14.2f}"
        )
        del table, kills, cost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100x1000,300x3000,1000x10000")
    parser.add_argument("--memory", default="5,6,7")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per cover")
    args = parser.parse_args()
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",") if s]
    bench_cover([(p, c) for p, c in sizes], args.time_limit)
    bench_memory([int(e) for e in args.memory.split(",") if e], args.time_limit)


if __name__ == "__main__":
    main()
