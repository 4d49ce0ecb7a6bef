"""Gomoku reference solvers (PROBLEMS.md: substring counts over every line of length >= 5).

"1": plain — walk every row, column and diagonal cell by cell into a string and slide
     each pattern along it.
"2": one pass over the 24 precomputed lines: each line is cut out of the 49-character
     board with a precomputed index getter and looked up in a table of the counts of
     every possible line (2^5 + 2^6 + 2^7 strings), built once with regular expressions.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from operator import itemgetter

from solvers.gomoku.io import SIZE, GomokuInput, GomokuOutput

LIVE_FOUR = ("xoooox",)
LIVE_THREES = ("xooox", "xoxoox", "xooxox")
DEAD_FOUR_START, DEAD_FOUR_END = "oooox", "xoooo"
MIN_LINE = 5

# ------------------------------------------------------------------ version "1"


def _occurrences(line: str, pattern: str) -> int:
    k = len(pattern)
    return sum(1 for i in range(len(line) - k + 1) if line[i : i + k] == pattern)


def all_lines(board: GomokuInput) -> list[str]:
    """Rows, columns and both diagonal directions, those of length >= 5."""
    n = SIZE
    lines = [row for row in board]
    lines += ["".join(board[r][c] for r in range(n)) for c in range(n)]
    for start in range(-(n - 1), n):  # down-right diagonals: c - r = start
        cells = [(r, r + start) for r in range(n) if 0 <= r + start < n]
        lines.append("".join(board[r][c] for r, c in cells))
    for total in range(2 * n - 1):  # down-left diagonals: r + c = total
        cells = [(r, total - r) for r in range(n) if 0 <= total - r < n]
        lines.append("".join(board[r][c] for r, c in cells))
    return [line for line in lines if len(line) >= MIN_LINE]


def count_plain(board: GomokuInput) -> GomokuOutput:
    dead = live4 = live3 = 0
    for line in all_lines(board):
        dead += line.startswith(DEAD_FOUR_START) + line.endswith(DEAD_FOUR_END)
        live4 += sum(_occurrences(line, p) for p in LIVE_FOUR)
        live3 += sum(_occurrences(line, p) for p in LIVE_THREES)
    return (dead, live4, live3)


# ------------------------------------------------------------------ version "2"


def _line_indices() -> list[tuple[int, ...]]:
    n = SIZE
    cells: list[list[tuple[int, int]]] = []
    cells += [[(r, c) for c in range(n)] for r in range(n)]
    cells += [[(r, c) for r in range(n)] for c in range(n)]
    for d in range(-(n - 1), n):
        cells.append([(r, c) for r in range(n) for c in range(n) if c - r == d])
        cells.append([(r, c) for r in range(n) for c in range(n) if r + c == d + n - 1])
    return [tuple(r * n + c for r, c in line) for line in cells if len(line) >= MIN_LINE]


def _count_by_regex(pattern: str) -> Callable[[str], int]:
    finder = re.compile(f"(?={pattern})")  # lookahead: overlapping occurrences
    return lambda line: len(finder.findall(line))


def _line_table() -> dict[str, tuple[int, int, int]]:
    dead = [re.compile(f"^{DEAD_FOUR_START}"), re.compile(f"{DEAD_FOUR_END}$")]
    live4 = [_count_by_regex(p) for p in LIVE_FOUR]
    live3 = [_count_by_regex(p) for p in LIVE_THREES]
    table = {}
    for length in range(MIN_LINE, SIZE + 1):
        for chars in itertools.product("ox", repeat=length):
            line = "".join(chars)
            table[line] = (
                sum(len(d.findall(line)) for d in dead),
                sum(f(line) for f in live4),
                sum(f(line) for f in live3),
            )
    return table


_GETTERS = [itemgetter(*idx) for idx in _line_indices()]
_TABLE = _line_table()


def count_fast(board: GomokuInput) -> GomokuOutput:
    flat = "".join(board)
    table = _TABLE
    dead = live4 = live3 = 0
    for get in _GETTERS:
        d, f, t = table["".join(get(flat))]
        dead += d
        live4 += f
        live3 += t
    return (dead, live4, live3)


SOLVERS = {"1": count_plain, "2": count_fast}
