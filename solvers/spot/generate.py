"""Spot generators by family. Each family builds games by a plan and keeps only those
that show what the family is for (checked by `_first_repeat` under the rule variants),
so a case of `rot90` really is decided by a quarter turn and nothing else."""

from __future__ import annotations

import random
from collections.abc import Callable

from solvers.spot.io import MAX_N, Game, Move, format_input

Cell = tuple[int, int]
Board = frozenset[Cell]
Transform = Callable[[Cell], Cell]

FAMILIES = (
    "n2",
    "random_small",
    "identity_repeat",
    "rot90",
    "rot180",
    "rot270",
    "mirror",
    "empty_return",
    "repeat_then_more",
    "n50",
    "long_draw",
    "last_move",
)
MAX_ATTEMPTS = 5000


def _rotation(n: int, turns: int) -> Transform:
    def f(cell: Cell) -> Cell:
        r, c = cell
        for _ in range(turns % 4):
            r, c = c, n - 1 - r
        return (r, c)

    return f


def _reflection(n: int, kind: int) -> Transform:
    """0 left-right, 1 up-down, 2 main diagonal, 3 anti-diagonal."""
    rules: list[Transform] = [
        lambda rc: (rc[0], n - 1 - rc[1]),
        lambda rc: (n - 1 - rc[0], rc[1]),
        lambda rc: (rc[1], rc[0]),
        lambda rc: (n - 1 - rc[1], n - 1 - rc[0]),
    ]
    return rules[kind]


def _first_repeat(
    n: int, moves: list[Move], mirrors: bool = False, count_empty: bool = False
) -> tuple[int | None, set[str]]:
    """First repeating move under a rule variant, and which transforms explain it
    ("r0".."r3" quarter turns, "m0".."m3" reflections)."""
    transforms = {f"r{k}": _rotation(n, k) for k in range(4)}
    if mirrors:
        transforms.update({f"m{k}": _reflection(n, k) for k in range(4)})
    seen: set[Board] = {frozenset()} if count_empty else set()
    board: set[Cell] = set()
    for number, (r, c, _) in enumerate(moves, start=1):
        board ^= {(r, c)}
        current = frozenset(board)
        hits = {name for name, t in transforms.items() if frozenset(map(t, current)) in seen}
        if hits:
            return number, hits
        seen.add(current)
    return None, set()


def _repeat_count(n: int, moves: list[Move]) -> int:
    """How many moves produce a rotation of an earlier board (all of them, not just the first)."""
    turns = [_rotation(n, k) for k in range(4)]
    seen: set[Board] = set()
    board: set[Cell] = set()
    count = 0
    for r, c, _ in moves:
        board ^= {(r, c)}
        current = frozenset(board)
        if any(frozenset(map(t, current)) in seen for t in turns):
            count += 1
        seen.add(current)
    return count


def _board_of(moves: list[Move]) -> set[Cell]:
    board: set[Cell] = set()
    for r, c, _ in moves:
        board ^= {(r, c)}
    return board


def _toggle(board: set[Cell], cell: Cell) -> Move:
    add = cell not in board
    board ^= {cell}
    return (cell[0], cell[1], add)


def _random_cell(rng: random.Random, n: int, window: tuple[int, int, int] | None = None) -> Cell:
    if window is None:
        return (rng.randrange(n), rng.randrange(n))
    top, left, size = window
    return (top + rng.randrange(size), left + rng.randrange(size))


def _window(rng: random.Random, n: int, lo: int, hi: int) -> tuple[int, int, int]:
    size = rng.randint(min(lo, n), min(hi, n))
    return (rng.randrange(n - size + 1), rng.randrange(n - size + 1), size)


def _pad(rng: random.Random, n: int, moves: list[Move], board: set[Cell]) -> None:
    """Random legal moves until the game has its 2N moves."""
    window = _window(rng, n, 2, 6) if rng.random() < 0.5 else None
    while len(moves) < 2 * n:
        moves.append(_toggle(board, _random_cell(rng, n, window)))


def _walk(
    rng: random.Random, n: int, count: int, window: tuple[int, int, int] | None
) -> list[Move]:
    board: set[Cell] = set()
    return [_toggle(board, _random_cell(rng, n, window)) for _ in range(count)]


def _no_repeat_walk(rng: random.Random, n: int, count: int) -> tuple[list[Move], list[Board]]:
    """`count` moves, none of them a repeat (a few tries per move), and the boards made."""
    turns = [_rotation(n, k) for k in range(4)]
    seen: set[Board] = set()
    boards: list[Board] = []
    board: set[Cell] = set()
    moves: list[Move] = []
    window = _window(rng, n, 3, n)
    while len(moves) < count:
        for _ in range(100):
            cell = _random_cell(rng, n, window)
            if cell in board and rng.random() < 0.6:
                continue  # prefer adding: long games without repeats
            after = frozenset(board ^ {cell})
            if not any(frozenset(map(t, after)) in seen for t in turns):
                break
        else:
            raise _Retry
        moves.append(_toggle(board, cell))
        seen.add(frozenset(board))
        boards.append(frozenset(board))
    return moves, boards


class _Retry(Exception):
    """This attempt's plan did not work out: try again with fresh random choices."""


def _construct(rng: random.Random, n: int, transform: Transform, detour: int) -> list[Move]:
    """Build a pattern P, wander `detour` squares away, then turn the board into T(P)."""
    window = _window(rng, n, 2, 5)
    size = window[2]
    pattern = {_random_cell(rng, n, window) for _ in range(rng.randint(2, max(2, size + 1)))}
    target = {transform(cell) for cell in pattern}
    board: set[Cell] = set()
    cells = list(pattern)
    rng.shuffle(cells)
    moves = [_toggle(board, cell) for cell in cells]
    for _ in range(detour):
        moves.append(_toggle(board, _random_cell(rng, n, window)))
    change = list(board ^ target)
    rng.shuffle(change)
    moves.extend(_toggle(board, cell) for cell in change)
    if not change or len(moves) > 2 * n:
        raise _Retry
    return moves


def _rotation_game(rng: random.Random, n: int, turns: int) -> list[Move]:
    moves = _construct(rng, n, _rotation(n, turns), detour=rng.randint(1, 2) if turns == 0 else 0)
    number, hits = _first_repeat(n, moves)
    # hits name the turn that brings the current board back onto the earlier one
    if number != len(moves) or hits != {f"r{(4 - turns) % 4}"}:
        raise _Retry
    _pad(rng, n, moves, _board_of(moves))
    return moves


def _mirror_game(rng: random.Random, n: int) -> list[Move]:
    kind = rng.randrange(4)
    moves = _construct(rng, n, _reflection(n, kind), detour=0)
    _pad(rng, n, moves, _board_of(moves))
    true_first, _ = _first_repeat(n, moves)
    mirror_first, hits = _first_repeat(n, moves, mirrors=True)
    if mirror_first == true_first or not any(h.startswith("m") for h in hits):
        raise _Retry
    return moves


def _empty_return_game(rng: random.Random, n: int) -> list[Move]:
    """The board goes back to empty once or twice (a second time is a repeat), sometimes
    exactly on the last move; kept only if counting the empty start changes the answer."""
    window = _window(rng, n, 2, 5)
    if rng.random() < 0.3:  # N squares on, N squares off: empty on move 2N
        window = (0, 0, n)
        sizes = [n]
    else:
        sizes = [rng.randint(1, 4) for _ in range(rng.randint(1, 2))]
    board: set[Cell] = set()
    moves: list[Move] = []
    for size in sizes:
        cells: set[Cell] = set()
        while len(cells) < size:
            cells.add(_random_cell(rng, n, window))
        order = list(cells)
        rng.shuffle(order)
        moves.extend(_toggle(board, cell) for cell in order)
        rng.shuffle(order)
        moves.extend(_toggle(board, cell) for cell in order)
    if len(moves) > 2 * n:
        raise _Retry
    _pad(rng, n, moves, board)
    if _first_repeat(n, moves)[0] == _first_repeat(n, moves, count_empty=True)[0]:
        raise _Retry
    return moves


def _repeat_then_more_game(rng: random.Random, n: int) -> list[Move]:
    moves = _walk(rng, n, 2 * n, _window(rng, n, 2, 3))
    first, _ = _first_repeat(n, moves)
    if first is None or first > n or _repeat_count(n, moves) < 2:
        raise _Retry
    return moves


def _draw_game(rng: random.Random, n: int) -> list[Move]:
    moves, _ = _no_repeat_walk(rng, n, 2 * n)
    return moves


def _last_move_game(rng: random.Random, n: int) -> list[Move]:
    moves, boards = _no_repeat_walk(rng, n, 2 * n - 1)
    board = set(boards[-1])
    earlier = set(boards)
    turns = [_rotation(n, k) for k in range(4)]
    candidates: list[tuple[bool, Cell]] = []
    for r in range(n):
        for c in range(n):
            after = frozenset(board ^ {(r, c)})
            hits = [k for k, t in enumerate(turns) if frozenset(map(t, after)) in earlier]
            if hits:
                candidates.append((hits != [0], (r, c)))
    turned = [cell for rotated, cell in candidates if rotated]
    pool = turned if turned and rng.random() < 0.7 else [cell for _, cell in candidates]
    moves.append(_toggle(board, rng.choice(pool)))
    return moves


def _sized(rng: random.Random, family: str) -> int:
    if family == "n2":
        return 2
    if family == "n50":
        return MAX_N
    if family == "long_draw":
        return rng.randint(8, MAX_N)
    if family in ("random_small", "repeat_then_more", "last_move"):
        return rng.randint(3, 10)
    return rng.randint(3, 20) if rng.random() < 0.8 else rng.randint(21, MAX_N)


def _plan(rng: random.Random, family: str, n: int) -> list[Move]:
    if family in ("n2", "random_small"):
        return _walk(rng, n, 2 * n, _window(rng, n, 2, 4))
    if family == "identity_repeat":
        return _rotation_game(rng, n, 0)
    if family.startswith("rot"):
        return _rotation_game(rng, n, int(family[3:]) // 90)
    if family == "mirror":
        return _mirror_game(rng, n)
    if family == "empty_return":
        return _empty_return_game(rng, n)
    if family == "repeat_then_more":
        return _repeat_then_more_game(rng, n)
    if family == "long_draw":
        return _draw_game(rng, n)
    if family == "last_move":
        return _last_move_game(rng, n)
    if family == "n50":
        kind = rng.choice(["rot90", "rot180", "rot270", "identity_repeat", "mirror", "long_draw"])
        return _plan(rng, kind, n)
    raise ValueError(f"spot has no generator family {family!r} (has: {', '.join(FAMILIES)})")


def generate_game(rng: random.Random, family: str, n: int | None = None) -> Game:
    if family not in FAMILIES:
        raise ValueError(f"spot has no generator family {family!r} (has: {', '.join(FAMILIES)})")
    for _ in range(MAX_ATTEMPTS):
        size = n if n is not None else _sized(rng, family)
        try:
            moves = _plan(rng, family, size)
        except _Retry:
            continue
        return Game(size, tuple(moves))
    raise RuntimeError(f"spot/{family}: no game found in {MAX_ATTEMPTS} attempts (n={n})")


def generate(rng: random.Random, family: str, n: int | None = None) -> str:
    """One case (one game and the final 0) of `family`; `n` fixes the board size."""
    return format_input([generate_game(rng, family, n)])
