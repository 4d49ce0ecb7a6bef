"""mine reference solvers. Each takes the parsed cases and returns, per case, whether the
first player (Xiemao) wins.

- "2" (default): Sprague-Grundy, vectorised. A blank region with b bordering number cells
  is a pile of value 1 (b even) or 2 (b odd); a number cell bordering no blank region is a
  pile of value 1; XOR all piles. Regions by scipy.ndimage.label (8-connected), border
  counts by one bincount.
- "1": the same formula with plain Python loops and an explicit-stack flood fill (an
  independent cross-check of "2"; slow on big boards).
- "search" (solvers.mine.search): plays the real click game, no formula; small boards.

On boards that break the guarantee (a number cell bordering two blank regions), "1" and
"2" both count such a cell with the region that comes first in row-major order of its
first cell (as the seed program's BFS does); the formula is then no longer the game, and
"search" may answer differently: tests/solvers/test_mine.py shows such a board.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from solvers.mine.board import analyse
from solvers.mine.io import MineCase


def grundy_of(mines: np.ndarray) -> int:
    a = analyse(mines)
    # per cell: its region (0..regions-1) if a number cell bordering one, `regions` if a
    # number cell bordering none, regions + 1 otherwise; then one bincount
    last = np.uint32(a.regions)
    code = np.where(a.numbers, np.minimum(a.low, last), last + np.uint32(1))
    tally = np.bincount(code.ravel(), minlength=a.regions + 2)
    border, isolated = tally[: a.regions], int(tally[a.regions])
    odd = int(np.count_nonzero(border & 1))
    even = a.regions - odd
    return (isolated & 1) ^ (even & 1) ^ (2 * (odd & 1))


def solve_sg(cases: list[MineCase]) -> list[bool]:
    return [grundy_of(case.grid()) != 0 for case in cases]


def _neighbours(r: int, c: int, n: int, m: int) -> Iterator[tuple[int, int]]:
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < m:
                yield r + dr, c + dc


def grundy_plain(n: int, m: int, mines: set[tuple[int, int]]) -> int:
    count = [[0] * m for _ in range(n)]
    for r, c in mines:
        for rr, cc in _neighbours(r, c, n, m):
            count[rr][cc] += 1
    seen = [[False] * m for _ in range(n)]
    value = 0
    for r in range(n):
        for c in range(m):
            if seen[r][c] or (r, c) in mines or count[r][c]:
                continue
            seen[r][c] = True
            stack, numbers = [(r, c)], 0
            while stack:
                cr, cc = stack.pop()
                for nr, nc in _neighbours(cr, cc, n, m):
                    if seen[nr][nc] or (nr, nc) in mines:
                        continue
                    seen[nr][nc] = True
                    if count[nr][nc]:
                        numbers += 1
                    else:
                        stack.append((nr, nc))
            value ^= 1 if numbers % 2 == 0 else 2
    for r in range(n):
        for c in range(m):
            if not seen[r][c] and (r, c) not in mines:
                value ^= 1
    return value


def solve_plain(cases: list[MineCase]) -> list[bool]:
    out = []
    for case in cases:
        mines = set(zip(case.xs.tolist(), case.ys.tolist(), strict=True))
        out.append(grundy_plain(case.n, case.m, mines) != 0)
    return out


PLAIN_MAX_CELLS = 40_000


def plain_accepts(cases: list[MineCase]) -> bool:
    """Version "1" is a Python loop over cells: boards up to 200 x 200 in total."""
    return sum(case.n * case.m for case in cases) <= PLAIN_MAX_CELLS
