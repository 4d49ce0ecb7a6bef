"""Per-case half of `compare` (rules: pipeline/compare/pair.py): one side's rows and timings,
the aligned A/B table, verdict flips, distance to the time limit and the per-case
Mann-Whitney tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from pipeline.compare import stats as st
from pipeline.compare.options import CompareError, CompareOptions
from pipeline.compare.stats import FloatArray

_NON_BLAMING = ("IE",)
# Fewest paired timings for the signed-rank test: with 5 its smallest two-sided p-value is
# 0.0625 (never significant); fewer pairs fall back to Mann-Whitney.
MIN_PAIRS = 6


CASE_COLUMNS: tuple[str, ...] = (
    "submission_a",
    "submission_b",
    "problem",
    "family",
    "case_id",
    "status",
    "verdict_a",
    "verdict_b",
    "flip",
    "flip_kind",
    "output_changed",
    "time_a_ms",
    "time_b_ms",
    "time_ratio",
    "fastest_ratio",
    "machine_ratio",
    "n_runs_a",
    "n_runs_b",
    "case_test",
    "p_value",
    "q_value",
    "timing_change",
    "detectable_ratio",
    "batch_size_a",
    "batch_size_b",
    "limit_frac_a",
    "limit_frac_b",
    "close_to_limit",
)


def _timings(single: npt.ArrayLike, many: Sequence[Any]) -> tuple[list[FloatArray], FloatArray]:
    """Per row: its repeated timings (the list column, else the single median, else none)
    and their median; vectorised over rows with equally many timings."""
    single = np.asarray(single, dtype=np.float64)
    arrays = [
        np.asarray(x, dtype=np.float64) if x is not None and len(x) else np.asarray(s)[None]
        for x, s in zip(many, single, strict=True)
    ]
    lengths = np.fromiter((len(x) for x in arrays), dtype=np.int64, count=len(arrays))
    flat = np.concatenate(arrays) if arrays else np.empty(0)
    if np.isnan(flat).any():  # a missing timing: drop it, row by row (rare)
        arrays = [x[~np.isnan(x)] for x in arrays]
        lengths = np.fromiter((len(x) for x in arrays), dtype=np.int64, count=len(arrays))
        flat = np.concatenate(arrays) if arrays else np.empty(0)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    runs = [flat[a : a + n] for a, n in zip(starts.tolist(), lengths.tolist(), strict=True)]
    medians = np.full(len(arrays), np.nan)
    for n in np.unique(lengths[lengths > 0]):
        rows = np.flatnonzero(lengths == n)
        medians[rows] = np.median(flat[starts[rows, None] + np.arange(n)], axis=1)
    return runs, medians


def side_frame(df: pd.DataFrame, submission: str, metric: str, label: str) -> pd.DataFrame:
    """One submission's rows (the last attempt of each case) with its timings."""
    rows = df[df["submission"] == submission]
    if rows.empty:
        have = ", ".join(dict.fromkeys(df["submission"].tolist())) or "none"
        raise CompareError(f"side {label} has no results for {submission!r} (has: {have})")
    rows = rows.sort_values("attempt", kind="stable").drop_duplicates(
        ["problem", "case_id"], keep="last"
    )
    col = f"{metric}_ms"
    many = rows[f"{col}_runs"].tolist() if f"{col}_runs" in rows else [None] * len(rows)
    runs, medians = _timings(rows[col].to_numpy(dtype=np.float64, na_value=np.nan), many)
    return pd.DataFrame(
        {
            "problem": rows["problem"].to_numpy(),
            "case_id": rows["case_id"].to_numpy(),
            "family": rows["family"].to_numpy(),
            "verdict": rows["verdict"].to_numpy(),
            "sha": rows["output_sha256"].to_numpy(),
            "run_id": rows["run_id"].to_numpy(),
            "batch_size": rows["batch_size"].to_numpy(),
            "runs": pd.Series(runs, dtype=object, index=None).to_numpy(),
            "n_runs": np.fromiter((len(r) for r in runs), dtype=np.int64, count=len(runs)),
            "time": medians,
            "fastest": np.array([r.min() if len(r) else np.nan for r in runs]),
            "reference": (
                rows["reference_ms"].to_numpy(dtype=np.float64, na_value=np.nan)
                if "reference_ms" in rows
                else np.full(len(rows), np.nan)
            ),
        }
    )


def _flip_kind(va: Any, vb: Any) -> str | None:
    if va == vb:
        return None
    if va == "AC" and vb not in _NON_BLAMING:
        return "regression"
    if vb == "AC" and va not in _NON_BLAMING:
        return "fix"
    return "other"


def align(a: pd.DataFrame, b: pd.DataFrame, opts: CompareOptions) -> pd.DataFrame:
    m = pd.merge(a, b, on=["problem", "case_id"], how="outer", suffixes=("_a", "_b"))
    m["family"] = m["family_a"].where(m["family_a"].notna(), m["family_b"])
    has_a, has_b = m["verdict_a"].notna(), m["verdict_b"].notna()
    je = (m["verdict_a"] == "JE") | (m["verdict_b"] == "JE")
    m["status"] = st.first_label(
        [je, has_a & has_b, has_a, has_b], ["judge_error", "both", "only_a", "only_b"]
    )
    both = m["status"] == "both"
    differ = both & (m["verdict_a"] != m["verdict_b"])
    pairs = list(zip(m["verdict_a"], m["verdict_b"], differ, strict=True))
    m["flip"] = [f"{va}->{vb}" if d else None for va, vb, d in pairs]
    m["flip_kind"] = [_flip_kind(va, vb) if d else None for va, vb, d in pairs]
    both_ac = both & (m["verdict_a"] == "AC") & (m["verdict_b"] == "AC")
    m["output_changed"] = (
        both_ac & m["sha_a"].notna() & m["sha_b"].notna() & (m["sha_a"] != m["sha_b"])
    )
    for s in ("a", "b"):
        m[f"n_runs_{s}"] = m[f"n_runs_{s}"].fillna(0).astype(np.int64)
    # Where both sides timed the reference workload alongside (grade --repeat), their
    # timings are compared in units of it: the machine's own speed divides out.
    ref_a = m["reference_a"].to_numpy(dtype=np.float64)
    ref_b = m["reference_b"].to_numpy(dtype=np.float64)
    machine = np.where((ref_a > 0) & (ref_b > 0), ref_b / ref_a, np.nan)
    m["machine_ratio"] = machine
    unit_a = np.where(np.isnan(machine), 1.0, ref_a)
    unit_b = np.where(np.isnan(machine), 1.0, ref_b)
    for side, unit in (("a", unit_a), ("b", unit_b)):
        m[f"runs_{side}"] = [
            r / u if isinstance(r, np.ndarray) else r
            for r, u in zip(m[f"runs_{side}"], unit, strict=True)
        ]
    ta = np.maximum(m["time_a"].to_numpy(dtype=np.float64), st.TIME_FLOOR_MS) / unit_a
    tb = np.maximum(m["time_b"].to_numpy(dtype=np.float64), st.TIME_FLOOR_MS) / unit_b
    m["time_ratio"] = np.where(both & m["time_a"].notna() & m["time_b"].notna(), tb / ta, np.nan)
    m["_timed"] = both_ac & (m["batch_size_a"] == m["batch_size_b"]) & m["time_ratio"].notna()
    m["_log_ratio"] = np.log(m["time_ratio"].to_numpy(dtype=np.float64))
    fa = np.maximum(m["fastest_a"].to_numpy(dtype=np.float64), st.TIME_FLOOR_MS) / unit_a
    fb = np.maximum(m["fastest_b"].to_numpy(dtype=np.float64), st.TIME_FLOOR_MS) / unit_b
    m["fastest_ratio"] = np.where(m["time_ratio"].notna(), fb / fa, np.nan)
    _limit_columns(m, opts)
    return m


def _limit_columns(m: pd.DataFrame, opts: CompareOptions) -> None:
    """Time as a fraction of the limit; close_to_limit: a side that did not exceed the
    limit but used at least `close_fraction` of it."""
    limit = opts.time_limit_ms
    if isinstance(limit, dict):
        per_row = m["problem"].map(lambda p: limit.get(p, np.nan)).to_numpy(dtype=np.float64)
    else:
        per_row = np.full(len(m), np.nan if limit is None else float(limit))
    per_row = np.where(per_row > 0, per_row, np.nan)
    close = np.zeros(len(m), dtype=bool)
    for s in ("a", "b"):
        frac = m[f"time_{s}"].to_numpy(dtype=np.float64) / per_row
        m[f"limit_frac_{s}"] = frac
        verdict = m[f"verdict_{s}"]
        ok = verdict.notna() & ~verdict.isin(["TLE", "JE", "IE", "CE"])
        close |= ok.to_numpy() & (np.nan_to_num(frac) >= opts.close_fraction)
    m["close_to_limit"] = close


def case_tests(m: pd.DataFrame, opts: CompareOptions) -> None:
    """Per-case Mann-Whitney p-values, BH q-values, detectable ratios and the rank-sum
    terms the family test needs; vectorised per group of equal repeat counts."""
    n = len(m)
    p = np.full(n, np.nan)
    det = np.full(n, np.nan)
    centred, var, size = np.full(n, np.nan), np.full(n, np.nan), np.full(n, np.nan)
    tested = (
        m["_timed"].to_numpy()
        & (m["n_runs_a"].to_numpy() >= opts.min_repeats)
        & (m["n_runs_b"].to_numpy() >= opts.min_repeats)
    )
    # Paired: both sides graded in the same run with as many timings, which `grade`
    # interleaves (A, B, A, B, ...): the i-th timings of A and B ran one after the other.
    paired = (
        tested
        & (m["run_id_a"] == m["run_id_b"]).to_numpy()
        & (m["n_runs_a"].to_numpy() == m["n_runs_b"].to_numpy())
        & (m["n_runs_a"].to_numpy() >= MIN_PAIRS)
    )
    idx = np.flatnonzero(tested)
    if len(idx):
        shapes = m["n_runs_a"].to_numpy()[idx] * 1_000_003 + m["n_runs_b"].to_numpy()[idx]
        shapes = shapes * 2 + paired[idx]
        for shape in np.unique(shapes):
            rows = idx[shapes == shape]
            a = st.log_times(np.stack(m["runs_a"].to_numpy()[rows]))
            b = st.log_times(np.stack(m["runs_b"].to_numpy()[rows]))
            centred[rows], var[rows], size[rows] = st.rank_sum_terms(a, b)
            if shape % 2:
                p[rows] = st.signed_rank_rows(a, b)
                det[rows] = st.detectable_paired_log_ratio(
                    st.robust_sd_rows(b - a), a.shape[1], opts.alpha
                )
            else:
                p[rows] = st.mann_whitney_rows(a, b)
                det[rows] = st.detectable_log_ratio(
                    st.robust_sd_rows(a), st.robust_sd_rows(b), a.shape[1], b.shape[1], opts.alpha
                )
    m["_tested"] = tested
    m["case_test"] = st.first_label([paired, tested], ["signed-rank", "mann-whitney"])
    m["p_value"] = p
    m["q_value"] = st.benjamini_hochberg(p)
    m["detectable_ratio"] = np.exp(det)
    m["_rs_centred"], m["_rs_var"], m["_rs_n"] = centred, var, size
    ratio = m["time_ratio"].to_numpy(dtype=np.float64)
    fastest = m["fastest_ratio"].to_numpy(dtype=np.float64)
    sig = tested & (np.nan_to_num(m["q_value"].to_numpy(), nan=1.0) < opts.alpha)
    delta = m["time_b"].to_numpy(dtype=np.float64) - m["time_a"].to_numpy(dtype=np.float64)
    sig &= np.nan_to_num(np.abs(delta), nan=0.0) >= opts.min_change_ms
    m["timing_change"] = st.first_label(
        [
            sig & (ratio > opts.factor) & (fastest > opts.factor),
            sig & (ratio < 1.0 / opts.factor) & (fastest < 1.0 / opts.factor),
            tested,
            m["_timed"].to_numpy(),
        ],
        ["slower", "faster", "same", "not tested"],
    )


def objects_with_none(frame: pd.DataFrame) -> pd.DataFrame:
    """String columns as object dtype with None for missing (not NaN), so that callers
    and the Arrow conversion see plain str | None."""
    frame = frame.copy()
    for name in frame.columns:
        col = frame[name]
        if pd.api.types.is_string_dtype(col) or col.dtype == object:
            values = col.to_numpy(dtype=object, copy=True)
            values[pd.isna(col).to_numpy()] = None
            frame[name] = pd.Series(values, index=frame.index, dtype=object)
    return frame
