"""The gradebook: one row per submission, scored under a policy from the results rows
(so a finished run can be rescored without grading again).

A case counts in its group unless its verdict is IE (the input failed validation: the
case's fault, left out for every submission); JE counts as not passed, so a judge
failure never earns points (rerun the run to fix it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa

from pipeline.ids import natural_key
from pipeline.results.store import load_results, write_table
from pipeline.results.summary import last_attempts
from pipeline.schemas import VERDICTS
from pipeline.scoring.policy import Group, Policy, Threshold

GRADEBOOK_CSV = "gradebook.csv"
GRADEBOOK_PARQUET = "gradebook.parquet"
SCORE_INPUT = ["submission", "problem", "family", "case_id", "verdict", "cpu_ms", "attempt"]


def group_points(group: Group, passed: int, cases: int) -> float:
    """The points one submission earns in one group."""
    if cases == 0:
        return 0.0
    if group.aggregate == "all":
        return group.points if passed == cases else 0.0
    if isinstance(group.aggregate, Threshold):
        return group.points if passed >= group.aggregate.threshold else 0.0
    return group.points * passed / cases


@dataclass(frozen=True)
class Scored:
    """The results rows that count, each with its group (column `group`)."""

    rows: pd.DataFrame
    policy: Policy


def scored_rows(results: pa.Table, policy: Policy) -> Scored:
    table = last_attempts(results)
    df = table.select([c for c in SCORE_INPUT if c in table.column_names]).to_pandas()
    assigned = policy.assign(df["family"].unique().tolist())
    df["group"] = df["family"].map(assigned)
    return Scored(df[df["verdict"] != "IE"], policy)


def _first_failing(df: pd.DataFrame) -> str | None:
    bad = df.loc[df["verdict"] != "AC", "case_id"].tolist()
    return min(bad, key=lambda c: (natural_key(c), c)) if bad else None


def _row(sub: str, df: pd.DataFrame, policy: Policy) -> dict[str, object]:
    counts = df["verdict"].value_counts()
    points: dict[str, object] = {}
    detail: dict[str, object] = {}
    for group in policy.groups:
        part = df[df["group"] == group.name]
        passed, cases = int((part["verdict"] == "AC").sum()), len(part)
        points[f"points_{group.name}"] = group_points(group, passed, cases)
        detail |= {
            f"passed_{group.name}": passed,
            f"cases_{group.name}": cases,
            f"first_failing_{group.name}": _first_failing(part),
        }
    return {
        "submission": sub,
        "score": float(sum(points.values())),  # type: ignore[arg-type]
        "max_score": policy.max_score,
        **points,
        **{f"n_{v}": int(counts.get(v, 0)) for v in VERDICTS},
        "compile": "CE" if counts.get("CE", 0) else "ok",
        "cpu_ms_total": float(df["cpu_ms"].sum(skipna=True)),
        **detail,
    }


def gradebook(results: pa.Table, policy: Policy) -> pa.Table:
    """One row per submission, in natural id order: id, score, max score, points per
    group, counts by verdict, compile status, total CPU ms, then per group the cases
    passed, the cases and the first failing case."""
    scored = scored_rows(results, policy)
    by_sub = dict(iter(scored.rows.groupby("submission", sort=False)))
    subs = sorted(by_sub, key=lambda s: (natural_key(str(s)), str(s)))
    frame = pd.DataFrame([_row(str(s), by_sub[s], policy) for s in subs])
    if frame.empty:
        return pa.table({c: pa.array([], pa.string()) for c in ("submission", "score")})
    return pa.Table.from_pandas(frame, preserve_index=False)


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
