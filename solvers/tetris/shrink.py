"""Shrinking a one-case tetris input for `stress`.

Measure (`measure`): (N*M, free cells), compared as a tuple; every candidate is strictly
smaller and valid (fewer cells and fewer zeros keep N*M < 50 and at most 40 zeros).
Candidates, biggest first: one row removed, one column removed, one free cell blocked.
"""

from __future__ import annotations

from collections.abc import Iterator

from solvers.tetris.io import TetrisCase, format_case, parse


def _case(text: str) -> TetrisCase:
    cases = parse(text)
    if len(cases) != 1:
        raise ValueError(f"tetris shrink takes one case, got {len(cases)}")
    return cases[0]


def measure(text: str) -> tuple[int, int]:
    case = _case(text)
    return case.n * case.m, case.zeros


def candidates(text: str) -> Iterator[str]:
    seen = set()
    for out in _candidates(_case(text)):
        if out not in seen:
            seen.add(out)
            yield out


def _candidates(case: TetrisCase) -> Iterator[str]:
    rows = case.rows
    if case.n > 1:
        for i in range(case.n):
            kept = rows[:i] + rows[i + 1 :]
            yield format_case(TetrisCase(case.n - 1, case.m, kept))
    if case.m > 1:
        for j in range(case.m):
            kept = tuple(row[:j] + row[j + 1 :] for row in rows)
            yield format_case(TetrisCase(case.n, case.m - 1, kept))
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            if cell == "0":
                blocked = (*rows[:i], row[:j] + "1" + row[j + 1 :], *rows[i + 1 :])
                yield format_case(TetrisCase(case.n, case.m, blocked))
