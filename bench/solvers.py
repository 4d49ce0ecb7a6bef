"""Reference solver speed: for each problem, cases/second of every solver version on the
same generated cases (generated once, parsed once, timed in the same run), and the ratio
to version "1".

    python bench/solvers.py [--problem spot --problem clocks] [--cases 200] [--seed 0]

Exit status 1 when a ratio in EXPECT is not met (spot's fast version must be >= 5x the
plain one on N = 50 games).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on sys.path and its name would shadow
# the `solvers` package that the problem plugins live in: drop that folder.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from pipeline.problem.contract import Problem  # noqa: E402
from pipeline.problem.registry import all_problems, get_problem  # noqa: E402

# Families to bench per problem (default: all of the problem's families, round robin).
BENCH_FAMILIES: dict[str, list[str]] = {
    "spot": ["n50"],
    # boards every version "1" accepts (<= 40,000 cells); "large" is bench/mine_tetris.py's
    "mine": ["random", "edge", "strip", "tiny"],
    # the hardest tetris boards: 40 free cells
    "tetris": ["hard40", "dense40"],
}
# Minimum speed ratio of a version against "1": {problem: {version: ratio}}.
EXPECT: dict[str, dict[str, float]] = {
    "spot": {"2": 5.0},
    "mine": {"2": 3.0},  # vectorised vs Python loops: ~7x measured on these boards
    "tetris": {"2": 1.0},  # memo shared across cases + regions: 1.4-5x measured
}
BASELINE = "1"


def make_cases(problem: Problem, count: int, seed: int) -> tuple[list[str], list[Any]]:
    rng = random.Random(f"bench-{seed}-{problem.name}")
    families = BENCH_FAMILIES.get(problem.name) or list(problem.families)
    texts = [problem.generate(rng, families[i % len(families)]) for i in range(count)]
    return texts, [problem.parse(text) for text in texts]


def time_version(problem: Problem, version: str, parsed: list[Any]) -> float:
    """Seconds for one pass of `version` over all cases (after one warm-up case)."""
    solver = problem.solvers[version]
    solver(parsed[0])
    start = time.perf_counter()
    for case in parsed:
        solver(case)
    return time.perf_counter() - start


def bench_problem(problem: Problem, count: int, seed: int) -> list[str]:
    """Prints one row per version; returns the unmet expectations."""
    _, parsed = make_cases(problem, count, seed)
    families = ",".join(BENCH_FAMILIES.get(problem.name) or ["all"])
    print(f"\n{problem.name}: {len(parsed)} cases (families: {families}, seed {seed})")
    print(f"  {'version':<14}{'seconds':>10}{'cases/s':>12}{'vs ' + BASELINE:>10}")
    rates: dict[str, float] = {}
    for version in problem.solvers:
        if version in problem.rule_variants:
            print(f"  {version:<14}  skipped: reads the rules differently")
            continue
        if not all(problem.version_accepts(version, case) for case in parsed):
            print(f"  {version:<14}  skipped: does not accept these cases")
            continue
        seconds = time_version(problem, version, parsed)
        rates[version] = len(parsed) / seconds if seconds > 0 else float("inf")
        base = rates.get(BASELINE)
        ratio = f"{rates[version] / base:.1f}x" if base else "-"
        print(f"  {version:<14}{seconds:>10.3f}{rates[version]:>12.1f}{ratio:>10}")
    failures = []
    for version, wanted in EXPECT.get(problem.name, {}).items():
        if version in rates and BASELINE in rates:
            got = rates[version] / rates[BASELINE]
            if got < wanted:
                failures.append(f"{problem.name} v{version}: {got:.1f}x < expected {wanted}x")
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", action="append", help="problem name (repeatable)")
    parser.add_argument("--cases", type=int, default=200, help="cases per problem")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    names = args.problem or list(all_problems())
    failures: list[str] = []
    for name in names:
        failures += bench_problem(get_problem(name), args.cases, args.seed)
    for failure in failures:
        print(f"EXPECTATION NOT MET: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
