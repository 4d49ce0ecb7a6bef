"""`stress` throughput: cases/second of `pipeline.stress.search.stress` with a correct C program
(no failure, so every case is generated, validated, solved, run and judged), against a bare
loop of `PreparedSubmission.run` on the same cases in the same run. The ratio is what the
stress loop's own work (generate, validate, reference solve, judge) costs on top of the
runs; also the time to shrink a 1000x1000 mine counterexample.

    python bench/stress.py [--cases 200]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

# Run as a script, this folder would shadow the `solvers` package: drop it (see solvers.py).
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from pipeline.problem.registry import get_problem  # noqa: E402
from pipeline.program.submission import parse_spec, prepare  # noqa: E402
from pipeline.stress.search import stress  # noqa: E402

ROOT = _HERE.parent
SUBMISSIONS = ROOT / "tests" / "submissions"


def throughput(name: str, program: Path, cases: int) -> None:
    problem = get_problem(name)
    sub = prepare(parse_spec(str(program)), problem)
    limits = problem.limits
    families = list(problem.families)
    texts = [
        problem.generate(random.Random(f"0:{i}"), families[i % len(families)]) for i in range(cases)
    ]
    sub.run(texts[0], limits)  # warm up: sandbox setup, page cache
    start = time.perf_counter()
    for text in texts:
        sub.run(text, limits)
    bare = cases / (time.perf_counter() - start)
    start = time.perf_counter()
    result = stress(problem, sub, seed=0, max_cases=cases, time_budget_s=600)
    full = result.cases / (time.perf_counter() - start)
    assert result.failure is None, f"{program.name} failed: {result.failure}"
    print(
        f"{name:7} {program.name:24} bare runs {bare:7.1f} cases/s   stress {full:7.1f} "
        f"cases/s   ratio {full / bare:.2f}"
    )


def mine_shrink() -> None:
    problem = get_problem("mine")
    sub = prepare(parse_spec(str(SUBMISSIONS / "mine" / "wa_ignores_lone_numbers.cpp")), problem)
    start = time.perf_counter()
    result = stress(problem, sub, seed=0, families=["large"], max_cases=20, time_budget_s=600)
    elapsed = time.perf_counter() - start
    failure = result.failure
    assert failure is not None
    n, m = failure.shrunk.split("\n")[1].split()[:2]
    print(
        f"mine large: {result.cases} cases, shrunk to {n}x{m} in {failure.shrink_steps} steps "
        f"({failure.shrink_tries} tries); {elapsed:.1f} s in all"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    args = parser.parse_args()
    throughput("clocks", SUBMISSIONS / "clocks" / "ac_search_file_io.c", args.cases)
    throughput("gomoku", SUBMISSIONS / "gomoku" / "ac_scan_lines.c", args.cases)
    throughput("spot", SUBMISSIONS / "spot" / "ac_rotations.c", args.cases)
    mine_shrink()


if __name__ == "__main__":
    main()
