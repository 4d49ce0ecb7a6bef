"""The gradebook: one row per submission, scored under a policy from the results rows
(so a finished run can be rescored without grading again).

A case counts in its group unless its verdict is IE (the input failed validation: the
case's fault, left out for every submission); JE counts as not passed, so a judge
failure never earns points (rerun the run to fix it)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from pipeline.ids import natural_ranks, natural_sorted
from pipeline.results.store import load_results, write_table
from pipeline.results.summary import last_attempts
from pipeline.schemas import VERDICTS
from pipeline.scoring.policy import Group, Policy, Threshold

GRADEBOOK_CSV = "gradebook.csv"
GRADEBOOK_PARQUET = "gradebook.parquet"
SCORE_INPUT = [
    "submission", "problem", "family", "case_id", "verdict", "cpu_ms", "attempt", "score",
]  # fmt: skip


def group_points(
    group: Group, passed: int, cases: int, total: float | None = None, low: float | None = None
) -> float:
    """The points one submission earns in one group: `passed` AC cases of `cases`, the
    sum `total` and the lowest `low` of their scores (policy.py: the passed count where
    the cases have no scores of their own)."""
    if cases == 0:
        return 0.0
    if group.aggregate == "sum":
        return group.points * (passed if total is None else total) / cases
    if group.aggregate == "min":
        lowest = (1.0 if passed == cases else 0.0) if low is None else low
        return group.points * lowest
    if group.aggregate == "all":
        return group.points if passed == cases else 0.0
    if isinstance(group.aggregate, Threshold):
        return group.points if passed >= group.aggregate.threshold else 0.0
    return group.points * passed / cases


def grouped_rows(results: pa.Table, policy: Policy) -> pd.DataFrame:
    """The last attempt of each (submission, case), with its group (column `group`)."""
    table = last_attempts(results)
    df = table.select([c for c in SCORE_INPUT if c in table.column_names]).to_pandas()
    df["group"] = df["family"].map(policy.assign(df["family"].unique().tolist()))
    return df


def _per_sub(
    frame: pd.DataFrame, subs: list[str], columns: Sequence[str], fill: Any
) -> dict[str, dict[str, Any]]:
    """submission -> column -> value, every submission and column present."""
    full = frame.reindex(index=subs, columns=list(columns))
    return {
        str(sub): {str(c): (fill if pd.isna(v) else v) for c, v in values.items()}
        for sub, values in full.to_dict("index").items()
    }


def gradebook(results: pa.Table, policy: Policy) -> pa.Table:
    """One row per submission, in natural id order: id, score, max score, points per
    group, counts by verdict, compile status, total CPU ms, then per group the cases
    passed, the cases and the first failing case (natural order)."""
    every = grouped_rows(results, policy)
    if every.empty:
        return pa.table({c: pa.array([], pa.string()) for c in ("submission", "score")})
    names = [g.name for g in policy.groups]
    subs = natural_sorted(every["submission"].unique().tolist())
    counts = _per_sub(every.groupby(["submission", "verdict"]).size().unstack(), subs, VERDICTS, 0)
    df = every[every["verdict"] != "IE"]
    ok = df["verdict"] == "AC"
    given = df["score"] if "score" in df.columns else pd.Series(float("nan"), index=df.index)
    credit = given.astype("float64").fillna(ok.astype("float64"))
    df = df.assign(ok=ok, credit=credit, rank=df["case_id"].map(natural_ranks(df["case_id"])))
    by = df.groupby(["submission", "group"])
    passed = _per_sub(by["ok"].sum().unstack("group"), subs, names, 0)
    total = _per_sub(by["credit"].sum().unstack("group"), subs, names, 0.0)
    low = _per_sub(by["credit"].min().unstack("group"), subs, names, 0.0)
    cases = _per_sub(by["ok"].size().unstack("group"), subs, names, 0)
    bad = df[~df["ok"]].sort_values("rank").groupby(["submission", "group"])["case_id"].first()
    first = _per_sub(bad.unstack("group") if len(bad) else pd.DataFrame(), subs, names, None)
    cpu = df.groupby("submission")["cpu_ms"].sum(min_count=0).fillna(0.0).to_dict()
    rows = []
    for sub in subs:
        points = {
            f"points_{g.name}": group_points(
                g,
                int(passed[sub][g.name]),
                int(cases[sub][g.name]),
                float(total[sub][g.name]),
                float(low[sub][g.name]),
            )
            for g in policy.groups
        }
        detail: dict[str, object] = {}
        for g in names:
            detail |= {
                f"passed_{g}": int(passed[sub][g]),
                f"cases_{g}": int(cases[sub][g]),
                f"first_failing_{g}": first[sub][g],
            }
        rows.append(
            {
                "submission": sub,
                "score": float(sum(points.values())),
                "max_score": policy.max_score,
                **points,
                **{f"n_{v}": int(counts[sub][v]) for v in VERDICTS},
                "compile": "CE" if counts[sub]["CE"] else "ok",
                "cpu_ms_total": float(cpu.get(sub, 0.0)),
                **detail,
            }
        )
    return pa.Table.from_pylist(rows)


def load_for_scoring(run_dir: Path) -> pa.Table:
    return load_results(run_dir, columns=SCORE_INPUT)


def write_gradebook(run_dir: Path, book: pa.Table) -> tuple[Path, Path]:
    """RUN_DIR/gradebook.parquet and gradebook.csv."""
    parquet = write_table(Path(run_dir) / GRADEBOOK_PARQUET, book)
    csv_path = Path(run_dir) / GRADEBOOK_CSV
    tmp = csv_path.with_name(f".{csv_path.name}.tmp")
    book.to_pandas().to_csv(tmp, index=False, float_format="%.6g")
    tmp.replace(csv_path)
    return parquet, csv_path
