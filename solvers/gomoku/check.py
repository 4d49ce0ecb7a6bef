"""Gomoku checks: the validator (shape, characters, each count <= 10) and the exact-text
checker (the answer is a line of Chinese numerals: whitespace is not a separator)."""

from __future__ import annotations

from pipeline.problem.checkers import exact_text_check
from solvers.gomoku.io import MAX_COUNT, NAMES, scan
from solvers.gomoku.solve import count_fast

check = exact_text_check


def validate(text: str) -> list[str]:
    board, errors = scan(text)
    if errors:
        return errors
    for name, count in zip(NAMES, count_fast(board), strict=True):
        if count > MAX_COUNT:
            errors.append(f"{count} {name} found: a valid board has at most {MAX_COUNT} of each")
    return errors
