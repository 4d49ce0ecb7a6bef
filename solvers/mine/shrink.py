"""Shrinking a one-case mine input for `stress`.

Measure (`measure`): (N*M, K), compared as a tuple; every candidate is strictly smaller.
Candidates, biggest first (delta-debugging style: blocks of half the size, then a
quarter, ... down to one): a block of rows or of columns cut out, then a block of mines
removed (all of them first). A cut or a removal can break the guarantee (no number cell
borders two blank regions); such a board is repaired as the generators do, by turning the
offending number cells into mines, and offered only if it is still smaller.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from solvers.mine.generate import repair
from solvers.mine.io import MineCase, format_case, parse


def _board(text: str) -> np.ndarray:
    cases = parse(text)
    if len(cases) != 1:
        raise ValueError(f"mine shrink takes one case, got {len(cases)}")
    return cases[0].grid()


def measure(text: str) -> tuple[int, int]:
    board = _board(text)
    return board.size, int(board.sum())


def _text(mines: np.ndarray) -> str:
    xs, ys = np.nonzero(mines)
    n, m = mines.shape
    return format_case(MineCase(n, m, xs.astype(np.int64), ys.astype(np.int64)))


def blocks(length: int, whole: bool = False) -> Iterator[tuple[int, int]]:
    """[a, b) blocks of range(length): the whole (if asked), then halves, quarters, ...,
    single items."""
    if whole and length:
        yield 0, length
    size = length // 2
    while size >= 1:
        for start in range(0, length, size):
            yield start, min(start + size, length)
        size //= 2


def _smaller(board: np.ndarray) -> Iterator[np.ndarray]:
    n, m = board.shape
    cuts = [(b - a, 0, a, b) for a, b in blocks(n)] + [(b - a, 1, a, b) for a, b in blocks(m)]
    for _, axis, a, b in sorted(cuts, key=lambda cut: -cut[0]):
        yield np.delete(board, np.arange(a, b), axis=axis)
    flat = np.flatnonzero(board)
    for a, b in blocks(flat.size, whole=True):
        fewer = board.copy()
        fewer.flat[flat[a:b]] = False
        yield fewer


def candidates(text: str) -> Iterator[str]:
    board = _board(text)
    size = (board.size, int(board.sum()))
    seen = {text}
    for smaller in _smaller(board):
        fixed = repair(smaller)
        if (fixed.size, int(fixed.sum())) >= size:
            continue
        out = _text(fixed)
        if out not in seen:
            seen.add(out)
            yield out
