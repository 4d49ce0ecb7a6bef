"""Per submission pair x problem x family rows of a comparison (rules: pipeline/compare/pair.py).

Works on the aligned per-case frame that `pair.compare_pair` builds (it carries the
private columns `_timed`, `_tested`, `_log_ratio`, `_rs_*`).
"""

from __future__ import annotations

import math
import zlib
from typing import Any

import numpy as np
import pandas as pd

from pipeline.compare import stats as st
from pipeline.compare.options import CompareOptions

# Fewest cases with a single timing each for the family-level Wilcoxon test (with 5, its
# smallest two-sided p-value is 0.0625: it could never be significant).
MIN_CASES_WITHOUT_REPEATS = 6

SUMMARY_COLUMNS: tuple[str, ...] = (
    "submission_a",
    "submission_b",
    "problem",
    "family",
    "cases",
    "only_a",
    "only_b",
    "judge_errors",
    "flips",
    "regressions",
    "fixes",
    "other_flips",
    "output_changed",
    "timed",
    "tested",
    "median_ratio",
    "fastest_ratio",
    "machine_ratio",
    "ci_low",
    "ci_high",
    "test",
    "p_value",
    "q_value",
    "timing_change",
    "detectable_ratio",
    "too_noisy",
    "slower_cases",
    "faster_cases",
    "close_to_limit",
)


def _flip_text(flips: pd.Series) -> str:
    counts = flips.dropna().value_counts()
    return ", ".join(
        f"{kind}:{n}" for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    )


def _timing(group: pd.DataFrame, opts: CompareOptions, seed: int) -> dict[str, Any]:
    timed = group[group["_timed"]]
    tested = group[group["_tested"]]
    log_ratios = timed["_log_ratio"].to_numpy(dtype=np.float64)
    machine = timed["machine_ratio"].to_numpy(dtype=np.float64)
    time_a = timed["time_a"].to_numpy(dtype=np.float64)
    time_b = timed["time_b"].to_numpy(dtype=np.float64)
    out: dict[str, Any] = {
        "timed": len(timed),
        "tested": len(tested),
        "median_ratio": math.nan,
        "fastest_ratio": math.nan,
        "machine_ratio": math.nan,
        "ci_low": math.nan,
        "ci_high": math.nan,
        "test": "none",
        "p_value": math.nan,
        "detectable_ratio": math.nan,
        "_median_change_ms": math.nan,
        "_median_time_ms": math.nan,
    }
    if len(timed) == 0:
        return out
    low, high = st.bootstrap_median_ci(
        log_ratios, resamples=opts.resamples, confidence=opts.confidence, seed=seed
    )
    out.update(
        median_ratio=float(np.exp(np.median(log_ratios))),
        fastest_ratio=float(np.median(timed["fastest_ratio"].to_numpy(dtype=np.float64))),
        machine_ratio=float(np.nanmedian(machine)) if np.isfinite(machine).any() else math.nan,
        ci_low=float(np.exp(low)),
        ci_high=float(np.exp(high)),
        _median_change_ms=float(np.nanmedian(time_b - time_a)),
        _median_time_ms=float(np.nanmedian(time_a)),
    )
    if len(tested):
        out["test"] = "van-elteren"
        out["p_value"] = st.van_elteren(
            tested["_rs_centred"].to_numpy(dtype=np.float64),
            tested["_rs_var"].to_numpy(dtype=np.float64),
            tested["_rs_n"].to_numpy(dtype=np.float64),
        )
        out["detectable_ratio"] = float(np.median(tested["detectable_ratio"]))
    elif len(timed) >= MIN_CASES_WITHOUT_REPEATS:
        out["test"] = "wilcoxon"
        out["p_value"] = st.wilcoxon_zero(log_ratios)
        out["detectable_ratio"] = float(np.exp((high - low) / 2.0))
    return out


def _row(
    group: pd.DataFrame, family: str | None, opts: CompareOptions, seed: int
) -> dict[str, Any]:
    status = group["status"].value_counts()
    kinds = group["flip_kind"].value_counts()
    change = group["timing_change"].value_counts()
    first = group.iloc[0]
    row: dict[str, Any] = {
        "submission_a": first["submission_a"],
        "submission_b": first["submission_b"],
        "problem": first["problem"],
        "family": family,
        "cases": int(status.get("both", 0)),
        "only_a": int(status.get("only_a", 0)),
        "only_b": int(status.get("only_b", 0)),
        "judge_errors": int(status.get("judge_error", 0)),
        "flips": _flip_text(group["flip"]),
        "regressions": int(kinds.get("regression", 0)),
        "fixes": int(kinds.get("fix", 0)),
        "other_flips": int(kinds.get("other", 0)),
        "output_changed": int(group["output_changed"].sum()),
        "slower_cases": int(change.get("slower", 0)),
        "faster_cases": int(change.get("faster", 0)),
        "close_to_limit": int(group["close_to_limit"].sum()),
    }
    key = f"{row['problem']}\0{family if family is not None else chr(1)}"
    row.update(_timing(group, opts, seed ^ zlib.crc32(key.encode())))
    return row


def summarize_pair(m: pd.DataFrame, opts: CompareOptions, seed: int) -> pd.DataFrame:
    """Family rows then one all-families row per problem, with BH-adjusted p-values over
    all of the pair's rows and the resulting timing_change."""
    rows: list[dict[str, Any]] = []
    for _problem, by_problem in m.groupby("problem", sort=True):
        for family, group in by_problem.groupby("family", sort=True, dropna=False):
            rows.append(_row(group, family if isinstance(family, str) else "?", opts, seed))
        rows.append(_row(by_problem, None, opts, seed))
    summary = pd.DataFrame(rows)
    summary["q_value"] = st.benjamini_hochberg(summary["p_value"].to_numpy(dtype=np.float64))
    sig = np.nan_to_num(summary["q_value"].to_numpy(), nan=1.0) < opts.alpha
    ratio = summary["median_ratio"].to_numpy(dtype=np.float64)
    low, high = summary["ci_low"].to_numpy(), summary["ci_high"].to_numpy()
    fastest = summary["fastest_ratio"].to_numpy(dtype=np.float64)
    # As for a case (pipeline/compare/cases.py): a family of ~0.1 ms cases differing by
    # microseconds has not changed, whatever its ratio.
    change_ms = np.abs(np.nan_to_num(summary["_median_change_ms"].to_numpy(dtype=np.float64)))
    sig &= change_ms >= opts.min_change_ms
    summary["timing_change"] = st.first_label(
        [
            sig & (ratio > opts.factor) & (low > 1.0) & (fastest > opts.factor),
            sig & (ratio < 1.0 / opts.factor) & (high < 1.0) & (fastest < 1.0 / opts.factor),
            summary["test"].to_numpy() != "none",
            summary["timed"].to_numpy() > 0,
        ],
        ["slower", "faster", "same", "not tested"],
    )
    # Inconclusive: no change beyond the factor was found, yet the interval of the median
    # ratio reaches past the factor (or its inverse), so one could have been missed --
    # unless a change of the factor would be below the floor anyway.
    noticeable = (
        np.nan_to_num(summary["_median_time_ms"].to_numpy(dtype=np.float64)) * (opts.factor - 1.0)
        >= opts.min_change_ms
    )
    summary["too_noisy"] = (
        (summary["timing_change"] == "same").to_numpy()
        & noticeable
        & ((high > opts.factor) | (low < 1.0 / opts.factor))
    )
    return summary[list(SUMMARY_COLUMNS)]
