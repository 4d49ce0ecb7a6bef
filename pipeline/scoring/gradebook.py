"""The gradebook: one row per submission, scored under a policy from the results rows
(so a finished run can be rescored without grading again).

A run over several problems is scored per problem: one row per (submission, problem),
each over its problem's groups only (Policy.for_problem), with a `problem` column.

A case counts in its group unless its verdict is IE (the input failed validation: the
case's fault, left out for every submission); JE counts as not passed, so a judge
failure never earns points (rerun the run to fix it). gradebook.csv writes each text
cell (a submission, a case) with its control characters escaped (text.printable)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.ids import natural_ranks, natural_sorted
from pipeline.private import replace_private, write_private
from pipeline.results.store import load_results, write_table
from pipeline.results.summary import last_attempts
from pipeline.schemas import VERDICTS
from pipeline.scoring.policy import Group, Policy, Threshold, default_policy_by_problem
from pipeline.text import printable

GRADEBOOK_CSV = "gradebook.csv"
GRADEBOOK_PARQUET = "gradebook.parquet"
SCORE_INPUT = [
    "submission", "problem", "family", "case_id", "verdict", "cpu_ms", "attempt", "score",
    "tle_kind",
]  # fmt: skip
# the TLE marks counted per submission (grade.time_verdicts): column -> tle_kind
TLE_MARKS = {"n_TLE_wall": "wall", "n_not_run": "not-run"}


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


def families_by_problem(results: pa.Table) -> dict[str, list[str]]:
    pairs = results.select(["problem", "family"]).group_by(["problem", "family"]).aggregate([])
    out: dict[str, list[str]] = {}
    for problem, family in zip(*(c.to_pylist() for c in pairs.columns), strict=True):
        out.setdefault(problem, []).append(family)
    return out


def default_policy_for(results: pa.Table) -> Policy:
    """One group per family, each problem scored out of the same total."""
    return default_policy_by_problem(families_by_problem(results))


def by_problem(results: pa.Table, policy: Policy) -> list[tuple[str | None, pa.Table, Policy]]:
    """(problem, its rows, its policy) for each problem of a run over several; one
    (None, every row, the policy) for a run of one problem."""
    families = families_by_problem(results) if "problem" in results.column_names else {}
    if len(families) <= 1:
        return [(None, results, policy)]
    return [
        (p, results.filter(pc.equal(results["problem"], p)), policy.for_problem(p, fams))
        for p, fams in sorted(families.items())
    ]


def gradebook(results: pa.Table, policy: Policy) -> pa.Table:
    """One row per submission (per submission and problem, with a `problem` column, in a
    run over several problems): see _book."""
    parts = by_problem(results, policy)
    if len(parts) == 1:
        return _book(results, policy)
    books = []
    for problem, rows, mine in parts:
        book = _book(rows, mine)
        books.append(book.add_column(1, "problem", pa.repeat(pa.scalar(problem), book.num_rows)))
    return pa.concat_tables(books, promote_options="default")


def _tle_marks(every: pd.DataFrame) -> dict[str, dict[Any, int]]:
    """Per TLE_MARKS column, each submission's count of TLEs of that kind."""
    kinds = every["tle_kind"] if "tle_kind" in every else pd.Series(None, index=every.index)
    return {
        column: every[kinds == kind].groupby("submission").size().to_dict()
        for column, kind in TLE_MARKS.items()
    }


def _book(results: pa.Table, policy: Policy) -> pa.Table:
    """One row per submission, in natural id order: id, score, max score, points per
    group, counts by verdict, compile status, total CPU ms, then per group the cases
    passed, the cases and the first failing case (natural order)."""
    every = grouped_rows(results, policy)
    if every.empty:
        return pa.table({c: pa.array([], pa.string()) for c in ("submission", "score")})
    names = [g.name for g in policy.groups]
    subs = natural_sorted(every["submission"].unique().tolist())
    counts = _per_sub(every.groupby(["submission", "verdict"]).size().unstack(), subs, VERDICTS, 0)
    marks = _tle_marks(every)
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
                **{column: int(marks[column].get(sub, 0)) for column in TLE_MARKS},
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
    frame = book.to_pandas()
    for column in frame.columns:  # names: one line each, no controls
        frame[column] = frame[column].map(lambda v: printable(v) if isinstance(v, str) else v)
    write_private(tmp, frame.to_csv(index=False, float_format="%.6g"))
    replace_private(tmp, csv_path)
    return parquet, csv_path
