"""Seeded tetris generators, by family."""

from __future__ import annotations

import random

from solvers.tetris.io import MAX_CELLS, MAX_ZEROS, TetrisCase, format_case

FAMILIES = ["random", "tiny", "one_wide", "dense40", "hard40", "n49", "all_zero"]

# Shapes of 40..49 cells at least 4 wide both ways: 40 free cells on them give the
# largest game trees (a 4 x 10 all-free board is the seed program's slowest).
HARD_SHAPES = [(4, 10), (10, 4), (5, 8), (8, 5), (4, 11), (11, 4), (4, 12), (12, 4),
               (5, 9), (9, 5), (6, 7), (7, 6), (6, 8), (8, 6), (7, 7)]  # fmt: skip


def _board(rng: random.Random, n: int, m: int, zeros: int) -> str:
    cells = ["1"] * (n * m)
    for i in rng.sample(range(n * m), min(zeros, n * m, MAX_ZEROS)):
        cells[i] = "0"
    rows = tuple("".join(cells[r * m : (r + 1) * m]) for r in range(n))
    return format_case(TetrisCase(n, m, rows))


def _shape(rng: random.Random, lo: int, hi: int) -> tuple[int, int]:
    """Random N, M >= 1 with lo <= N*M <= hi."""
    while True:
        n = rng.randint(1, hi)
        m = rng.randint(1, hi // n)
        if lo <= n * m <= hi:
            return n, m


def generate(rng: random.Random, family: str, **params: float) -> str:
    """One-case input of `family`. params: n, m, zeros, density (where they apply)."""
    n = int(params["n"]) if "n" in params else None
    m = int(params["m"]) if "m" in params else None
    if family == "random":
        if n is None or m is None:
            n, m = _shape(rng, 1, MAX_CELLS)
        density = params.get("density", rng.random())
        zeros = int(params.get("zeros", round(density * n * m)))
    elif family == "tiny":
        if n is None or m is None:
            n, m = rng.randint(1, 3), rng.randint(1, 4)
        zeros = int(params.get("zeros", rng.randint(0, n * m)))
    elif family == "one_wide":
        length = int(params.get("length", rng.randint(1, MAX_CELLS)))
        n, m = (1, length) if rng.random() < 0.5 else (length, 1)
        zeros = int(params.get("zeros", rng.randint(0, min(length, MAX_ZEROS))))
    elif family == "dense40":
        if n is None or m is None:
            n, m = _shape(rng, MAX_ZEROS, MAX_CELLS)
        zeros = MAX_ZEROS
    elif family == "hard40":
        if n is None or m is None:
            n, m = rng.choice(HARD_SHAPES)
        zeros = MAX_ZEROS
    elif family == "n49":
        n, m = rng.choice([(7, 7), (1, 49), (49, 1)])
        zeros = int(params.get("zeros", rng.randint(0, MAX_ZEROS)))
    elif family == "all_zero":
        if n is None or m is None:
            n, m = _shape(rng, 1, MAX_ZEROS)
        zeros = n * m
    else:
        raise ValueError(f"tetris has no family {family!r} (has: {', '.join(FAMILIES)})")
    if n * m > MAX_CELLS:
        raise ValueError(f"N*M = {n * m} > {MAX_CELLS}")
    return _board(rng, n, m, zeros)
