"""mine: golden answers, the game-search proof of the SG formula, validator, join/split."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.problem.checkers import normalize
from pipeline.problem.contract import InvalidInput, self_test
from solvers.mine import PROBLEM
from solvers.mine.board import shared_number_cells
from solvers.mine.check import validate
from solvers.mine.generate import generate
from solvers.mine.io import MineCase, format_case, join, parse, split, split_input
from solvers.mine.search import first_player_wins
from solvers.mine.solve import grundy_of, grundy_plain
from solvers.mine.tokens import int_tokens

GOLDEN = Path(__file__).resolve().parents[2] / ".." / "shared" / "golden" / "mine"


def _golden_families() -> list[str]:
    return sorted(p.name for p in GOLDEN.iterdir()) if GOLDEN.is_dir() else ["<absent>"]


def _text(n: int, m: int, mines: list[tuple[int, int]]) -> str:
    return f"1\n{n} {m} {len(mines)}\n" + "".join(f"{x} {y}\n" for x, y in mines)


def _mines(board: np.ndarray) -> set[tuple[int, int]]:
    return {(int(x), int(y)) for x, y in zip(*np.nonzero(board), strict=True)}


@pytest.mark.parametrize("family", _golden_families())
def test_golden_every_accepting_version(family: str) -> None:
    if not GOLDEN.is_dir():
        pytest.skip(f"golden corpus not found at {GOLDEN} (../shared is absent)")
    checked = 0
    for path in sorted((GOLDEN / family).glob("*.in")):
        text = path.read_text()
        assert validate(text) == [], path
        parsed = parse(text)
        expected = normalize(path.with_suffix(".ans").read_text())
        for version, solver in PROBLEM.solvers.items():
            if PROBLEM.version_accepts(version, parsed):
                assert normalize(PROBLEM.format(solver(parsed))) == expected, (path, version)
                checked += 1
    assert checked > 0


def test_self_test_passes() -> None:
    assert self_test(PROBLEM, seed=11, per_family=2) == []


@pytest.mark.slow
def test_search_agrees_with_formula_on_random_small_valid_boards() -> None:
    """The exact game search has no SG shortcut: agreement on thousands of valid boards
    is evidence for the formula (and for both implementations of it)."""
    g = np.random.default_rng(2024)
    valid = 0
    for _ in range(3000):
        n, m = (int(v) for v in g.integers(1, 6, size=2))
        board = g.random((n, m)) < g.uniform(0.0, 0.6)
        if np.count_nonzero(~board) > 16 or shared_number_cells(board).any():
            continue
        valid += 1
        want = first_player_wins(board)
        assert (grundy_of(board) != 0) == want, board.astype(int)
        assert (grundy_plain(n, m, _mines(board)) != 0) == want, board.astype(int)
    assert valid > 1500


def test_plain_and_vectorised_agree_on_bigger_boards() -> None:
    g = np.random.default_rng(7)
    for _ in range(200):
        n, m = (int(v) for v in g.integers(1, 40, size=2))
        board = g.random((n, m)) < g.uniform(0.0, 0.5)
        # also boards that break the guarantee: both count a shared number cell with the
        # region that comes first in row-major order
        assert grundy_of(board) == grundy_plain(n, m, _mines(board)), board.astype(int)


# The guarantee matters. On this board the number cell (1,1) borders the blank region
# {(0,2),(0,3)} and the blank region {(2,0),(3,0)}:
#     * . . .
#     . # . .      * mine, # the shared number cell
#     . . * .
#     . . . .
# Versions "1" and "2" count (1,1) with the first region only: SG 2, "Xiemao".
# The real game (version "search") is a loss for the first player: "Fanglaoshi".
VIOLATING = _text(4, 4, [(0, 0), (2, 2)])


def test_guarantee_violation_documented() -> None:
    assert validate(VIOLATING) == ["case 1: number cell (1,1) borders two blank regions"]
    parsed = parse(VIOLATING)
    assert PROBLEM.solve(VIOLATING, "2") == "Case #1: Xiemao\n"
    assert PROBLEM.solve(VIOLATING, "1") == "Case #1: Xiemao\n"
    assert PROBLEM.version_accepts("search", parsed)
    assert PROBLEM.solve(VIOLATING, "search") == "Case #1: Fanglaoshi\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty input"),
        ("0\n", "T = 0 out of range"),
        ("51\n", "T = 51 out of range"),
        ("1\n3 3\n", "case 1: missing `N M K`"),
        ("1\n0 3 0\n", "case 1: N = 0, M = 3"),
        ("1\n2 1001 0\n", "case 1: N = 2, M = 1001"),
        ("1\n2 2 5\n", "case 1: K = 5 out of range 0..N*M = 4"),
        ("1\n2 2 2\n0 0\n", "case 1: K = 2 but only 1 mine lines follow"),
        ("1\n2 2 0\n7\n", "1 extra numbers after the last case"),
        ("1\n2 2 1\n0 x\n", "line 3: unexpected character 'x'"),
        ("1\n2 2 1\n0 1-1\n", "line 3: misplaced '-'"),
        ("1\n2 2 1\n0 99999999999999999999\n", "line 3: number too long"),
        ("1\n2 2 1\n0 é\n", "non-ASCII character"),
        ("2\n2 2 0\n3 3 1\n3 0\n", "case 2: mine 1 at (3,0) is outside the 3x3 board"),
        ("1\n3 3 2\n-1 0\n0 5\n", "case 1: mine 1 at (-1,0) is outside the 3x3 board (and 1"),
    ],
)
def test_malformed_input_named(text: str, message: str) -> None:
    errors = validate(text)
    assert len(errors) == 1 and errors[0].startswith(message), errors
    with pytest.raises(InvalidInput, match="^" + message[:20].replace("(", r"\(")):
        parse(text)


def test_duplicates_and_guarantee_reported_per_case() -> None:
    text = "3\n2 2 0\n5 5 2\n3 4\n3 4\n" + VIOLATING.split("\n", 1)[1]
    assert validate(text) == [
        "case 2: mine (3,4) listed twice (again as mine 2)",
        "case 3: number cell (1,1) borders two blank regions",
    ]
    # duplicates do not stop the solver: the board is the same
    assert PROBLEM.solve(text).count("Case #") == 3


def test_guarantee_counts_every_offending_cell() -> None:
    # two cut-off corners: (1,1) and (1,5) each border two blank regions
    text = _text(5, 7, [(0, 2), (2, 0), (0, 4), (2, 6)])
    assert validate(text) == [
        "case 1: number cell (1,1) borders two blank regions (and 1 more such cells)"
    ]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="0123456789 -\n\tx²é", max_size=60))
def test_validate_never_raises_and_parse_agrees(text: str) -> None:
    errors = validate(text)
    if errors:
        with pytest.raises(InvalidInput):
            parse(text)
    else:
        assert len(parse(text)) >= 1


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-(10**17), 10**17), max_size=30), st.randoms())
def test_int_tokens_matches_split(values: list[int], rnd: random.Random) -> None:
    text = "".join(str(v) + rnd.choice([" ", "\n", "\t", "\r\n", "  "]) for v in values)
    assert int_tokens(text).tolist() == values


def test_join_split_same_answers_as_one_by_one() -> None:
    rng = random.Random(5)
    cases = [generate(rng, rng.choice(["tiny", "small", "random", "edge"])) for _ in range(50)]
    singles = [PROBLEM.solve(text) for text in cases]
    joined = join(cases)
    assert joined.startswith("50\n") and validate(joined) == []
    output = PROBLEM.solve(joined)
    assert [line.split(":")[0] for line in output.splitlines()] == [
        f"Case #{i}" for i in range(1, 51)
    ]
    assert split(output, 50) == singles
    assert split_input(joined) == [format_case(c) for c in parse(joined)]
    assert [PROBLEM.solve(t) for t in split_input(joined)] == singles


def test_join_refuses_more_than_fifty_cases() -> None:
    with pytest.raises(InvalidInput, match="51 cases cannot share one file"):
        join([_text(1, 1, [])] * 51)


def test_split_keeps_wrong_numbers_and_pads() -> None:
    assert split("Case #1: Xiemao\nCase #3: Xiemao\n", 2) == [
        "Case #1: Xiemao\n",
        "Case #3: Xiemao\n",  # not renumbered: it must not match "Case #1: ..."
    ]
    assert split("Case #1: Xiemao\n", 3) == ["Case #1: Xiemao\n", "", ""]
    # text before the first `Case` is a piece of its own; surplus goes to the last piece
    assert split("junk Case #1: A Case #2: B", 2) == ["junk\n", "Case #1: A Case #2: B\n"]
    assert split("Case #1:\nXiemao\nCase #2: Fanglaoshi extra", 2) == [
        "Case #1: Xiemao\n",
        "Case #1: Fanglaoshi extra\n",
    ]


def test_join_of_multi_case_inputs_adds_counts() -> None:
    two = "2\n1 1 0\n1 1 1\n0 0\n"
    joined = join([two, _text(1, 2, [])])
    assert joined.startswith("3\n")
    assert PROBLEM.solve(joined).splitlines() == [
        "Case #1: Xiemao",
        "Case #2: Fanglaoshi",
        "Case #3: Xiemao",
    ]


@pytest.mark.parametrize("family", PROBLEM.families)
def test_generators_valid_and_deterministic(family: str) -> None:
    for seed in range(3 if family == "large" else 15):
        text = generate(random.Random(seed), family)
        assert text == generate(random.Random(seed), family)
        assert validate(text) == [], (family, seed)


def test_generator_shapes() -> None:
    rng = random.Random(1)
    full = parse(generate(rng, "full"))[0]
    assert full.k == full.n * full.m
    assert parse(generate(rng, "empty"))[0].k == 0
    for _ in range(20):
        case = parse(generate(rng, "small"))[0]
        assert case.n * case.m - case.k <= 16
        almost = parse(generate(rng, "almost_full"))[0]
        assert 0 <= almost.n * almost.m - almost.k <= 4
        tiny = parse(generate(rng, "tiny"))[0]
        assert tiny.n <= 3 and tiny.m <= 8
    big = parse(generate(random.Random(0), "large", density=0.1))[0]
    assert (big.n, big.m) == (1000, 1000) and 100_000 <= big.k < 150_000  # repair adds mines


def test_edge_boards_sit_on_the_guarantee() -> None:
    """Edge boards have a mine whose removal breaks the guarantee."""
    rng = random.Random(3)
    on_edge = 0
    for _ in range(20):
        case = parse(generate(rng, "edge"))[0]
        board = case.grid()
        for x, y in zip(case.xs.tolist(), case.ys.tolist(), strict=True):
            board[x, y] = False
            broken = shared_number_cells(board).any()
            board[x, y] = True
            if broken:
                on_edge += 1
                break
    assert on_edge == 20


def test_search_refuses_big_boards() -> None:
    text = "2\n1 1 0\n5 5 0\n"
    assert not PROBLEM.version_accepts("search", parse(text))
    with pytest.raises(InvalidInput, match="case 2: 25 safe cells; version search takes at"):
        PROBLEM.solve(text, "search")


def test_tiny_boards() -> None:
    assert PROBLEM.solve(_text(1, 1, [])) == "Case #1: Xiemao\n"  # one blank region, b = 0
    assert PROBLEM.solve(_text(1, 1, [(0, 0)])) == "Case #1: Fanglaoshi\n"  # no move
    # 1x3 with the middle mined: two number cells, SG 1 ^ 1 = 0
    assert PROBLEM.solve(_text(1, 3, [(0, 1)])) == "Case #1: Fanglaoshi\n"


def test_format_case_round_trip() -> None:
    case = MineCase(3, 4, np.array([2, 0]), np.array([3, 1]))
    back = parse(format_case(case))[0]
    assert (back.n, back.m, back.xs.tolist(), back.ys.tolist()) == (3, 4, [2, 0], [3, 1])
