"""The minimal set cover of `strength` (pipeline/strength/cover.py) against brute force
on small random kill matrices: by count and by CPU, every killed program covered."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pipeline.strength.cover import minimal_cover


def _covers(kills: np.ndarray, cases: list[int]) -> bool:
    killed = kills.any(axis=1)
    return bool((kills[:, cases].any(axis=1) | ~killed).all()) if cases else not killed.any()


def _brute(kills: np.ndarray, cost: np.ndarray, by_cpu: bool) -> float:
    """The optimum by trying every subset of cases, smallest first."""
    n = kills.shape[1]
    best = float("inf")
    for size in range(n + 1):
        for cases in itertools.combinations(range(n), size):
            if _covers(kills, list(cases)):
                value = float(cost[list(cases)].sum()) if by_cpu else float(size)
                best = min(best, value)
        if not by_cpu and best < float("inf"):
            return best
    return best


@pytest.mark.parametrize("by_cpu", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_the_cover_is_as_small_as_brute_force_finds(seed: int, by_cpu: bool) -> None:
    rng = np.random.default_rng(seed)
    programs, cases = rng.integers(1, 9), rng.integers(1, 10)
    kills = rng.random((programs, cases)) < rng.uniform(0.05, 0.6)
    cost = rng.integers(1, 50, cases).astype(float)
    cover = minimal_cover(kills, cost, by_cpu=by_cpu)
    assert _covers(kills, cover.cases)
    assert cover.optimal
    assert cover.cost == pytest.approx(_brute(kills, cost, by_cpu))
    if not by_cpu:  # among the smallest sets, the cheapest
        assert len(cover.cases) == cover.cost
        best_cpu = min(
            float(cost[list(c)].sum())
            for c in itertools.combinations(range(cases), len(cover.cases))
            if _covers(kills, list(c))
        )
        assert float(cost[cover.cases].sum()) == pytest.approx(best_cpu)


def test_a_cheaper_larger_set_wins_only_by_cpu() -> None:
    # case 0 kills both programs but costs 100; cases 1 and 2 kill one each for 1
    kills = np.array([[1, 1, 0], [1, 0, 1]], dtype=bool)
    cost = np.array([100.0, 1.0, 1.0])
    assert minimal_cover(kills, cost).cases == [0]
    assert minimal_cover(kills, cost, by_cpu=True).cases == [1, 2]


def test_programs_no_case_kills_need_no_case() -> None:
    kills = np.zeros((3, 4), dtype=bool)
    assert minimal_cover(kills).cases == []
    kills[1, 2] = True
    assert minimal_cover(kills).cases == [2]


def test_the_same_matrix_gives_the_same_cover() -> None:
    rng = np.random.default_rng(7)
    kills = rng.random((30, 60)) < 0.1
    first = minimal_cover(kills).cases
    assert all(minimal_cover(kills).cases == first for _ in range(3))
