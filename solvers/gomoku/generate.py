"""Gomoku generators by family: random densities, each pattern placed on a chosen line in
each direction (also touching the edge and on the short diagonals), nothing-to-report
boards with near misses, large counts, and the rule details (runs of five, broken fours,
jump threes next to another stone). Every board keeps each count <= 10."""

from __future__ import annotations

import random

from solvers.gomoku.io import MAX_COUNT, SIZE, format_input
from solvers.gomoku.solve import count_fast

FAMILIES = (
    "random_low",
    "random_mid",
    "random_high",
    "designed_row",
    "designed_col",
    "designed_diag",
    "designed_anti",
    "edge",
    "none",
    "many",
    "rule_details",
)
DENSITY = {"random_low": (0.2, 0.4), "random_mid": (0.4, 0.6), "random_high": (0.6, 0.8)}
# (pattern, where): where is "any" offset, "start" or "end" of the line
PATTERNS = (
    ("xoooox", "any"),  # live four
    ("xooox", "any"),  # live three, solid
    ("xoxoox", "any"),  # live three, jump
    ("xooxox", "any"),
    ("oooox", "start"),  # dead four against the edge
    ("xoooo", "end"),
)
NEAR_MISSES = ("xoxox", "ooooo", "xooxoox", "oooxo", "oxooo", "xoox", "ooxoo", "xoooxo")
DETAILS = (
    "ooooo",
    "oooooo",
    "ooooooo",
    "ooxoo",
    "oxooo",
    "xoxooxo",
    "oxooxox",
    "xooxoox",
    "xoooxo",
)
MAX_ATTEMPTS = 10_000

Cell = tuple[int, int]


def lines(direction: str) -> list[list[Cell]]:
    """Lines of length >= 5 in one direction: row, col, diag (down-right), anti (down-left)."""
    n = SIZE
    if direction == "row":
        found = [[(r, c) for c in range(n)] for r in range(n)]
    elif direction == "col":
        found = [[(r, c) for r in range(n)] for c in range(n)]
    elif direction == "diag":
        found = [[(r, r + d) for r in range(n) if 0 <= r + d < n] for d in range(-n + 1, n)]
    elif direction == "anti":
        found = [[(r, s - r) for r in range(n) if 0 <= s - r < n] for s in range(2 * n - 1)]
    else:
        raise ValueError(f"no direction {direction!r}")
    return [line for line in found if len(line) >= 5]


DIRECTIONS = ("row", "col", "diag", "anti")
ALL_LINES = [line for d in DIRECTIONS for line in lines(d)]


def _noise(rng: random.Random, density: float) -> list[list[str]]:
    return [["o" if rng.random() < density else "x" for _ in range(SIZE)] for _ in range(SIZE)]


def _place(
    rng: random.Random, grid: list[list[str]], line: list[Cell], text: str, where: str = "any"
) -> None:
    if len(text) > len(line):
        raise _Retry
    last = len(line) - len(text)
    offset = {"start": 0, "end": last}.get(where, rng.randint(0, last))
    if rng.random() < 0.5 and where == "any":
        text = text[::-1]
    for (r, c), ch in zip(line[offset:], text, strict=False):
        grid[r][c] = ch


class _Retry(Exception):
    """The plan did not give a usable board: try again."""


def _designed(rng: random.Random, direction: str, pattern: int | None) -> list[list[str]]:
    grid = _noise(rng, rng.choice((0.0, 0.0, 0.1, 0.2)))
    if rng.random() < 0.3:
        text, where = rng.choice(PATTERNS)
        _place(rng, grid, rng.choice(ALL_LINES), text, where)
    index = pattern if pattern is not None else rng.randrange(len(PATTERNS))
    text, where = PATTERNS[index]
    _place(rng, grid, rng.choice(lines(direction)), text, where)
    return grid


def _edge(rng: random.Random) -> list[list[str]]:
    grid = _noise(rng, rng.choice((0.0, 0.1)))
    text, where = rng.choice(PATTERNS)
    short = [line for line in ALL_LINES if len(line) < SIZE]
    line = rng.choice(short if rng.random() < 0.5 else ALL_LINES)
    if where == "any":
        where = rng.choice(("start", "end"))  # against the edge
    _place(rng, grid, line, text, where)
    return grid


def _plan(rng: random.Random, family: str, pattern: int | None) -> list[list[str]]:
    if family in DENSITY:
        return _noise(rng, rng.uniform(*DENSITY[family]))
    if family.startswith("designed_"):
        return _designed(rng, family.removeprefix("designed_"), pattern)
    if family == "edge":
        return _edge(rng)
    if family == "none":
        grid = _noise(rng, rng.uniform(0.0, 0.3))
        for _ in range(rng.randint(0, 3)):
            _place(rng, grid, rng.choice(ALL_LINES), rng.choice(NEAR_MISSES))
        return grid
    if family == "many":
        grid = _noise(rng, rng.uniform(0.0, 0.2))
        for _ in range(rng.randint(6, 14)):
            text, where = rng.choice(PATTERNS)
            _place(rng, grid, rng.choice(ALL_LINES), text, where)
        return grid
    if family == "rule_details":
        grid = _noise(rng, rng.choice((0.0, 0.0, 0.1)))
        for _ in range(rng.randint(1, 2)):
            _place(rng, grid, rng.choice(ALL_LINES), rng.choice(DETAILS))
        return grid
    raise ValueError(f"gomoku has no generator family {family!r} (has: {', '.join(FAMILIES)})")


def _fits(family: str, counts: tuple[int, int, int]) -> bool:
    if max(counts) > MAX_COUNT:
        return False
    if family == "none":
        return counts == (0, 0, 0)
    if family == "many":
        return max(counts) >= 4
    if family.startswith("designed_") or family == "edge":
        return any(counts)
    return True


def generate(rng: random.Random, family: str, pattern: int | None = None) -> str:
    """One board of `family`; `pattern` (index into PATTERNS) fixes the designed pattern."""
    if family not in FAMILIES:
        raise ValueError(f"gomoku has no generator family {family!r} (has: {', '.join(FAMILIES)})")
    for _ in range(MAX_ATTEMPTS):
        try:
            grid = _plan(rng, family, pattern)
        except _Retry:
            continue
        board = tuple("".join(row) for row in grid)
        if _fits(family, count_fast(board)):
            return format_input(board)
    raise RuntimeError(f"gomoku/{family}: no board found in {MAX_ATTEMPTS} attempts")
