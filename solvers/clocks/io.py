"""Clocks judge format: 3 lines of 3 numbers from {3, 6, 9, 12} (clocks A..I)."""

from __future__ import annotations

from pipeline.problem.contract import InvalidInput

CLOCK_VALUES = ("3", "6", "9", "12")

ClocksInput = tuple[int, ...]  # nine dial readings, A..I
ClocksOutput = tuple[int, ...]  # the moves (1..9) in ascending order


def scan(text: str) -> tuple[ClocksInput, list[str]]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    errors: list[str] = []
    if len(lines) != 3:
        errors.append(f"expected 3 lines of 3 clocks, got {len(lines)} lines")
    values: list[int] = []
    for i, line in enumerate(lines[:3]):
        tokens = line.split()
        if len(tokens) != 3:
            errors.append(f"line {i + 1}: expected 3 numbers, got {len(tokens)}: {line[:40]!r}")
            continue
        for j, token in enumerate(tokens):
            clock = "ABCDEFGHI"[3 * i + j]
            if token not in CLOCK_VALUES:
                errors.append(
                    f"line {i + 1}, clock {clock}: {token[:20]!r} is not one of 3, 6, 9, 12"
                )
            else:
                values.append(int(token))
    return tuple(values), errors


def validate(text: str) -> list[str]:
    return scan(text)[1]


def parse(text: str) -> ClocksInput:
    values, errors = scan(text)
    if errors:
        raise InvalidInput(errors[0])
    return values


def format_input(clocks: ClocksInput) -> str:
    return "".join(" ".join(map(str, clocks[i : i + 3])) + "\n" for i in (0, 3, 6))


def format_output(moves: ClocksOutput) -> str:
    """The moves separated by single spaces; all clocks at 12 gives an empty line."""
    return " ".join(map(str, moves)) + "\n"
