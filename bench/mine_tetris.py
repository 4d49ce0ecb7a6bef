"""Solver speed for mine and tetris, against baselines measured in the same run.

    python bench/mine_tetris.py [--candidates 400] [--json]

mine: a 1000 x 1000 board with 10^5 mines: parse time against a plain `split()` + int
conversion, solve time of the vectorised reference, validation time (the guarantee
check), and the seed's C++ program on the same file (compile + I/O included in its run).

tetris: searches generated 40-zero boards for the one the seed's plain backtracking
finds hardest (its game-tree size, counted exactly with a memo, times the squares it
scans per node), runs the compiled seed on the top few to find the really slowest, then
times version "1", version "2" (memo cleared: a cold run) and the seed on that board.
The seed programs are looked up in ../shared/seed_programs; without them (or without g++)
the seed timings are skipped with a message.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

# Run as a script, bench/ comes first on sys.path, and bench/solvers.py would shadow the
# `solvers` package: drop that folder before importing the plugins.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from pipeline.problem.registry import get_problem  # noqa: E402
from solvers.mine.check import validate as mine_validate  # noqa: E402
from solvers.mine.io import MineCase, format_case  # noqa: E402
from solvers.mine.io import parse as mine_parse  # noqa: E402
from solvers.mine.solve import solve_sg  # noqa: E402
from solvers.tetris.bitboard import KILL, bits, corners, free_cells  # noqa: E402
from solvers.tetris.generate import HARD_SHAPES  # noqa: E402
from solvers.tetris.generate import generate as tetris_generate  # noqa: E402
from solvers.tetris.io import TetrisCase  # noqa: E402
from solvers.tetris.io import format_case as tetris_format  # noqa: E402
from solvers.tetris.io import parse as tetris_parse  # noqa: E402
from solvers.tetris.solve import clear_memo, solve_grundy, solve_plain  # noqa: E402

SEEDS = Path(__file__).resolve().parents[1] / ".." / "shared" / "seed_programs"


def best_of(
    repeat: int, func: Callable[[], object], clock: Callable[[], float] = time.perf_counter
) -> float:
    times = []
    for _ in range(repeat):
        t0 = clock()
        func()
        times.append(clock() - t0)
    return min(times)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compile_seed(name: str, tmp: Path) -> Path | None:
    source = SEEDS / f"{name}.cpp"
    if not source.is_file():
        print(f"  (seed program {source} absent: seed timing skipped)")
        return None
    if shutil.which("g++") is None:
        print("  (g++ not found: seed timing skipped)")
        return None
    exe = tmp / name
    subprocess.run(["g++", "-O2", "-o", str(exe), str(source)], check=True)
    return exe


def run_seed(exe: Path, text: str) -> tuple[float, str, float]:
    """Wall seconds, stdout, CPU seconds (from the kernel's rusage of the child)."""
    cpu0, t0 = children_cpu(), time.perf_counter()
    done = subprocess.run([str(exe)], input=text, capture_output=True, text=True, check=True)
    return time.perf_counter() - t0, done.stdout, children_cpu() - cpu0


def bench_mine(tmp: Path, result: dict[str, object]) -> None:
    print("mine: 1000 x 1000, 10^5 mines")
    g = np.random.default_rng(0)
    flat = g.choice(1_000_000, size=100_000, replace=False)
    case = MineCase(1000, 1000, flat // 1000, flat % 1000)
    text = format_case(case)
    naive = best_of(3, lambda: np.array(text.split(), dtype=np.int64))
    parse = best_of(3, lambda: mine_parse(text))
    parsed = mine_parse(text)
    solve = best_of(3, lambda: solve_sg(parsed))
    check = best_of(3, lambda: mine_validate(text))
    answer = get_problem("mine").format(solve_sg(parsed))
    print(f"  input {len(text) / 2**20:.1f} MB; answer {answer.strip()}")
    print(f"  parse {parse * 1e3:.0f} ms (split()+int baseline {naive * 1e3:.0f} ms, "
          f"{naive / parse:.1f}x faster)")  # fmt: skip
    print(f"  solve {solve * 1e3:.0f} ms; parse + solve {(parse + solve) * 1e3:.0f} ms")
    print(f"  validate (ranges, duplicates, guarantee) {check * 1e3:.0f} ms")
    mine_case = {"parse_s": parse, "naive_parse_s": naive, "solve_s": solve, "validate_s": check}
    # 10^6 mine lines: the parse must stay vectorised
    g_full = np.arange(1_000_000)
    full_text = format_case(MineCase(1000, 1000, g_full // 1000, g_full % 1000))
    parse_full = best_of(2, lambda: mine_parse(full_text))
    naive_full = best_of(1, lambda: np.array(full_text.split(), dtype=np.int64))
    print(f"  10^6 mine lines: parse {parse_full * 1e3:.0f} ms "
          f"(split()+int baseline {naive_full * 1e3:.0f} ms)")  # fmt: skip
    mine_case["parse_1e6_s"] = parse_full
    exe = compile_seed("mine", tmp)
    if exe is not None:
        runs = [run_seed(exe, text) for _ in range(5)]
        seed_s, out, _ = min(runs)
        seed_cpu = min(run[2] for run in runs)
        assert out.split() == answer.split(), (out, answer)
        ours = parse + solve
        ours_cpu = best_of(5, lambda: solve_sg(mine_parse(text)), time.process_time)
        print(f"  seed C++ (whole run) {seed_s * 1e3:.0f} ms wall, {seed_cpu * 1e3:.0f} ms CPU; "
              f"reference parse+solve {ours_cpu * 1e3:.0f} ms CPU: "
              f"{seed_s / ours:.2f}x the seed's speed by wall time, "
              f"{seed_cpu / ours_cpu:.2f}x by CPU time")  # fmt: skip
        mine_case.update({"seed_s": seed_s, "seed_cpu_s": seed_cpu, "cpu_s": ours_cpu})
    result["mine"] = mine_case


def seed_nodes(case: TetrisCase) -> int:
    """Nodes the seed's backtracking visits: it explores the whole game tree, no memo."""
    memo: dict[int, int] = {}

    def count(s: int) -> int:
        found = memo.get(s)
        if found is None:
            found = 1 + sum(count(s & ~KILL[t]) for t in bits(s))
            memo[s] = found
        return found

    return count(corners(free_cells(case)))


def tetris_candidates(count: int) -> list[TetrisCase]:
    rng = random.Random(1760)
    cases = []
    for n, m in HARD_SHAPES:
        if n * m == 40:
            cases.append(TetrisCase(n, m, tuple("0" * m for _ in range(n))))
    while len(cases) < count:
        family = "hard40" if len(cases) % 2 else "dense40"
        cases.extend(tetris_parse(tetris_generate(rng, family)))
    return cases


def bench_tetris(tmp: Path, candidates: int, result: dict[str, object]) -> None:
    print(f"tetris: {candidates} generated 40-zero boards")
    cases = tetris_candidates(candidates)
    t0 = time.perf_counter()
    cost = [seed_nodes(c) * (c.n - 1) * (c.m - 1) for c in cases]
    print(f"  seed cost estimated for all in {time.perf_counter() - t0:.1f} s")
    order = sorted(range(len(cases)), key=lambda i: -cost[i])
    exe = compile_seed("tetris", tmp)
    worst = cases[order[0]]
    seed_s = None
    if exe is not None:
        timed = []
        for i in order[:3]:
            s, out, _ = run_seed(exe, tetris_format(cases[i]))
            timed.append((s, i, out))
        seed_s, i, out = max(timed)
        worst = cases[i]
        assert out.split() == [("Yes" if solve_grundy([worst])[0] else "No")]
    print(f"  slowest board for the seed: {worst.n}x{worst.m} {'/'.join(worst.rows)}")
    one = [worst]

    def cold(solver: Callable[[list[TetrisCase]], list[bool]]) -> Callable[[], object]:
        return lambda: (clear_memo(), solver(one))

    v1 = best_of(5, cold(solve_plain))
    v2 = best_of(5, cold(solve_grundy))
    print(f"  version 1 {v1 * 1e3:.1f} ms, version 2 {v2 * 1e3:.1f} ms (cold memo), "
          f"ratio v1/v2 {v1 / v2:.2f}")  # fmt: skip
    out: dict[str, object] = {"board": tetris_format(worst), "v1_s": v1, "v2_s": v2}
    if exe is not None and seed_s is not None:
        seed_s = min(seed_s, run_seed(exe, tetris_format(worst))[0])
        print(f"  seed C++ {seed_s * 1e3:.0f} ms: version 2 is {seed_s / v2:.0f}x faster, "
              f"version 1 {seed_s / v1:.0f}x")  # fmt: skip
        out["seed_s"] = seed_s
    # the slowest board for version 2 itself, cold, and all candidates in one warm pass
    slowest = max(cases, key=lambda c: best_of(1, cold_one(c)))
    s2 = best_of(3, cold_one(slowest))
    clear_memo()
    warm = best_of(1, lambda: solve_grundy(cases))
    all_v1 = best_of(1, lambda: solve_plain(cases))
    print(f"  slowest board for version 2: {slowest.n}x{slowest.m} {s2 * 1e3:.1f} ms cold")
    print(f"  all {len(cases)} boards as one multi-case file: version 2 {warm * 1e3:.0f} ms "
          f"(memo shared across cases), version 1 {all_v1 * 1e3:.0f} ms, "
          f"ratio v1/v2 {all_v1 / warm:.2f}")  # fmt: skip
    out.update({"v2_slowest_s": s2, "v2_all_s": warm, "v1_all_s": all_v1})
    result["tetris"] = out


def cold_one(case: TetrisCase) -> Callable[[], object]:
    return lambda: (clear_memo(), solve_grundy([case]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--candidates", type=int, default=400)
    ap.add_argument("--json", action="store_true", help="also print one JSON line")
    args = ap.parse_args()
    result: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        bench_mine(Path(tmp), result)
        bench_tetris(Path(tmp), args.candidates, result)
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
