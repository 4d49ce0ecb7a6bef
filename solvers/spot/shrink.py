"""Shrinking a one-game spot input for `stress`.

Every candidate is a legal game: exactly 2N moves, `+` only on an empty square, `-` only
on a spot. Measure (`measure`): (N, sum of the 0-based coordinates over all moves),
compared as a tuple; every candidate is strictly smaller. Candidates, biggest first:
1. a smaller board (rows and columns cut out, see `_line_sets`), moves cut or padded to 2n;
2. the moves from move k on replaced by toggles of the corner square (0,0);
3. a `+` and the `-` that removes that spot dropped, two corner toggles appended;
4. every move of one square moved one row up or one column left (onto an unused square).
Padding toggles the corner: `+` if it is empty, else `-`, so it is always legal.
"""

from __future__ import annotations

from collections.abc import Iterator

from solvers.spot.io import MIN_N, Move, format_input, parse
from solvers.spot.io import Game as SpotGame


def _game(text: str) -> SpotGame:
    games = parse(text)
    if len(games) != 1:
        raise ValueError(f"spot shrink takes one game, got {len(games)}")
    return games[0]


def measure(text: str) -> tuple[int, int]:
    game = _game(text)
    return game.n, sum(r + c for r, c, _ in game.moves)


def _pad(moves: list[Move], total: int) -> list[Move]:
    """`moves` (legal) cut or padded with corner toggles to exactly `total` moves."""
    out = list(moves[:total])
    corner = False
    for r, c, add in out:
        if (r, c) == (0, 0):
            corner = add
    while len(out) < total:
        corner = not corner
        out.append((0, 0, corner))
    return out


def _text(n: int, moves: list[Move]) -> str:
    return format_input([SpotGame(n, tuple(moves))])


def _delete_lines(moves: tuple[Move, ...], n: int, lines: set[int]) -> tuple[int, list[Move]]:
    """Rows and columns `lines` cut out of the board (the same indices both ways): moves
    on them dropped, the others renumbered. Each square keeps its own moves, so legal."""

    def new(x: int) -> int:
        return x - sum(line < x for line in lines)

    kept = [(new(r), new(c), a) for r, c, a in moves if r not in lines and c not in lines]
    return n - len(lines), kept


def _line_sets(n: int, moves: tuple[Move, ...]) -> Iterator[set[int]]:
    """Line sets to cut, biggest cut first. Cutting a pair k, n-1-k (or the middle line of
    an odd board) keeps every quarter turn a quarter turn of the smaller board, so the
    rotations a game repeats by survive; cutting the bottom-right keeps the corner."""
    busy = {x for r, c, _ in moves if (r, c) != (0, 0) for x in (r, c)}
    symmetric = [{k, n - 1 - k} for k in range((n + 1) // 2)]
    free = set().union(*(pair for pair in symmetric if not pair & busy))
    if n - len(free) >= MIN_N and free:
        yield free
    for m in range(MIN_N, n):
        yield set(range(m, n))
    for pair in symmetric:
        if n - len(pair) >= MIN_N:
            yield pair


def _pairs(moves: tuple[Move, ...]) -> Iterator[tuple[int, int]]:
    """(i, j): move i puts a spot that move j (the next move on that square) removes."""
    for i, (r, c, add) in enumerate(moves):
        if not add:
            continue
        for j in range(i + 1, len(moves)):
            if moves[j][:2] == (r, c):
                if not moves[j][2]:
                    yield i, j
                break


def candidates(text: str) -> Iterator[str]:
    game = _game(text)
    n, moves = game.n, game.moves
    size = (n, sum(r + c for r, c, _ in moves))
    seen = {text}

    def fresh(m: int, new: list[Move]) -> str | None:
        out = _text(m, new)
        if out in seen or (m, sum(r + c for r, c, _ in new)) >= size:
            return None
        seen.add(out)
        return out

    for lines in _line_sets(n, moves):
        m, kept = _delete_lines(moves, n, lines)
        yield from _some(fresh(m, _pad(kept, 2 * m)))
    for k in range(len(moves)):
        yield from _some(fresh(n, _pad(list(moves[:k]), 2 * n)))
    for i, j in _pairs(moves):
        kept = [mv for x, mv in enumerate(moves) if x not in (i, j)]
        yield from _some(fresh(n, _pad(kept, 2 * n)))
    used = {(r, c) for r, c, _ in moves}
    for r, c in sorted(used):
        for to in ((r - 1, c), (r, c - 1)):
            if min(to) >= 0 and to not in used:
                moved = [(*to, a) if (rr, cc) == (r, c) else (rr, cc, a) for rr, cc, a in moves]
                yield from _some(fresh(n, moved))


def _some(text: str | None) -> tuple[str, ...]:
    return () if text is None else (text,)
