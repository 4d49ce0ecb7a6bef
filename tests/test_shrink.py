"""The greedy shrink loop on pure predicates, and every problem's shrinker: candidates are
valid and strictly smaller by the problem's measure."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.problem.registry import get_problem
from pipeline.stress.shrink import shrink, shrink_trace
from solvers.clocks.shrink import measure as clocks_measure
from solvers.gomoku.shrink import measure as gomoku_measure
from solvers.mine.shrink import measure as mine_measure
from solvers.spot.shrink import measure as spot_measure
from solvers.tetris.shrink import measure as tetris_measure

# ---- the loop on a toy input: a list of positive integers written as text -------------


def toy_candidates(text: str) -> Iterator[str]:
    nums = [int(t) for t in text.split()]
    for i in range(len(nums)):  # drop one number
        yield " ".join(map(str, nums[:i] + nums[i + 1 :]))
    for i, v in enumerate(nums):  # lower one number by one
        yield " ".join(map(str, [*nums[:i], v - 1, *nums[i + 1 :]]))


def toy_validate(text: str) -> list[str]:
    nums = [int(t) for t in text.split()]
    return [] if nums and min(nums) >= 1 else ["needs positive numbers"]


def two_big(text: str) -> bool:
    """Fails while at least two numbers are 5 or more: the minimum is exactly `5 5`."""
    return sum(int(t) >= 5 for t in text.split()) >= 2


@given(st.lists(st.integers(1, 30), min_size=2, max_size=8))
@settings(max_examples=40, deadline=None)
def test_loop_reaches_the_known_minimum(nums: list[int]) -> None:
    text = " ".join(map(str, nums))
    if not two_big(text):
        nums += [9, 7]
        text = " ".join(map(str, nums))
    assert shrink(text, two_big, toy_candidates, toy_validate, max_steps=10_000) == "5 5"


def test_loop_never_tries_a_text_twice_nor_an_invalid_one() -> None:
    tried: list[str] = []

    def fails(text: str) -> bool:
        tried.append(text)
        assert not toy_validate(text), f"invalid candidate reached the predicate: {text!r}"
        return two_big(text)

    out = shrink_trace("1 8 6 1", fails, toy_candidates, toy_validate, max_steps=10_000)
    assert out.text == "5 5"
    assert len(tried) == len(set(tried)) == out.tries
    assert "8 6 1" in tried  # the first candidate, and it fails: taken first
    assert out.steps == 2 + 3 + 1  # two drops, then 8 -> 5 and 6 -> 5 one unit at a time


def test_loop_stops_after_max_steps_and_keeps_a_failing_text() -> None:
    out = shrink_trace("30 30", two_big, toy_candidates, toy_validate, max_steps=3)
    assert out.steps == 3
    assert two_big(out.text) and out.text != "30 30"


def test_loop_returns_the_input_when_nothing_smaller_fails() -> None:
    assert shrink("5 5", two_big, toy_candidates, toy_validate) == "5 5"
    assert shrink("9", lambda t: True, lambda t: (), None) == "9"


# ---- every problem's shrinker ---------------------------------------------------------

MEASURES: dict[str, Callable[[str], Any]] = {
    "spot": spot_measure,
    "mine": mine_measure,
    "tetris": tetris_measure,
    "gomoku": gomoku_measure,
    "clocks": clocks_measure,
}
# families whose inputs are too large to validate hundreds of candidates of, quickly
HEAVY = {"mine": {"large"}}
CANDIDATES_CHECKED = 150


def families_of(name: str) -> list[str]:
    return [f for f in get_problem(name).families if f not in HEAVY.get(name, set())]


@pytest.mark.parametrize("name", sorted(MEASURES))
def test_shrinker_is_wired_into_the_problem(name: str) -> None:
    assert get_problem(name).shrink is not None


@pytest.mark.parametrize("name", sorted(MEASURES))
@given(data=st.data())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_shrink_candidates_are_valid_and_strictly_smaller(name: str, data: st.DataObject) -> None:
    problem = get_problem(name)
    family = data.draw(st.sampled_from(families_of(name)), label="family")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    text = problem.generate(random.Random(seed), family)
    assert problem.validate(text) == []
    assert problem.shrink is not None
    size = MEASURES[name](text)
    seen = set()
    for candidate in islice(problem.shrink(text), CANDIDATES_CHECKED):
        assert problem.validate(candidate) == [], candidate
        assert MEASURES[name](candidate) < size, candidate
        assert candidate not in seen
        seen.add(candidate)


def test_spot_shrink_offers_a_smaller_board_first_and_corner_moves() -> None:
    problem = get_problem("spot")
    assert problem.shrink is not None
    text = "3\n3 3 +\n3 3 -\n2 3 +\n2 3 -\n3 3 +\n3 2 +\n0\n"
    out = list(problem.shrink(text))
    assert out[0].startswith("2\n")  # the 2x2 window: no move left, padded with corner toggles
    assert out[0] == "2\n1 1 +\n1 1 -\n1 1 +\n1 1 -\n0\n"
    # (2,3) moves up onto (1,3) or left onto (2,2); (3,3) cannot move: both neighbours used
    assert "3\n3 3 +\n3 3 -\n1 3 +\n1 3 -\n3 3 +\n3 2 +\n0\n" in out
    assert "3\n3 3 +\n3 3 -\n2 2 +\n2 2 -\n3 3 +\n3 2 +\n0\n" in out


def test_mine_shrink_keeps_the_guarantee() -> None:
    """On a board where removing mines breaks the guarantee, those boards are not offered."""
    problem = get_problem("mine")
    assert problem.shrink is not None
    rng = random.Random(7)
    for _ in range(5):
        text = problem.generate(rng, "edge")
        for candidate in islice(problem.shrink(text), 400):
            assert problem.validate(candidate) == []


def test_clocks_and_tetris_shrink_by_hand() -> None:
    clocks = get_problem("clocks")
    tetris = get_problem("tetris")
    assert clocks.shrink is not None and tetris.shrink is not None
    assert list(clocks.shrink("12 12 12\n12 3 12\n12 12 9\n")) == [
        "12 12 12\n12 12 12\n12 12 9\n",
        "12 12 12\n12 3 12\n12 12 12\n",
        "12 12 12\n12 6 12\n12 12 9\n",
    ]
    assert list(tetris.shrink("1 2\n01\n")) == ["1 1\n1\n", "1 1\n0\n", "1 2\n11\n"]
