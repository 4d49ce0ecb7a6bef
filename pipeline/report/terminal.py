"""What the commands print on a terminal: a run's summary table, verdict counts and
timestamped steps (rich markup; verdict colours from pipeline.report.palette). A name in
a cell is data: its markup and its control characters are escaped."""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pyarrow as pa
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pipeline.report.fit import Column, fitted_table
from pipeline.report.palette import VERDICT_COLOURS, verdict_markup
from pipeline.schemas import VERDICTS
from pipeline.scoring.gradebook import TLE_MARKS
from pipeline.text import printable

# (submission, problem or None for a one-problem gradebook) -> counts per TLE_MARKS column
TleMarks = Mapping[tuple[str, str | None], Mapping[str, int]]
# the TLE marks' column headers in the summary (shown only when a row has the mark)
MARK_HEADERS = {"n_TLE_wall": "TLE wall", "n_not_run": "not run"}

PIPED_WIDTH = 200  # columns when piped and COLUMNS is not set: wide tables stay whole
# the summary's optional columns, dropped in this order when the terminal is narrow
SUMMARY_DROPS = ("cpu p95 ms", "cpu p50 ms", "first failing case", "problem", "cpu max ms")


def wide_console() -> Console:
    """The terminal's width on a terminal, or COLUMNS when set; PIPED_WIDTH when piped."""
    probe = Console()
    if probe.is_terminal or os.environ.get("COLUMNS", "").isdigit():
        return probe
    return Console(width=PIPED_WIDTH)


def tle_marks(book: pa.Table) -> dict[tuple[str, str | None], dict[str, int]]:
    """The TLE marks of a gradebook (scoring.gradebook), for summary_table."""
    found: dict[tuple[str, str | None], dict[str, int]] = {}
    for r in book.to_pylist():
        counts = {c: int(r.get(c) or 0) for c in TLE_MARKS}
        if any(counts.values()):
            found[(r["submission"], r.get("problem"))] = counts
    return found


def summary_table(
    summary: pa.Table,
    *,
    families: bool = False,
    title: str = "",
    width: int | None = None,
    marks: TleMarks | None = None,
) -> Table:
    """A rich table of a summary: one line per submission x problem (the all-families
    rows), plus one per family when `families`. Verdict columns that are zero everywhere
    are left out (AC is always shown), and SUMMARY_DROPS as needed to fit `width`.
    `marks` (tle_marks): a column per TLE mark some all-families row has (a TLE killed
    by the wall clock under the CPU limit, a case not run after --max-tle); never
    dropped, so a wall-clock TLE is never shown as an ordinary one."""
    rows = summary.to_pylist()
    if not families:
        rows = [r for r in rows if r["family"] is None]
    shown = [v for v in VERDICTS if v == "AC" or any(r[f"n_{v}"] for r in rows)]
    mark_of = _marks_by_row(rows, marks or {})
    marked = [c for c in TLE_MARKS if any(m.get(c) for m in mark_of)]
    columns = [_summary_column("submission", wraps=True), _summary_column("problem")]
    if families:
        columns.append(_summary_column("family", wraps=True))
    columns.append(_summary_column("cases", justify="right"))
    columns += [
        _summary_column(v, justify="right", style=VERDICT_COLOURS.get(v, "")) for v in shown
    ]
    columns += [_summary_column(MARK_HEADERS[c], justify="right") for c in marked]
    for name in ("pass", "cpu p50 ms", "cpu p95 ms", "cpu max ms"):
        columns.append(_summary_column(name, justify="right"))
    columns.append(_summary_column("first failing case", wraps=True))
    cells = []
    for r, mark in zip(rows, mark_of, strict=True):
        row = [name_cell(r["submission"]), name_cell(r["problem"])]
        if families:
            row.append("(all)" if r["family"] is None else name_cell(r["family"]))
        row.append(str(r["cases"]))
        row += [str(r[f"n_{v}"]) if r[f"n_{v}"] else "·" for v in shown]
        row += [str(mark[c]) if mark.get(c) else "·" for c in marked]
        row.append(_pass_cell(r["pass_rate"]))
        row += [_ms(r["cpu_ms_p50"]), _ms(r["cpu_ms_p95"]), _ms(r["cpu_ms_max"])]
        row.append(name_cell(r["first_failing_case"] or "—"))
        cells.append(row)
    sections = [families and r["family"] is None for r in rows]
    return fitted_table(columns, cells, width, title=title, sections=sections)


def name_cell(text: str) -> str:
    """A name as a cell: no rich markup, no control character of it (text.printable)."""
    return escape(printable(text))


def _marks_by_row(rows: list[dict[str, Any]], marks: TleMarks) -> list[Mapping[str, int]]:
    """Each summary row's TLE marks: those of its submission x problem (all-families rows
    only: the gradebook counts per submission)."""
    found: list[Mapping[str, int]] = []
    for r in rows:
        key = (r["submission"], r["problem"])
        mine = marks.get(key) or marks.get((key[0], None)) or {}
        found.append(mine if r["family"] is None else {})
    return found


def _summary_column(header: str, **kwargs: Any) -> Column:
    drop = SUMMARY_DROPS.index(header) if header in SUMMARY_DROPS else None
    return Column(header, drop=drop, **kwargs)


def print_summary(
    summary: pa.Table,
    *,
    families: bool = False,
    title: str = "",
    console: Console | None = None,
    marks: TleMarks | None = None,
) -> None:
    console = console or wide_console()
    table = summary_table(summary, families=families, title=title, width=console.width, marks=marks)
    console.print(table)


def graded_line(rows: int, cached: int, resumed: int, out: object, where: str) -> str:
    """The line `grade` ends with: what was graded where, and what it took from the
    result cache or from the run it continued."""
    if rows == 0:
        if resumed:
            return f"nothing left to grade: all {resumed} pairs were already in {out}"
        return f"nothing to grade into {out}"
    from_cache = f" ({cached} from the result cache)" if cached else ""
    also = f", {resumed} resumed," if resumed else ""
    on = "" if cached == rows else f" on {where}"
    return f"graded {rows} pairs{from_cache}{also} into {out}{on}"


def verdict_counts(counts: Counter[str]) -> str:
    """`AC 12 WA 3`, each in its verdict's colour (rich markup), verdicts in name order."""
    return " ".join(verdict_markup(v, f"{v} {n}") for v, n in sorted(counts.items()) if n)


def step_printer(console: Console) -> Callable[[str], None]:
    """A printer of steps, each after the seconds since this call (`  12.3s message`)."""
    start = time.monotonic()

    def step(message: str) -> None:
        console.print(f"[dim]{time.monotonic() - start:6.1f}s[/dim] {message}", highlight=False)

    return step


def _pass_cell(rate: float | None) -> str:
    if rate is None:
        return "—"
    colour = "green" if rate == 1.0 else "yellow" if rate >= 0.5 else "red"
    return f"[{colour}]{100 * rate:.1f}%[/{colour}]"


def _ms(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"
