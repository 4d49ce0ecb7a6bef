"""The run summary: results rows -> one row per submission x problem, and per
family.

`SummaryParts` holds what the summary is made of in a form that merges (counts, first
failing case and times per group), so `grade` adds each chunk's rows as they arrive and
the summary is ready when the last chunk is in: no pass over the whole run at the end.
`summarize(table)` is the same thing for one table."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.errors import GridjudgeError
from pipeline.ids import natural_key
from pipeline.schemas import PROGRAM_VERDICTS, SUMMARY_SCHEMA, VERDICTS

SUMMARY_INPUT = ["submission", "problem", "family", "case_id", "verdict", "cpu_ms"]
_PAIR = ["submission", "problem"]
_KEYS = ["submission", "problem", "family"]


class SummaryError(GridjudgeError):
    """Results that cannot be summarised; one line for the user."""


def summarize(results: pa.Table) -> pa.Table:
    """SUMMARY_SCHEMA rows from RESULTS_SCHEMA rows.

    Per submission x problem: one row over all families (family null, first) and one row
    per family (sorted). Counts by verdict; pass_rate = AC / rows with a program verdict
    (IE and JE excluded: the case's or the judge's fault; null when there is none);
    cpu_ms p50/p95/max over the program-verdict rows that have a time (linear
    interpolation between ranks); first_failing_case = the smallest case_id (string
    order) whose program verdict is not AC. Should a pair (submission, problem, case_id)
    appear more than once, only its highest attempt is counted.
    """
    parts = SummaryParts()
    parts.add(last_attempts(_checked(results)))
    return parts.table()


def _checked(results: pa.Table) -> pa.Table:
    missing = [c for c in SUMMARY_INPUT if c not in results.column_names]
    if missing:
        raise SummaryError(f"results lack column(s) {', '.join(missing)}")
    unknown = sorted(set(pc.unique(results.column("verdict")).to_pylist()) - set(VERDICTS))
    if unknown:
        raise SummaryError(f"results hold unknown verdict(s) {', '.join(map(str, unknown))}")
    return results


class SummaryParts:
    """The summary of every row added so far. Rows added in separate calls must be
    distinct (submission, problem, case_id) pairs, as the chunks of one run are;
    `summarize` handles a table that repeats a pair."""

    def __init__(self) -> None:
        self._counts: Counter[tuple[str, str, str, str]] = Counter()  # keys + verdict
        self._first_failing: dict[tuple[str, str, str], str] = {}
        self._times: dict[tuple[str, str, str], list[np.ndarray]] = {}

    def add(self, results: pa.Table) -> None:
        table = _checked(results).select(SUMMARY_INPUT)
        if table.num_rows == 0:
            return
        family = pc.fill_null(table.column("family").cast(pa.string()), "")
        table = table.set_column(2, "family", family)
        counts = table.group_by([*_KEYS, "verdict"]).aggregate([([], "count_all")])
        for row in counts.to_pylist():
            self._counts[(*_key(row), row["verdict"])] += row["count_all"]
        verdict = table.column("verdict")
        program = table.filter(pc.is_in(verdict, pa.array(sorted(PROGRAM_VERDICTS))))
        failing = program.filter(pc.not_equal(program.column("verdict"), "AC"))
        for row in failing.group_by(_KEYS).aggregate([("case_id", "min")]).to_pylist():
            key, case = _key(row), row["case_id_min"]
            if key not in self._first_failing or case < self._first_failing[key]:
                self._first_failing[key] = case
        timed = program.filter(pc.invert(pc.is_nan(program.column("cpu_ms"))))  # drops nulls
        times = timed.group_by(_KEYS).aggregate([("cpu_ms", "list")])
        for key, values in zip(
            (_key(row) for row in times.select(_KEYS).to_pylist()),
            times.column("cpu_ms_list").combine_chunks(),
            strict=True,
        ):
            self._times.setdefault(key, []).append(values.values.to_numpy())

    def merge(self, other: SummaryParts) -> None:
        """Add everything `other` holds (the summary of another chunk's rows)."""
        self._counts.update(other._counts)
        for key, case in other._first_failing.items():
            if key not in self._first_failing or case < self._first_failing[key]:
                self._first_failing[key] = case
        for key, times in other._times.items():
            self._times.setdefault(key, []).extend(times)

    def table(self) -> pa.Table:
        """SUMMARY_SCHEMA rows of everything added."""
        families = sorted({key[:3] for key in self._counts})
        rows: list[dict[str, Any]] = []
        for pair in sorted(
            {key[:2] for key in families}, key=lambda p: [natural_key(k) for k in p]
        ):
            members = [key for key in families if key[:2] == pair]
            rows.append(self._row(pair, None, members))
            rows.extend(self._row(pair, key[2], [key]) for key in members)
        return pa.Table.from_pylist(rows, schema=SUMMARY_SCHEMA)

    def _row(
        self, pair: tuple[str, ...], family: str | None, members: list[tuple[str, str, str]]
    ) -> dict[str, Any]:
        counts = {v: sum(self._counts[(*key, v)] for key in members) for v in VERDICTS}
        program = sum(counts[v] for v in PROGRAM_VERDICTS)
        failing = [self._first_failing[key] for key in members if key in self._first_failing]
        times = [t for key in members for t in self._times.get(key, [])]
        cpu = np.concatenate(times) if times else np.empty(0)
        p50, p95 = np.percentile(cpu, [50, 95]) if cpu.size else (None, None)
        return {
            "submission": pair[0],
            "problem": pair[1],
            "family": family,
            "cases": sum(counts.values()),
            **{f"n_{v}": counts[v] for v in VERDICTS},
            "pass_rate": counts["AC"] / program if program else None,
            "cpu_ms_p50": None if p50 is None else float(p50),
            "cpu_ms_p95": None if p95 is None else float(p95),
            "cpu_ms_max": float(cpu.max()) if cpu.size else None,
            "first_failing_case": min(failing) if failing else None,
        }


def _key(row: dict[str, Any]) -> tuple[str, str, str]:
    return (row["submission"], row["problem"], row["family"])


def last_attempts(results: pa.Table) -> pa.Table:
    """Only the highest attempt of each (submission, problem, case_id) (a retried chunk
    can write a pair twice); the table itself when every key is distinct."""
    keys = ["submission", "problem", "case_id"]
    if (
        "attempt" not in results.column_names
        # distinct case ids alone prove every key distinct (cheap); else group the keys
        or pc.count_distinct(results.column("case_id")).as_py() == results.num_rows
    ):
        return results
    indexed = results.append_column("_row", pa.array(np.arange(results.num_rows)))
    # the last row of each key in (attempt, row order): the greatest attempt * n + row
    rank = pc.add(
        pc.multiply(indexed.column("attempt").cast(pa.int64()), results.num_rows),
        indexed.column("_row"),
    )
    indexed = indexed.append_column("_rank", rank)
    best = indexed.group_by(keys).aggregate([("_rank", "max")]).column("_rank_max")
    keep = pc.is_in(indexed.column("_rank"), value_set=best)
    return results.filter(keep)
