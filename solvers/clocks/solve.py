"""Clocks reference solvers.

Move k turns the clocks in MOVES[k] a quarter turn. Four turns are the identity, so a
solution is a vector x of move counts in 0..3 with A·x = d (mod 4), d the quarter turns
each clock needs. A is invertible mod 4, so that vector is unique: it is the shortest
solution, and listed in ascending order it is also the smallest concatenation.

"1": exhaustive — every one of the 4^9 count vectors (vectorised), the shortest that
     works, ties by the smallest sequence (no use of uniqueness).
"2": x = A⁻¹·d (mod 4) with the inverse computed once; 81 multiplications per case.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from solvers.clocks.io import ClocksInput, ClocksOutput

MOVES = {
    1: "ABDE",
    2: "ABC",
    3: "BCEF",
    4: "ADG",
    5: "BDEFH",
    6: "CFI",
    7: "DEGH",
    8: "GHI",
    9: "EFHI",
}
CLOCKS = "ABCDEFGHI"
# MATRIX[clock][move - 1] = 1 when the move turns the clock
MATRIX = tuple(tuple(int(clock in MOVES[m]) for m in range(1, 10)) for clock in CLOCKS)


def quarter_turns_needed(clocks: ClocksInput) -> tuple[int, ...]:
    """How many quarter turns bring each clock to 12 (a reading of 12 needs none)."""
    return tuple((12 - v) // 3 % 4 for v in clocks)


def apply_moves(clocks: ClocksInput, moves: ClocksOutput) -> ClocksInput:
    """The dials after the moves (a reading of 12 after a full turn stays 12)."""
    turns = [v // 3 % 4 for v in clocks]
    for move in moves:
        for clock in MOVES[move]:
            i = CLOCKS.index(clock)
            turns[i] = (turns[i] + 1) % 4
    return tuple(3 * t if t else 12 for t in turns)


def _as_moves(counts: tuple[int, ...] | list[int]) -> ClocksOutput:
    return tuple(m for m in range(1, 10) for _ in range(int(counts[m - 1])))


# ------------------------------------------------------------------ version "1"


@cache
def _all_vectors() -> tuple[np.ndarray, np.ndarray]:
    """Every count vector (4^9 x 9) and what it does to the clocks (mod 4)."""
    grid = np.indices((4,) * 9).reshape(9, -1).T.astype(np.int64)
    effect = (grid @ np.array(MATRIX, dtype=np.int64).T) % 4
    return grid, effect


def solve_exhaustive(clocks: ClocksInput) -> ClocksOutput:
    grid, effect = _all_vectors()
    need = np.array(quarter_turns_needed(clocks), dtype=np.int64)
    hits = grid[np.all(effect == need, axis=1)]
    candidates = [_as_moves(row.tolist()) for row in hits]
    return min(candidates, key=lambda moves: (len(moves), moves))


# ------------------------------------------------------------------ version "2"


def inverse_mod4(matrix: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Gauss–Jordan over Z/4: pivots must be odd (the units of Z/4)."""
    n = len(matrix)
    rows = [[v % 4 for v in row] + [int(i == j) for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] % 2 == 1), None)
        if pivot is None:
            raise ValueError("matrix is not invertible mod 4")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        unit = rows[col][col]  # 1 or 3, its own inverse mod 4
        rows[col] = [v * unit % 4 for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                f = rows[r][col]
                rows[r] = [(a - f * b) % 4 for a, b in zip(rows[r], rows[col], strict=True)]
    return tuple(tuple(row[n:]) for row in rows)


INVERSE = inverse_mod4(MATRIX)


def solve_inverse(clocks: ClocksInput) -> ClocksOutput:
    need = quarter_turns_needed(clocks)
    counts = [sum(a * b for a, b in zip(row, need, strict=True)) % 4 for row in INVERSE]
    return _as_moves(counts)


SOLVERS = {"1": solve_exhaustive, "2": solve_inverse}
