"""The statistics behind `compare`, checked against brute force and simulation."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from pipeline.compare import stats as st


def test_bootstrap_interval_is_seeded_and_covers_the_median() -> None:
    rng = np.random.default_rng(7)
    values = np.log(rng.lognormal(0.2, 0.1, size=200))
    first = st.bootstrap_median_ci(values, resamples=2000, confidence=0.95, seed=3)
    again = st.bootstrap_median_ci(values, resamples=2000, confidence=0.95, seed=3)
    assert first == again
    low, high = first
    assert low < np.median(values) < high
    # more data, narrower interval
    wide = st.bootstrap_median_ci(values[:20], resamples=2000, confidence=0.95, seed=3)
    assert (wide[1] - wide[0]) > (high - low)


def test_bootstrap_interval_coverage_is_near_nominal() -> None:
    rng = np.random.default_rng(8)
    hits = 0
    for i in range(200):
        values = rng.normal(0.2, 0.1, size=60)
        low, high = st.bootstrap_median_ci(values, resamples=1000, confidence=0.95, seed=i)
        hits += low < 0.2 < high
    assert 0.88 <= hits / 200 <= 0.99


def test_bootstrap_chunks_agree_with_one_block(monkeypatch: pytest.MonkeyPatch) -> None:
    values = np.log(np.random.default_rng(1).lognormal(0.0, 0.2, size=50))
    whole = st.bootstrap_median_ci(values, resamples=500, confidence=0.9, seed=11)
    monkeypatch.setattr(st, "_BOOTSTRAP_CELLS", 50 * 7)  # 7 resamples per block
    chunked = st.bootstrap_median_ci(values, resamples=500, confidence=0.9, seed=11)
    assert chunked == pytest.approx(whole)


def test_exact_bootstrap_interval_is_the_limit_of_resampling() -> None:
    values = np.random.default_rng(9).normal(size=301)  # odd n: one middle value
    ranks = {v: i for i, v in enumerate(np.sort(values))}
    exact = st.exact_bootstrap_median_ci(values, confidence=0.95)
    sampled = st.bootstrap_median_ci(values, resamples=20_000, confidence=0.95, seed=1)
    # the sampled endpoints sit on order statistics within one of the exact ones
    for e, s in zip(exact, sampled, strict=True):
        nearest = min(ranks, key=lambda v: abs(v - s))
        assert abs(ranks[e] - ranks[nearest]) <= 1
    assert exact[0] < np.median(values) < exact[1]


def test_large_inputs_take_the_exact_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    values = np.random.default_rng(10).normal(size=101)
    monkeypatch.setattr(st, "_EXACT_ABOVE_CELLS", 1000)
    got = st.bootstrap_median_ci(values, resamples=2000, confidence=0.9, seed=0)
    assert got == st.exact_bootstrap_median_ci(values, confidence=0.9)


def test_bootstrap_degenerate_sizes() -> None:
    empty = st.bootstrap_median_ci(np.empty(0), resamples=10, confidence=0.95, seed=0)
    assert math.isnan(empty[0]) and math.isnan(empty[1])
    assert st.bootstrap_median_ci(np.array([0.5]), resamples=10, confidence=0.95, seed=0) == (
        0.5,
        0.5,
    )


def test_rank_sum_variance_is_the_exact_permutation_variance_with_ties() -> None:
    a = np.array([[1.0, 2.0, 2.0]])
    b = np.array([[2.0, 3.0, 3.0]])
    centred, var, n = st.rank_sum_terms(a, b)
    pooled = np.concatenate([a[0], b[0]])
    ranks = stats.rankdata(pooled)
    sums = [ranks[list(idx)].sum() for idx in itertools.combinations(range(6), 3)]
    assert n[0] == 6
    assert centred[0] == pytest.approx(ranks[3:].sum() - np.mean(sums))
    assert var[0] == pytest.approx(np.var(sums))  # population variance over all splits


def test_van_elteren_with_one_stratum_is_the_plain_asymptotic_mann_whitney() -> None:
    rng = np.random.default_rng(2)
    a = rng.normal(0.0, 1.0, size=(1, 15))
    b = rng.normal(0.6, 1.0, size=(1, 12))
    p = st.van_elteren(*st.rank_sum_terms(a, b))
    expected = stats.mannwhitneyu(
        b[0], a[0], alternative="two-sided", method="asymptotic", use_continuity=False
    ).pvalue
    assert p == pytest.approx(expected, rel=1e-9)


def test_van_elteren_detects_a_common_shift_and_not_its_absence() -> None:
    rng = np.random.default_rng(3)
    base = rng.uniform(1.0, 5.0, size=(30, 1))  # cases of very different sizes
    a = base + rng.normal(0.0, 0.05, size=(30, 6))
    same = base + rng.normal(0.0, 0.05, size=(30, 6))
    shifted = base + 0.05 + rng.normal(0.0, 0.05, size=(30, 6))
    assert st.van_elteren(*st.rank_sum_terms(a, same)) > 0.05
    assert st.van_elteren(*st.rank_sum_terms(a, shifted)) < 1e-4
    tied = np.ones((3, 5))
    assert st.van_elteren(*st.rank_sum_terms(tied, tied)) == 1.0


def test_mann_whitney_rows_match_scipy_row_by_row() -> None:
    rng = np.random.default_rng(4)
    a = rng.normal(size=(5, 7))
    b = rng.normal(0.5, size=(5, 9))
    p = st.mann_whitney_rows(a, b)
    for i in range(5):
        assert p[i] == pytest.approx(stats.mannwhitneyu(b[i], a[i]).pvalue)
    assert st.mann_whitney_rows(np.ones((1, 5)), np.ones((1, 5)))[0] == 1.0


def test_signed_rank_rows_match_scipy_row_by_row() -> None:
    rng = np.random.default_rng(12)
    a = rng.normal(size=(4, 9))
    b = a + rng.normal(0.3, 0.5, size=(4, 9))
    p = st.signed_rank_rows(a, b)
    for i in range(4):
        assert p[i] == pytest.approx(stats.wilcoxon(b[i] - a[i]).pvalue)
    assert st.signed_rank_rows(np.ones((1, 7)), np.ones((1, 7)))[0] == 1.0


def test_detectable_ratio_has_about_80_percent_power() -> None:
    """Simulate the per-case test at the shift the formula calls detectable."""
    rng = np.random.default_rng(5)
    sd, n, alpha = 0.05, 10, 0.05
    a = rng.normal(0.0, sd, size=(600, n))
    b = rng.normal(0.0, sd, size=(600, n))
    det = st.detectable_log_ratio(st.robust_sd_rows(a), st.robust_sd_rows(b), n, n, alpha)
    shift = float(st.detectable_log_ratio(np.array([sd]), np.array([sd]), n, n, alpha)[0])
    assert np.median(det) == pytest.approx(shift, rel=0.25)  # IQR estimates the spread
    power = np.mean(st.mann_whitney_rows(a, b + shift) < alpha)
    assert 0.65 < power < 0.92
    assert np.mean(st.mann_whitney_rows(a, b) < alpha) < 0.1


def test_wilcoxon_zero() -> None:
    assert st.wilcoxon_zero(np.zeros(8)) == 1.0
    assert st.wilcoxon_zero(np.full(10, 0.3) + np.linspace(0, 0.01, 10)) < 0.01
    assert math.isnan(st.wilcoxon_zero(np.empty(0)))


def test_benjamini_hochberg_keeps_nan_out() -> None:
    q = st.benjamini_hochberg(np.array([0.01, np.nan, 0.04, 0.03]))
    assert math.isnan(q[1])
    assert q[[0, 2, 3]] == pytest.approx([0.03, 0.04, 0.04])


def test_log_times_floor_and_first_label() -> None:
    assert st.log_times([0.0])[0] == pytest.approx(math.log(st.TIME_FLOOR_MS))
    labels = st.first_label(
        [np.array([True, False, False]), np.array([True, True, False])], ["x", "y"]
    )
    assert labels.tolist() == ["x", "y", None]
