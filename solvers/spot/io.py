"""Spot judge format: games until a line `0`; a game is `N` then 2N lines `r c +|-`.

One scanner reads the text line by line, collects every violated rule with its place,
and returns the games; `parse` raises on the first message, `validate` returns them all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.problem.checkers import normalize
from pipeline.problem.contract import InvalidInput

MIN_N, MAX_N = 2, 50
MAX_MESSAGES = 20
_INT = re.compile(r"(0|[1-9][0-9]{0,8})\Z")

Move = tuple[int, int, bool]  # (row, column) 0-based, True for `+`


@dataclass(frozen=True)
class Game:
    n: int
    moves: tuple[Move, ...]


SpotInput = tuple[Game, ...]
# Per game: the 1-based number of the first repeating move, or None for a draw.
SpotOutput = tuple[int | None, ...]


@dataclass
class Scan:
    games: list[Game]
    spans: list[tuple[int, int]]  # per game: [first line, last line + 1), 0-based
    errors: list[str]
    complete: bool = False  # the final 0 was reached: every game's lines are known


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def scan(text: str) -> Scan:
    lines = _lines(text)
    out = Scan([], [], [])
    errors = out.errors
    i = 0
    while True:
        if i >= len(lines):
            errors.append(f"line {i + 1}: input ends without the final line '0'")
            return out
        tokens = lines[i].split()
        if len(tokens) != 1 or not _INT.match(tokens[0]):
            errors.append(
                f"line {i + 1}: expected N (an integer {MIN_N}..{MAX_N}) or the final 0, "
                f"got {lines[i][:40]!r}"
            )
            return out
        n = int(tokens[0])
        if n == 0:
            out.complete = True
            break
        g = len(out.games) + 1
        if not MIN_N <= n <= MAX_N:
            errors.append(f"game {g} (line {i + 1}): N = {n} is outside {MIN_N}..{MAX_N}")
            if n > 10 * MAX_N:
                return out
        start = i
        game = _scan_game(lines, i + 1, n, g, errors)
        if game is None:
            return out
        out.games.append(game)
        i += 1 + 2 * n
        out.spans.append((start, i))
    if not out.games:
        errors.append(f"line {i + 1}: no game before the final 0")
    if i + 1 < len(lines):
        errors.append(f"line {i + 2}: text after the final 0: {lines[i + 1][:40]!r}")
        out.complete = False
    return out


def _scan_game(lines: list[str], first: int, n: int, g: int, errors: list[str]) -> Game | None:
    """The 2N move lines of game `g` from line index `first`; None if the text ends."""
    board: set[tuple[int, int]] = set()
    moves: list[Move] = []
    for m in range(1, 2 * n + 1):
        i = first + m - 1
        if i >= len(lines):
            errors.append(f"game {g}: input ends after {m - 1} of its {2 * n} moves (line {i + 1})")
            return None
        where = f"game {g}, move {m} (line {i + 1})"
        tokens = lines[i].split()
        if (
            len(tokens) != 3
            or tokens[2] not in ("+", "-")
            or not _INT.match(tokens[0])
            or not _INT.match(tokens[1])
        ):
            errors.append(f"{where}: expected 'r c +' or 'r c -', got {lines[i][:40]!r}")
            if len(tokens) == 1:  # probably the next N or the final 0: too few moves
                return None
            continue
        r, c, add = int(tokens[0]), int(tokens[1]), tokens[2] == "+"
        if not (1 <= r <= n and 1 <= c <= n):
            errors.append(f"{where}: square ({r},{c}) is outside the {n}x{n} board")
            continue
        cell = (r - 1, c - 1)
        if add and cell in board:
            errors.append(f"{where}: '+' on a square that already has a spot ({r},{c})")
        elif not add and cell not in board:
            errors.append(f"{where}: '-' on an empty square ({r},{c})")
        elif add:
            board.add(cell)
        else:
            board.discard(cell)
        moves.append((r - 1, c - 1, add))
    return Game(n, tuple(moves))


def _limit(errors: list[str]) -> list[str]:
    if len(errors) <= MAX_MESSAGES:
        return errors
    return [*errors[:MAX_MESSAGES], f"... and {len(errors) - MAX_MESSAGES} more"]


# The canonical layout (what generators and `format_input` write): N lines and move lines
# with single spaces, `\n` endings, the final 0. One C-level match proves the layout; the
# rules about numbers then take one pass over the lines. Anything else (other spacing,
# CRLF, any broken rule) goes to the scanner, which alone words the messages.
_CANONICAL = re.compile(r"(?:[1-9][0-9]{0,8}\n(?:[1-9][0-9]{0,8} [1-9][0-9]{0,8} [+-]\n)+)+0\n*")


def _canonical_and_valid(text: str) -> bool:
    """True only for a canonical, valid input (then `scan` finds no error); False means
    "ask the scanner", not "invalid"."""
    if _CANONICAL.fullmatch(text) is None:
        return False
    lines = text.split("\n")
    i = 0
    try:
        while True:
            n = int(lines[i])
            i += 1
            if n == 0:
                return True  # the match allows only newlines after the final 0
            if n > MAX_N or n < MIN_N:
                return False
            board: set[int] = set()
            end = i + 2 * n
            for line in lines[i:end]:
                r, c, sign = line.split(" ")  # a one-token line here: too few moves
                row, col = int(r), int(c)
                if row > n or col > n:
                    return False
                key = row * 64 + col
                if sign == "+":
                    if key in board:
                        return False
                    board.add(key)
                elif key in board:
                    board.remove(key)
                else:
                    return False
            i = end
    except (ValueError, IndexError):
        return False


def validate(text: str) -> list[str]:
    if _canonical_and_valid(text):
        return []
    return _limit(scan(text).errors)


def parse(text: str) -> SpotInput:
    result = scan(text)
    if result.errors:
        raise InvalidInput(result.errors[0])
    return tuple(result.games)


def format_game(n: int, moves: tuple[Move, ...] | list[Move]) -> str:
    """One game's lines (N and its moves), 1-based, without the final 0."""
    body = "".join(f"{r + 1} {c + 1} {'+' if add else '-'}\n" for r, c, add in moves)
    return f"{n}\n{body}"


def format_input(games: list[Game] | tuple[Game, ...]) -> str:
    return "".join(format_game(g.n, g.moves) for g in games) + "0\n"


def result_line(first_repeat: int | None) -> str:
    if first_repeat is None:
        return "Draw"
    winner = 2 if first_repeat % 2 == 1 else 1
    return f"Player {winner} wins on move {first_repeat}"


def format_output(output: SpotOutput) -> str:
    return "".join(result_line(m) + "\n" for m in output)


def split_input(text: str) -> list[str]:
    """A multi-game file -> one-case inputs (each game followed by its own `0`). Cut by
    structure: a game breaking a rule is still cut out (the validator rejects it as a
    case of its own); only text whose games cannot be delimited raises InvalidInput."""
    result = scan(text)
    if not result.complete or not result.games:
        raise InvalidInput(result.errors[0])
    lines = _lines(text)
    return ["\n".join(lines[a:b]) + "\n0\n" for a, b in result.spans]


def join(cases: list[str]) -> str:
    """One-case inputs -> one file: the games back to back, one final `0`."""
    parts = []
    for k, case in enumerate(cases, start=1):
        lines = _lines(case)
        if not lines or lines[-1].strip() != "0":
            raise InvalidInput(f"case {k}: does not end with the line '0'")
        parts.extend(lines[:-1])
    return "\n".join([*parts, "0"]) + "\n"


def split(output: str, n: int) -> list[str]:
    """A multi-game output -> per-game outputs (whatever is there; the caller compares
    the count with n)."""
    text = normalize(output)
    return [line + "\n" for line in text.split("\n")] if text else []
