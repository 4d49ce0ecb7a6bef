"""Spot reference solvers.

"1": plain — rebuild the whole N×N board after every move, compare its four rotations
     with a set of every board produced so far. O(N²) per move.
"2": fast — Zobrist hashes of the board in all four rotations, updated in O(1) per move;
     a hash hit is confirmed by comparing the actual boards (so collisions cannot lie).
"seed-reading": "2" with the empty starting board counted as produced (how the seed
     program reads the statement; PROBLEMS.md).
"""

from __future__ import annotations

import random
from functools import cache

from solvers.spot.io import Game, SpotInput, SpotOutput

Grid = tuple[tuple[int, ...], ...]


# ------------------------------------------------------------------ version "1"


def _rot90(grid: Grid) -> Grid:
    """The grid turned 90 degrees clockwise."""
    return tuple(zip(*grid[::-1], strict=True))


def first_repeat_plain(game: Game) -> int | None:
    n = game.n
    board = [[0] * n for _ in range(n)]
    seen: set[Grid] = set()
    for number, (r, c, add) in enumerate(game.moves, start=1):
        board[r][c] = 1 if add else 0
        current: Grid = tuple(tuple(row) for row in board)
        turned = current
        for _ in range(4):
            if turned in seen:
                return number
            turned = _rot90(turned)
        seen.add(current)
    return None


def solve_plain(games: SpotInput) -> SpotOutput:
    return tuple(first_repeat_plain(g) for g in games)


# ------------------------------------------------------------------ version "2"

Cell = tuple[int, int]


def _turn(cell: Cell, n: int) -> Cell:
    """Where a square goes when the board turns 90 degrees clockwise."""
    r, c = cell
    return (c, n - 1 - r)


def key_table(n: int, bits: int = 64) -> tuple[tuple[int, int, int, int], ...]:
    """Per square r*n+c: the Zobrist keys of its images under 0, 1, 2, 3 quarter turns.
    XOR-ing key k over the spots gives the hash of the board turned k times."""
    rng = random.Random(f"spot-zobrist-{n}")  # fixed table: the solver stays pure
    base = [rng.getrandbits(bits) for _ in range(n * n)]
    table = []
    for r in range(n):
        for c in range(n):
            images = [(r, c)]
            for _ in range(3):
                images.append(_turn(images[-1], n))
            k0, k1, k2, k3 = (base[a * n + b] for a, b in images)
            table.append((k0, k1, k2, k3))
    return tuple(table)


@cache
def _keys(n: int) -> tuple[tuple[int, int, int, int], ...]:
    return key_table(n)


def _board_after(game: Game, count: int) -> set[Cell]:
    board: set[Cell] = set()
    for r, c, _ in game.moves[:count]:
        board ^= {(r, c)}
    return board


def _confirmed(game: Game, number: int, turns: int, earlier: list[int]) -> bool:
    """Is the board after move `number`, turned `turns` times, one of the boards after the
    moves in `earlier`? Exact comparison: runs only on a hash hit."""
    turned = _board_after(game, number)
    for _ in range(turns):
        turned = {_turn(cell, game.n) for cell in turned}
    return any(_board_after(game, j) == turned for j in earlier)


def first_repeat_fast(game: Game, count_empty: bool = False) -> int | None:
    n = game.n
    keys = _keys(n)
    h0 = h1 = h2 = h3 = 0
    seen: dict[int, list[int]] = {0: [0]} if count_empty else {}
    for number, (r, c, _) in enumerate(game.moves, start=1):
        k0, k1, k2, k3 = keys[r * n + c]
        h0 ^= k0
        h1 ^= k1
        h2 ^= k2
        h3 ^= k3
        if h0 in seen or h1 in seen or h2 in seen or h3 in seen:
            for turns, h in enumerate((h0, h1, h2, h3)):
                if h in seen and _confirmed(game, number, turns, seen[h]):
                    return number
        bucket = seen.get(h0)
        if bucket is None:
            seen[h0] = [number]
        else:
            bucket.append(number)
    return None


def solve_fast(games: SpotInput) -> SpotOutput:
    return tuple(first_repeat_fast(g) for g in games)


def solve_seed_reading(games: SpotInput) -> SpotOutput:
    return tuple(first_repeat_fast(g, count_empty=True) for g in games)


SOLVERS = {"1": solve_plain, "2": solve_fast, "seed-reading": solve_seed_reading}
