"""tetris reference solvers: per case, does the first player win?

- "2" (default): the corner bitboard (solvers.tetris.bitboard), memoised on translation-
  normalised keys shared by all cases. A position that falls apart into independent
  king-connected regions is a sum of games: its outcome is the XOR of the regions'
  Grundy values. A connected position is decided by win/lose search with early exit
  (one losing reply is enough), which needs no Grundy value.
- "1": plain win/lose minimax on the same bitboard, memoised per case, no region
  splitting.
"""

from __future__ import annotations

from solvers.tetris.bitboard import KILL, bits, component, corners, free_cells, normalise
from solvers.tetris.io import TetrisCase

MEMO_LIMIT = 500_000  # per dict: bounds the memory a long multi-case run can take
_GRUNDY: dict[int, int] = {}  # connected normalised corner set -> Grundy value
_WINS: dict[int, bool] = {}  # normalised corner set -> does the player to move win
_SUMS: dict[int, int] = {}  # normalised corner set -> Grundy value (XOR over regions)


def _remember(memo: dict, key: int, value: object) -> None:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value


def connected_grundy(c: int) -> int:
    """Grundy value of a non-empty king-connected normalised corner set."""
    if c & (c - 1) == 0:
        return 1
    found = _GRUNDY.get(c)
    if found is not None:
        return found
    options = {grundy(c & ~KILL[s]) for s in bits(c)}
    g = 0
    while g in options:
        g += 1
    _remember(_GRUNDY, c, g)
    return g


def grundy(s: int) -> int:
    """Grundy value of a corner set: XOR over its independent regions."""
    if s & (s - 1) == 0:
        return 1 if s else 0
    key = normalise(s)
    found = _SUMS.get(key)
    if found is not None:
        return found
    g, rest = 0, key
    while rest:
        comp = component(rest)
        rest ^= comp
        g ^= connected_grundy(normalise(comp))
    _remember(_SUMS, key, g)
    return g


def wins(s: int) -> bool:
    """Does the player to move win on corner set `s`?"""
    if s & (s - 1) == 0:
        return s != 0
    key = normalise(s)
    found = _WINS.get(key)
    if found is not None:
        return found
    comp = component(key)
    if comp != key:  # a sum of independent games
        result = grundy(key) != 0
    elif (g := _GRUNDY.get(key)) is not None:
        result = g != 0
    else:
        result = any(not wins(key & ~KILL[t]) for t in bits(key))
    _remember(_WINS, key, result)
    return result


def solve_grundy(cases: list[TetrisCase]) -> list[bool]:
    return [wins(corners(free_cells(case))) for case in cases]


def first_player_wins_plain(s: int) -> bool:
    memo: dict[int, bool] = {}

    def win(x: int) -> bool:
        found = memo.get(x)
        if found is None:
            found = any(not win(x & ~KILL[t]) for t in bits(x))
            memo[x] = found
        return found

    return win(s)


def solve_plain(cases: list[TetrisCase]) -> list[bool]:
    return [first_player_wins_plain(corners(free_cells(case))) for case in cases]


def clear_memo() -> None:
    """Forget every memoised position (benchmarks time cold runs with it)."""
    _GRUNDY.clear()
    _WINS.clear()
    _SUMS.clear()
