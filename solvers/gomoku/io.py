"""Gomoku judge format: 7 lines of 7 characters, `o` a stone, `x` empty.

The answer is one line: dead fours, live fours, live threes, each only if its count is
non-zero, the count written before the name (1 none, 2..10 雙 參 肆 伍 陸 柒 捌 玖 拾).
"""

from __future__ import annotations

from pipeline.problem.contract import InvalidInput

SIZE = 7
MAX_COUNT = 10
NAMES = ("死四", "活四", "活三")  # dead four, live four, live three
NUMERALS = {1: "", 2: "雙", 3: "參", 4: "肆", 5: "伍", 6: "陸", 7: "柒", 8: "捌", 9: "玖", 10: "拾"}

GomokuInput = tuple[str, ...]  # 7 rows of 7 characters
GomokuOutput = tuple[int, int, int]  # (dead fours, live fours, live threes)


def scan(text: str) -> tuple[GomokuInput, list[str]]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    errors: list[str] = []
    if len(lines) != SIZE:
        errors.append(f"expected {SIZE} lines, got {len(lines)}")
    for i, line in enumerate(lines[:SIZE]):
        if len(line) != SIZE:
            errors.append(
                f"line {i + 1}: expected {SIZE} characters, got {len(line)}: {line[:20]!r}"
            )
        bad = [(j, ch) for j, ch in enumerate(line) if ch not in "ox"]
        if bad:
            j, ch = bad[0]
            errors.append(f"line {i + 1}, column {j + 1}: {ch!r} is neither 'o' nor 'x'")
    return tuple(lines[:SIZE]), errors


def parse(text: str) -> GomokuInput:
    board, errors = scan(text)
    if errors:
        raise InvalidInput(errors[0])
    return board


def format_input(board: GomokuInput) -> str:
    return "".join(row + "\n" for row in board)


def format_output(counts: GomokuOutput) -> str:
    parts = []
    for name, count in zip(NAMES, counts, strict=True):
        if count > MAX_COUNT:
            raise ValueError(f"{count} {name}: counts above {MAX_COUNT} have no numeral")
        if count:
            parts.append(NUMERALS[count] + name)
    return "".join(parts) + "\n"
