"""Clocks generators. Most families pick the answer (a vector of move counts 0..3) and
derive the board that it solves, so the family says what the answer looks like."""

from __future__ import annotations

import random

from solvers.clocks.io import format_input
from solvers.clocks.solve import MATRIX

FAMILIES = (
    "random",
    "all12",
    "one_move",
    "double_move",
    "triple_move",
    "two_moves",
    "few_moves",
    "many_moves",
)


def board_solved_by(counts: list[int]) -> tuple[int, ...]:
    """The dials that the move counts bring to 12."""
    turns = [sum(a * b for a, b in zip(row, counts, strict=True)) % 4 for row in MATRIX]
    # the moves add `turns` quarter turns: the dial must be that many short of 12
    return tuple(12 - 3 * t for t in turns)


def _counts(rng: random.Random, family: str, move: int | None) -> list[int]:
    counts = [0] * 9
    if family in ("one_move", "double_move", "triple_move"):
        k = move if move is not None else rng.randint(1, 9)
        counts[k - 1] = {"one_move": 1, "double_move": 2, "triple_move": 3}[family]
    elif family == "two_moves":
        for k in rng.sample(range(9), 2):
            counts[k] = 1
    elif family == "few_moves":
        total = rng.randint(3, 5)
        while sum(counts) < total:
            k = rng.randrange(9)
            if counts[k] < 3:
                counts[k] += 1
    elif family == "many_moves":
        counts = [rng.choice((1, 2, 3, 3)) for _ in range(9)]
        for k in rng.sample(range(9), rng.randint(0, 2)):
            counts[k] = 0
    return counts


def generate(rng: random.Random, family: str, move: int | None = None) -> str:
    """One board of `family`; `move` fixes the move of the one/double/triple families."""
    if family not in FAMILIES:
        raise ValueError(f"clocks has no generator family {family!r} (has: {', '.join(FAMILIES)})")
    if family == "random":
        return format_input(tuple(rng.choice((3, 6, 9, 12)) for _ in range(9)))
    return format_input(board_solved_by(_counts(rng, family, move)))
