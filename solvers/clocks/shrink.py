"""Shrinking a clocks input for `stress`: one clock set to 12, then one clock turned a
quarter towards 12 (3 -> 6 -> 9 -> 12). Measure (`measure`): (clocks not at 12, quarter
turns still needed), compared as a tuple; every candidate is strictly smaller."""

from __future__ import annotations

from collections.abc import Iterator

from solvers.clocks.io import format_input, parse


def measure(text: str) -> tuple[int, int]:
    clocks = parse(text)
    return sum(v != 12 for v in clocks), sum((12 - v) // 3 for v in clocks)


def candidates(text: str) -> Iterator[str]:
    clocks = parse(text)
    for i, v in enumerate(clocks):
        if v != 12:
            yield format_input((*clocks[:i], 12, *clocks[i + 1 :]))
    for i, v in enumerate(clocks):
        if v in (3, 6):
            yield format_input((*clocks[:i], v + 3, *clocks[i + 1 :]))
