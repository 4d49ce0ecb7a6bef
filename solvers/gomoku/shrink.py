"""Shrinking a gomoku board for `stress`: one stone removed (`o` -> `x`), in reading
order. Measure (`measure`): the number of stones; every candidate has one fewer. A
candidate whose counts exceed 10 is not offered (the validator would reject it)."""

from __future__ import annotations

from collections.abc import Iterator

from solvers.gomoku.check import validate
from solvers.gomoku.io import format_input, parse


def measure(text: str) -> int:
    return sum(row.count("o") for row in parse(text))


def candidates(text: str) -> Iterator[str]:
    rows = parse(text)
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            if cell == "o":
                board = (*rows[:i], row[:j] + "x" + row[j + 1 :], *rows[i + 1 :])
                out = format_input(board)
                if not validate(out):
                    yield out
