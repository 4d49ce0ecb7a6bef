"""`strength`'s driver side (docs/strength.md), on synthetic kill matrices:

1. the minimal set cover's solve time (HiGHS through scipy.optimize.milp), by count and
   by CPU, at programs x cases sizes up to 1,000 x 10,000, each within --time-limit
   (then the best cover found, and the gap HiGHS could not close);
2. the driver's memory as the matrix grows: a run folder of 10^5, 10^6, 10^7 results
   rows read into matrix.parquet and the cover's arrays (`write_kill_matrix`) and
   covered, in a process of its own: its peak RSS over what it held before.

3. with --grade PROGRAMSxCASES: the grading rate of a whole `strength` run, as the
   product runs it (embedded Ray, unpinned): mutants of bench/spot.cpp on a generated
   spot corpus with --batch, in pairs per second of the grading step, against the
   batched engine's own rate measured in the same run (bench/spot.cpp alone on the same
   corpus, `grade --batch`): their ratio is what a population costs beyond one program.

A synthetic matrix has what a real one has: families of cases, each program killed by
the cases of a few families (a share of them), many programs alike (mutants of one line
killed by the same cases), some killed by nothing.

    .venv/bin/python bench/strength.py [--sizes 100x1000,1000x10000] [--memory 5,6,7]
        [--grade 100x10000 --batch 1000]
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import os
import subprocess
import tempfile
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.corpus.generate import generate_corpus
from pipeline.grade.driver import run_grade
from pipeline.grade.plan import GradeOptions, plan_grade
from pipeline.grade.settings import GradeSettings
from pipeline.problem.registry import get_problem
from pipeline.strength.cover import Cover, minimal_cover
from pipeline.strength.matrix import GradeRun
from pipeline.strength.run import StrengthOptions, run_strength

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


def write_run(folder: Path, programs: int, cases: int) -> None:
    """A synthetic run folder as `grade` leaves it: one results part per block of
    programs, with the columns the matrix reads."""
    kills, cost = synthetic(programs, cases)
    results = folder / "results"
    results.mkdir(parents=True)
    ids = pa.array([f"c{j}" for j in range(cases)])
    block = max(1, 10**5 // cases)  # programs a part: about 10^5 rows
    for first in range(0, programs, block):
        rows = kills[first : first + block]
        n = rows.shape[0]
        table = pa.table(
            {
                "submission": pa.array(
                    np.repeat([f"p{i}" for i in range(first, first + n)], cases)
                ),
                "case_id": pa.concat_arrays([ids] * n),
                "verdict": pa.array(np.where(rows.ravel(), "WA", "AC")),
                "cpu_ms": pa.array(np.tile(cost / max(1, programs), n)),
                "attempt": pa.array(np.ones(n * cases, dtype=np.int32)),
            }
        )
        pq.write_table(table, results / f"part-{first:08d}.parquet")


# The driver's side after grading, in a process of its own so that its peak is its own:
# the matrix read from the run folder and written, then both covers.
DRIVER = """
import resource, sys, time
from pathlib import Path
import psutil
from pipeline.strength.cover import minimal_cover
from pipeline.strength.matrix import Cases, write_kill_matrix
from pipeline.strength.population import Program
folder, limit = Path(sys.argv[1]), float(sys.argv[4])
programs, cases = int(sys.argv[2]), int(sys.argv[3])
population = [Program(f"p{i}", "mutant", None) for i in range(programs)]
ids = [f"c{j}" for j in range(cases)]
before = psutil.Process().memory_info().rss
start = time.perf_counter()
matrix = write_kill_matrix(folder, population, Cases(ids, ["f"] * cases), folder / "matrix.parquet")
read = time.perf_counter() - start
read_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
minimal_cover(matrix.kills, matrix.cost, time_limit_s=limit)
minimal_cover(matrix.kills, matrix.cost, by_cpu=True, time_limit_s=limit)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
took = time.perf_counter() - start - read
print(matrix.pairs, (read_peak - before) / 2**20, (peak - before) / 2**20, read, took)
"""


def bench_memory(exponents: list[int], limit_s: float) -> None:
    print(
        "pairs      programs x cases   results MB  driver peak growth MB:"
        " matrix  +covers  matrix s  covers s"
    )
    for e in exponents:
        programs = 10 ** (e // 2)
        cases = 10**e // programs
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "run"
            write_run(folder, programs, cases)
            size = sum(p.stat().st_size for p in (folder / "results").iterdir())
            out = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    DRIVER,
                    str(folder),
                    str(programs),
                    str(cases),
                    str(limit_s),
                ],
                capture_output=True,
                text=True,
                check=True,
                cwd=Path(__file__).resolve().parents[1],
            ).stdout.split()
        pairs, (grown, grown_covers, read, covers) = int(out[0]), map(float, out[1:])
        assert pairs == programs * cases
        print(
            f"10^{e:<6} {programs:>7} x {cases:<9} {size / 2**20:10.2f} {grown:29.1f} "
            f"{grown_covers:8.1f} {read:9.1f} {covers:9.1f}"
        )


def bench_grading(programs: int, cases: int, batch: int, seed: int) -> None:
    """Mutants of bench/spot.cpp graded on `cases` spot cases by `strength`, against
    bench/spot.cpp alone graded by `grade` on the same corpus (both --batch, no cache)."""
    source = Path(__file__).resolve().parent / "spot.cpp"
    settings = GradeSettings(batch=batch)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        corpus = work / "spot"
        generate_corpus(get_problem("spot"), cases, seed, corpus)
        stages: list[tuple[str, float]] = []
        options = StrengthOptions(
            corpus, work / "s", mutate=[source], mutants=programs, seed=seed,
            grading=GradeRun(work / "s" / "run", settings=settings, cache=False),
            examples=False,
        )  # fmt: skip
        outcome = run_strength(options, on_stage=lambda s: stages.append((s, time.perf_counter())))
        graded_at = next(t for s, t in stages if s.startswith("grading"))
        covered_at = next(t for s, t in stages if s.startswith("solving"))
        grading_s = covered_at - graded_at
        plan = plan_grade(
            GradeOptions(
                corpora=[corpus], submissions=[f"cpp17:{source}"], out=work / "one",
                settings=settings, cache=False,
            )
        )  # fmt: skip
        start = time.perf_counter()
        run_grade(plan)
        one_s = time.perf_counter() - start
    n = len(outcome.population.programs)
    rate, engine = outcome.pairs / grading_s, cases / one_s
    killed = outcome.figures["killed"]
    print(
        f"\ngrading: {n} mutants of bench/spot.cpp ({killed} killed) x {cases} cases, "
        f"--batch {batch}, embedded Ray, {os.cpu_count()} cores"
    )
    print(
        f"  strength: {outcome.pairs} pairs in {grading_s:.1f} s = {rate:,.0f} pairs/s; "
        f"bench/spot.cpp alone (grade): {engine:,.0f} cases/s; ratio {rate / engine:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100x1000,300x3000,1000x10000")
    parser.add_argument("--memory", default="5,6,7")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per cover")
    parser.add_argument("--grade", default="", help="PROGRAMSxCASES: the grading rate")
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",") if s]
    bench_cover([(p, c) for p, c in sizes], args.time_limit)
    bench_memory([int(e) for e in args.memory.split(",") if e], args.time_limit)
    if args.grade:
        programs, cases = (int(n) for n in args.grade.split("x"))
        bench_grading(programs, cases, args.batch, args.seed)


if __name__ == "__main__":
    main()
