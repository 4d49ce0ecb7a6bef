"""The 2x2-square game as node Kayles on a king graph.

A board is laid out with 8 bits per row (at most 7 columns after transposing, so column 7
is always empty and shifts never wrap into a neighbouring row). A square is named by its
top-left corner; the set S of corners whose four cells are free is the whole position:
placing the square at s removes every square that overlaps it, i.e. every corner within
one king step of s (S & ~KILL[s]). Squares interact only through overlap, so the king-
connected components of S are independent games.
"""

from __future__ import annotations

from collections.abc import Iterator

from solvers.tetris.io import TetrisCase

W = 8  # bits per row
MAX_ROWS = 50


def _kill(s: int) -> int:
    r, c = divmod(s, W)
    mask = 0
    for rr in (r - 1, r, r + 1):
        for cc in (c - 1, c, c + 1):
            if rr >= 0 and 0 <= cc < W:
                mask |= 1 << (rr * W + cc)
    return mask


KILL = tuple(_kill(s) for s in range(MAX_ROWS * W))


def free_cells(case: TetrisCase) -> int:
    rows = case.rows
    if case.m > W - 1:  # N*M < 50 makes min(N, M) <= 7
        rows = tuple("".join(col) for col in zip(*rows, strict=True))
    mask = 0
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "0":
                mask |= 1 << (r * W + c)
    return mask


def corners(free: int) -> int:
    return free & (free >> 1) & (free >> W) & (free >> (W + 1))


def bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def dilate(x: int) -> int:
    y = x | (x << 1) | (x >> 1)
    return y | (y << W) | (y >> W)


def component(s: int) -> int:
    """The king-connected component of S holding S's lowest corner."""
    comp = s & -s
    while True:
        grown = dilate(comp) & s
        if grown == comp:
            return comp
        comp = grown


def normalise(s: int) -> int:
    """Shift S to row 0 (translation-invariant memo keys)."""
    low = (s & -s).bit_length() - 1
    return s >> (low // W * W)
