"""The statistics behind `compare`: pure numpy/scipy, vectorised over cases.

Everything works on log timings (a ratio of times is a difference of logs). The rules
themselves (what counts as significant, when a run is too noisy) are documented in
`pipeline/compare/pair.py`; this module only computes.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from scipy import stats

FloatArray = npt.NDArray[np.float64]

# Times at or below this (ms) are raised to it before taking logs: a timer that reads 0
# for a very fast case must not make a ratio infinite.
TIME_FLOOR_MS = 1e-3
# Largest resamples x values matrix built at once by the bootstrap (memory bound).
_BOOTSTRAP_CELLS = 4_000_000
# Past this many values x resamples, the bootstrap interval of the median is computed from
# its exact distribution (what infinitely many resamples converge to) instead of sampled.
_EXACT_ABOVE_CELLS = 5_000_000
# z of the power we ask of a test when saying how small a change it can detect (80 %).
_Z_POWER = 0.8416212335729143
# Mann-Whitney's asymptotic relative efficiency against the t-test on normal data is 3/pi:
# it needs pi/3 times as many observations, i.e. its detectable shift is sqrt(pi/3) wider.
_MWU_INFLATION = math.sqrt(math.pi / 3)
# Robust standard deviation from the interquartile range of a normal sample.
_IQR_TO_SD = 1.0 / 1.3489795003921634


def log_times(values: npt.ArrayLike) -> FloatArray:
    return np.log(np.maximum(np.asarray(values, dtype=np.float64), TIME_FLOOR_MS))


def bootstrap_median_ci(
    values: FloatArray, *, resamples: int, confidence: float, seed: int
) -> tuple[float, float]:
    """Percentile bootstrap interval of the median of `values` (resampling the values with
    replacement, `resamples` times, seeded); NaN when there are no values. Past
    `_EXACT_ABOVE_CELLS` values x resamples, the exact bootstrap distribution is used."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan)
    if n == 1:
        return (float(values[0]), float(values[0]))
    if n * resamples > _EXACT_ABOVE_CELLS:
        return exact_bootstrap_median_ci(values, confidence=confidence)
    rng = np.random.default_rng(seed)
    medians = np.empty(resamples)
    step = max(1, _BOOTSTRAP_CELLS // n)
    for start in range(0, resamples, step):
        k = min(step, resamples - start)
        idx = rng.integers(0, n, size=(k, n))
        medians[start : start + k] = np.median(values[idx], axis=1)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(medians, [tail, 1.0 - tail])
    return (float(low), float(high))


def exact_bootstrap_median_ci(values: FloatArray, *, confidence: float) -> tuple[float, float]:
    """The percentile interval of the bootstrap distribution of the (lower) median, exact:
    a resample of n draws has its m-th smallest value (m = ceil(n/2)) at or below the j-th
    smallest value x_(j) iff at least m draws fall at or below it, a Binomial(n, j/n)
    event. O(n log n), no sampling; for odd n it is the limit of `bootstrap_median_ci`."""
    x = np.sort(values)
    n = len(x)
    m = (n + 1) // 2
    cdf = stats.binom.sf(m - 1, n, np.arange(1, n + 1) / n)  # P(median* <= x_(j))
    tail = (1.0 - confidence) / 2.0
    low = x[min(int(np.searchsorted(cdf, tail)), n - 1)]
    high = x[min(int(np.searchsorted(cdf, 1.0 - tail)), n - 1)]
    return (float(low), float(high))


def mann_whitney_rows(a: FloatArray, b: FloatArray) -> FloatArray:
    """Two-sided Mann-Whitney U p-value of each row of `b` (k, n_b) against the same row of
    `a` (k, n_a): exact for small samples without ties, asymptotic otherwise (scipy's
    'auto'). A row whose values are all equal has p = 1."""
    if a.shape[0] == 0:
        return np.empty(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.asarray(stats.mannwhitneyu(b, a, axis=1, alternative="two-sided").pvalue)
    return np.where(np.isfinite(p), p, 1.0)


def signed_rank_rows(a: FloatArray, b: FloatArray) -> FloatArray:
    """Two-sided Wilcoxon signed-rank p-value of each row of b - a (paired by column: the
    i-th timings of both sides, taken one after the other). A row of zeros has p = 1."""
    if a.shape[0] == 0:
        return np.empty(0)
    d = b - a
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.asarray(stats.wilcoxon(d, axis=1, zero_method="wilcox").pvalue)
    p = np.where(np.any(d != 0.0, axis=1), p, 1.0)
    return np.where(np.isfinite(p), p, 1.0)


def rank_sum_terms(a: FloatArray, b: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per row: (rank sum of b minus its expectation, its permutation variance with ties,
    N = n_a + n_b). The variance is n_a n_b / (N (N-1)) * sum of squared deviations of the
    mid-ranks from their mean: exact under the null, ties included."""
    n_a, n_b = a.shape[1], b.shape[1]
    n = n_a + n_b
    ranks = stats.rankdata(np.concatenate([a, b], axis=1), axis=1)
    w_b = ranks[:, n_a:].sum(axis=1)
    centred = w_b - n_b * (n + 1) / 2.0
    spread = ((ranks - (n + 1) / 2.0) ** 2).sum(axis=1)
    var = n_a * n_b / (n * (n - 1)) * spread
    return centred, var, np.full(len(w_b), float(n))


def van_elteren(centred: FloatArray, var: FloatArray, n: FloatArray) -> float:
    """Two-sided p-value of the van Elteren test: the stratified Mann-Whitney test, one
    stratum per case, weights 1/(N_k + 1) (locally most powerful for a common shift).
    Inputs are the concatenated `rank_sum_terms` of every case."""
    if len(centred) == 0:
        return math.nan
    weights = 1.0 / (n + 1.0)
    denom = float(np.sqrt(np.sum(weights**2 * var)))
    if denom == 0.0:
        return 1.0
    z = float(np.sum(weights * centred)) / denom
    return float(2.0 * stats.norm.sf(abs(z)))


def wilcoxon_zero(log_ratios: FloatArray) -> float:
    """Two-sided Wilcoxon signed-rank p-value that the per-case log ratios centre on 0
    (the family-level test when cases have a single timing each)."""
    if len(log_ratios) == 0:
        return math.nan
    if not np.any(log_ratios != 0.0):
        return 1.0
    return float(stats.wilcoxon(log_ratios, zero_method="wilcox").pvalue)


def robust_sd_rows(x: FloatArray) -> FloatArray:
    """Interquartile range of each row / 1.349: a standard deviation that one outlier
    timing cannot inflate."""
    q1, q3 = np.percentile(x, [25.0, 75.0], axis=1)
    return np.asarray((q3 - q1) * _IQR_TO_SD)


def detectable_log_ratio(
    sd_a: FloatArray, sd_b: FloatArray, n_a: int, n_b: int, alpha: float
) -> FloatArray:
    """Smallest |log ratio| a per-case Mann-Whitney test with these sample sizes and this
    (robust) spread detects with 80 % power at two-sided level `alpha`."""
    pooled = np.sqrt((sd_a**2 + sd_b**2) / 2.0)
    z = stats.norm.isf(alpha / 2.0) + _Z_POWER
    return np.asarray(z * _MWU_INFLATION * pooled * math.sqrt(1.0 / n_a + 1.0 / n_b))


def detectable_paired_log_ratio(sd_d: FloatArray, n: int, alpha: float) -> FloatArray:
    """The same for the signed-rank test on n paired differences of (robust) spread sd_d
    (its efficiency against the t-test is also 3/pi on normal data)."""
    z = stats.norm.isf(alpha / 2.0) + _Z_POWER
    return np.asarray(z * _MWU_INFLATION * sd_d / math.sqrt(n))


def benjamini_hochberg(p: FloatArray) -> FloatArray:
    """BH-adjusted p-values (q-values); NaN entries stay NaN and are not counted. Under the
    global null, the chance that any q < alpha is at most alpha."""
    q = np.full(len(p), math.nan)
    ok = ~np.isnan(p)
    if ok.any():
        q[ok] = stats.false_discovery_control(p[ok], method="bh")
    return q


def first_label(conditions: list[npt.ArrayLike], labels: list[str]) -> npt.NDArray[np.object_]:
    """Per row, the label of the first true condition, else None (an object array)."""
    n = len(np.asarray(conditions[0]))
    out = np.full(n, None, dtype=object)
    for cond, label in zip(reversed(conditions), reversed(labels), strict=True):
        out[np.asarray(cond, dtype=bool)] = label
    return out
