"""gomoku: golden corpus, every pattern on every line, v1 == v2, validator, exact output."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.problem.contract import InvalidInput, self_test
from pipeline.problem.registry import get_problem
from solvers.gomoku import PROBLEM
from solvers.gomoku.generate import ALL_LINES, FAMILIES, PATTERNS, generate
from solvers.gomoku.io import format_output, parse
from solvers.gomoku.solve import count_fast, count_plain

EMPTY = ("x" * 7,) * 7


def test_registered() -> None:
    assert get_problem("gomoku") is PROBLEM
    assert PROBLEM.default_solver == "2" and set(PROBLEM.solvers) == {"1", "2"}
    assert PROBLEM.multi_case == 1


def test_golden_every_version(golden_dir: Path) -> None:
    root = golden_dir / "gomoku"
    if not root.is_dir():
        pytest.skip(f"no gomoku golden corpus at {root}")
    cases = sorted(root.rglob("*.in"))
    assert len(cases) > 100
    for path in cases:
        text, answer = path.read_text(), path.with_suffix(".ans").read_text()
        assert PROBLEM.validate(text) == [], path
        for version in PROBLEM.solvers:
            got = PROBLEM.solve(text, version)
            assert PROBLEM.check(text, answer, got).verdict == "AC", (path, version, got)


def _with(line: list[tuple[int, int]], text: str, offset: int) -> tuple[str, ...]:
    grid = [list(row) for row in EMPTY]
    for (r, c), ch in zip(line[offset:], text, strict=False):
        grid[r][c] = ch
    return tuple("".join(row) for row in grid)


@pytest.mark.parametrize("solver", [count_plain, count_fast])
def test_every_pattern_on_every_line_and_edge(
    solver: Callable[[tuple[str, ...]], tuple[int, int, int]],
) -> None:
    """Alone on an empty board (every crossing line sees one stone), a pattern is counted
    once, wherever it lies: rows, columns, both diagonals, the 5- and 6-long diagonals."""
    kinds = {"xoooox": (0, 1, 0), "xooox": (0, 0, 1), "xoxoox": (0, 0, 1), "xooxox": (0, 0, 1)}
    checked = 0
    for line in ALL_LINES:
        for text, expected in kinds.items():
            for offset in range(len(line) - len(text) + 1):
                assert solver(_with(line, text, offset)) == expected, (line, text, offset)
                checked += 1
        dead = _with(line, "oooo", 0)  # four stones against the start of the line
        assert solver(dead) == (1, 0, 0), line
        assert solver(_with(line, "oooo", len(line) - 4)) == (1, 0, 0), line
        assert solver(_with(line, "ooooo", 0)) == (0, 0, 0), line  # five: nothing
        checked += 3
    assert len(ALL_LINES) == 24 and checked > 200


def test_rule_details_by_hand() -> None:
    def board(row: str) -> tuple[str, ...]:
        return (row, *EMPTY[1:])

    assert count_fast(board("xoxooxo")) == (0, 0, 1)  # jump three next to another stone
    assert count_fast(board("xooxoox")) == (0, 0, 0)
    assert count_fast(board("ooxooxx")) == (0, 0, 0)  # broken four
    assert count_fast(board("oooooox")) == (0, 0, 0)  # run of six
    assert count_fast(board("xoooxoo")) == (0, 0, 1)
    assert count_fast(board("ooooxoo")) == (1, 0, 0)


def test_fast_agrees_with_plain_on_random_boards() -> None:
    rng = random.Random(790)
    for _ in range(3000):
        density = rng.random()
        board = tuple(
            "".join("o" if rng.random() < density else "x" for _ in range(7)) for _ in range(7)
        )
        assert count_fast(board) == count_plain(board), board


def test_generated_validate_and_designed_patterns_found() -> None:
    rng = random.Random(5)
    for family in FAMILIES:
        for _ in range(10):
            text = generate(rng, family)
            assert PROBLEM.validate(text) == [], (family, text)
            counts = count_fast(parse(text))
            if family == "none":
                assert counts == (0, 0, 0)
            if family.startswith("designed_") or family == "edge":
                assert any(counts)
    for index, (pattern, _) in enumerate(PATTERNS):
        kind = 0 if pattern in ("oooox", "xoooo") else 1 if pattern == "xoooox" else 2
        for family in ("designed_row", "designed_col", "designed_diag", "designed_anti"):
            text = generate(rng, family, pattern=index)
            assert count_fast(parse(text))[kind] >= 1, (family, pattern, text)
    assert generate(random.Random(1), "many") == generate(random.Random(1), "many")
    assert self_test(PROBLEM) == []


def test_output_format() -> None:
    assert format_output((0, 0, 0)) == "\n"
    assert format_output((1, 0, 1)) == "死四活三\n"
    assert format_output((1, 2, 2)) == "死四雙活四雙活三\n"
    assert format_output((0, 0, 10)) == "拾活三\n"
    assert format_output((3, 0, 0)) == "參死四\n"
    with pytest.raises(ValueError):
        format_output((11, 0, 0))


def test_exact_text_checker() -> None:
    assert PROBLEM.check("", "\n", "").verdict == "AC"
    assert PROBLEM.check("", "活三\n", "活三  \n").verdict == "AC"
    assert PROBLEM.check("", "活三\n", "死四\n").verdict == "WA"
    assert PROBLEM.check("", "死四活三\n", "死四 活三\n").verdict != "AC"


TOO_MANY = "oxxoooo\nooxoooo\noooooox\nooooooo\nooxoooo\nooooxoo\nooooxoo\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("xxxxxxx\n" * 6, "expected 7 lines, got 6"),
        ("xxxxxxx\n" * 6 + "xxxxxxxx\n", "line 7: expected 7 characters, got 8"),
        ("xxxxxxx\n" * 3 + "xxaxxxx\n" + "xxxxxxx\n" * 3, "line 4, column 3: 'a' is neither"),
        (TOO_MANY, "11 死四 found: a valid board has at most 10"),
    ],
)
def test_validator_rejects(text: str, message: str) -> None:
    errors = PROBLEM.validate(text)
    assert any(message in e for e in errors), errors
    if "found" not in message:
        with pytest.raises(InvalidInput):
            parse(text)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), family=st.sampled_from(FAMILIES))
def test_generated_always_valid(seed: int, family: str) -> None:
    text = generate(random.Random(seed), family)
    assert PROBLEM.validate(text) == []
    assert PROBLEM.solve(text, "1") == PROBLEM.solve(text, "2")


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(st.text(max_size=70), st.text(alphabet="ox\n", max_size=70)))
def test_validate_never_raises_and_parse_agrees(text: str) -> None:
    errors = PROBLEM.validate(text)
    if errors:
        with pytest.raises(InvalidInput):
            PROBLEM.solve(text)
    else:
        assert PROBLEM.solve(text).endswith("\n")
