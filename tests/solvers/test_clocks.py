"""clocks: golden corpus, answers checked by applying the moves and against an exhaustive
search over all 4^9 move-count vectors written independently here, validator, file I/O."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.problem.contract import InvalidInput, self_test
from pipeline.problem.registry import get_problem
from solvers.clocks import PROBLEM
from solvers.clocks.generate import FAMILIES, generate
from solvers.clocks.io import parse
from solvers.clocks.solve import apply_moves, solve_exhaustive, solve_inverse

# the task statement's table, typed in again for an independent search
TURNS = {
    1: "ABDE",
    2: "ABC",
    3: "BCEF",
    4: "ADG",
    5: "BDEFH",
    6: "CFI",
    7: "DEGH",
    8: "GHI",
    9: "EFHI",
}


@cache
def _search_table() -> dict[tuple[int, ...], tuple[int, ...]]:
    """Board (dials A..I) -> the move counts (0..3 each) that bring it to 12, for every
    board, by trying all 4^9 count vectors."""
    effect = np.zeros((9, 9), dtype=np.int64)
    for move, clocks in TURNS.items():
        for clock in clocks:
            effect["ABCDEFGHI".index(clock), move - 1] = 1
    vectors = np.array(np.meshgrid(*[range(4)] * 9, indexing="ij")).reshape(9, -1).T
    turned = vectors @ effect.T % 4
    dials = np.where(turned == 0, 12, 12 - 3 * turned)  # the board these counts solve
    table: dict[tuple[int, ...], tuple[int, ...]] = {}
    for board, counts in zip(map(tuple, dials.tolist()), map(tuple, vectors.tolist()), strict=True):
        assert board not in table, "two count vectors solve the same board"
        table[board] = counts
    return table


def test_registered_with_file_io() -> None:
    assert get_problem("clocks") is PROBLEM
    assert PROBLEM.io.input_file == "clocks.in" and PROBLEM.io.output_file == "clocks.out"
    assert PROBLEM.default_solver == "2" and PROBLEM.multi_case == 1


@pytest.mark.slow
def test_golden_every_version(golden_dir: Path) -> None:
    root = golden_dir / "clocks"
    if not root.is_dir():
        pytest.skip(f"no clocks golden corpus at {root}")
    cases = sorted(root.rglob("*.in"))
    assert len(cases) > 100
    for path in cases:
        text, answer = path.read_text(), path.with_suffix(".ans").read_text()
        assert PROBLEM.validate(text) == [], path
        for version in PROBLEM.solvers:
            got = PROBLEM.solve(text, version)
            assert PROBLEM.check(text, answer, got).verdict == "AC", (path, version, got)


def test_answers_apply_and_match_exhaustive_search() -> None:
    table = _search_table()
    assert len(table) == 4**9  # every board has exactly one count vector: it is the shortest
    rng = random.Random(94)
    boards = [tuple(rng.choice((3, 6, 9, 12)) for _ in range(9)) for _ in range(2000)]
    for board in boards:
        moves = solve_inverse(board)
        assert apply_moves(board, moves) == (12,) * 9
        assert list(moves) == sorted(moves)
        counts = table[board]
        assert moves == tuple(m for m in range(1, 10) for _ in range(counts[m - 1]))
    for board in boards[:60]:
        assert solve_exhaustive(board) == solve_inverse(board)


def test_families_give_the_advertised_answers() -> None:
    rng = random.Random(4)
    assert PROBLEM.solve(generate(rng, "all12")) == "\n"
    for k in range(1, 10):
        assert PROBLEM.solve(generate(rng, "one_move", move=k)) == f"{k}\n"
        assert PROBLEM.solve(generate(rng, "triple_move", move=k)) == f"{k} {k} {k}\n"
    for family in FAMILIES:
        for _ in range(20):
            text = generate(rng, family)
            assert PROBLEM.validate(text) == [], (family, text)
            moves = PROBLEM.solve(text).split()
            if family == "two_moves":
                assert len(moves) == 2 and moves[0] != moves[1]
            if family == "few_moves":
                assert 3 <= len(moves) <= 5
            if family == "many_moves":
                assert len(moves) >= 10
    assert generate(random.Random(8), "random") == generate(random.Random(8), "random")
    assert self_test(PROBLEM) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3 6 9\n12 12 12\n", "expected 3 lines of 3 clocks, got 2 lines"),
        ("3 6 9\n12 12 12\n3 6 7\n", "line 3, clock I: '7' is not one of 3, 6, 9, 12"),
        ("3 6 9 12\n12 12 12\n3 6 9\n", "line 1: expected 3 numbers, got 4"),
        ("3 6 9\n12 12 0\n3 6 9\n", "line 2, clock F: '0' is not one of"),
    ],
)
def test_validator_rejects(text: str, message: str) -> None:
    errors = PROBLEM.validate(text)
    assert any(message in e for e in errors), errors
    with pytest.raises(InvalidInput):
        parse(text)


@settings(max_examples=100, deadline=None)
@given(
    text=st.one_of(
        st.text(max_size=40),
        st.lists(st.sampled_from(["3", "6", "9", "12", "0", "7", " ", "\n"]), max_size=25).map(
            "".join
        ),
    )
)
def test_validate_never_raises_and_parse_agrees(text: str) -> None:
    errors = PROBLEM.validate(text)
    if errors:
        with pytest.raises(InvalidInput):
            parse(text)
    else:
        assert apply_moves(parse(text), solve_inverse(parse(text))) == (12,) * 9
