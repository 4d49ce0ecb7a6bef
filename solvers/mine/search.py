"""mine by exhaustive game search: the real click game, no Sprague-Grundy formula.

The position is the set of opened safe cells (a bitmask, at most SEARCH_MAX_SAFE safe
cells). Clicking a blank cell opens its whole 8-connected blank region and every number
cell bordering it (computed by flood fill, exactly as the game does); clicking a number
cell opens that cell. Clicks on different blank cells of one region have the same effect,
so each region is one move. The player to move with no unopened safe cell loses.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from pipeline.problem.contract import InvalidInput
from solvers.mine.board import neighbour_counts
from solvers.mine.io import MineCase

SEARCH_MAX_SAFE = 16


def _moves(mines: np.ndarray) -> tuple[tuple[int, int], ...]:
    """(trigger bit, opened bits) per distinct move."""
    n, m = mines.shape
    counts = neighbour_counts(mines)
    index: dict[tuple[int, int], int] = {}
    for r in range(n):
        for c in range(m):
            if not mines[r, c]:
                index[(r, c)] = len(index)
    moves: list[tuple[int, int]] = []
    done: set[tuple[int, int]] = set()
    for (r, c), i in index.items():
        if counts[r, c]:
            moves.append((1 << i, 1 << i))
            continue
        if (r, c) in done:
            continue
        # flood fill from a blank cell: open neighbours, continue through blank ones
        opened, blanks, stack = 0, 0, [(r, c)]
        done.add((r, c))
        while stack:
            cr, cc = stack.pop()
            opened |= 1 << index[(cr, cc)]
            blanks |= 1 << index[(cr, cc)]
            for nr in range(max(cr - 1, 0), min(cr + 2, n)):
                for nc in range(max(cc - 1, 0), min(cc + 2, m)):
                    if mines[nr, nc] or (nr, nc) in done:
                        continue
                    if counts[nr, nc]:
                        opened |= 1 << index[(nr, nc)]
                    else:
                        done.add((nr, nc))
                        stack.append((nr, nc))
        moves.append((blanks, opened))
    return tuple(moves)


def first_player_wins(mines: np.ndarray) -> bool:
    moves = _moves(mines)

    @cache
    def wins(opened: int) -> bool:
        return any(not wins(opened | effect) for trigger, effect in moves if not opened & trigger)

    return wins(0)


def solve_search(cases: list[MineCase]) -> list[bool]:
    """Refuses (InvalidInput) a case with too many safe cells instead of running for ever."""
    out = []
    for c, case in enumerate(cases, 1):
        board = case.grid()
        safe = board.size - int(np.count_nonzero(board))
        if safe > SEARCH_MAX_SAFE:
            raise InvalidInput(
                f"case {c}: {safe} safe cells; version search takes at most {SEARCH_MAX_SAFE}"
            )
        out.append(first_player_wins(board))
    return out


def search_accepts(cases: list[MineCase]) -> bool:
    """Every case has at most SEARCH_MAX_SAFE safe cells."""
    for case in cases:
        if case.n * case.m - case.k > SEARCH_MAX_SAFE:
            return False
        safe = case.n * case.m - int(np.count_nonzero(case.grid()))
        if safe > SEARCH_MAX_SAFE:
            return False
    return True
