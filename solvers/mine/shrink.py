"""Shrinking a one-case mine input for `stress`.

Measure (`measure`): (N*M, K), compared as a tuple; every candidate is strictly smaller.
Candidates, biggest first: half the rows or columns kept (either half), one row or column
removed, every mine removed, half the mines removed (either half), one mine removed.
Removing cells or mines can break the guarantee (no number cell borders two blank
regions): such boards are not offered.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

import numpy as np

from solvers.mine.board import shared_number_cells
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


def _smaller_boards(board: np.ndarray) -> Iterator[np.ndarray]:
    n, m = board.shape
    if n > 1:
        yield board[: n // 2]
        yield board[n // 2 :]
    if m > 1:
        yield board[:, : m // 2]
        yield board[:, m // 2 :]
    if n > 1:
        for i in range(n):
            yield np.delete(board, i, axis=0)
    if m > 1:
        for j in range(m):
            yield np.delete(board, j, axis=1)


def _fewer_mines(board: np.ndarray) -> Iterator[np.ndarray]:
    flat = np.flatnonzero(board)
    if flat.size == 0:
        return
    groups = [flat]
    if flat.size > 2:
        groups += [flat[: flat.size // 2], flat[flat.size // 2 :]]
    if flat.size > 1:
        groups += [flat[i : i + 1] for i in range(flat.size)]
    for group in groups:
        fewer = board.copy()
        fewer.flat[group] = False
        yield fewer


def candidates(text: str) -> Iterator[str]:
    board = _board(text)
    seen = set()
    for smaller in chain(_smaller_boards(board), _fewer_mines(board)):
        out = _text(smaller)
        if out not in seen and not shared_number_cells(smaller).any():
            seen.add(out)
            yield out
