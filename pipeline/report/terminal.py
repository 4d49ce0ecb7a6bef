"""What the commands print on a terminal: a run's summary table, verdict counts and
timestamped steps (rich markup; verdict colours from pipeline.report.palette)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

import pyarrow as pa
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pipeline.report.palette import VERDICT_COLOURS, verdict_markup
from pipeline.schemas import VERDICTS

PIPED_WIDTH = 200  # columns when not on a terminal: wide tables stay whole


def wide_console() -> Console:
    """The terminal's width on a terminal; PIPED_WIDTH columns when piped."""
    probe = Console()
    return probe if probe.is_terminal else Console(width=PIPED_WIDTH)


def summary_table(summary: pa.Table, *, families: bool = False, title: str = "") -> Table:
    """A rich table of a summary: one line per submission x problem (the all-families
    rows), plus one per family when `families`. Verdict columns that are zero everywhere
    are left out (AC is always shown)."""
    rows = summary.to_pylist()
    if not families:
        rows = [r for r in rows if r["family"] is None]
    shown = [v for v in VERDICTS if v == "AC" or any(r[f"n_{v}"] for r in rows)]
    table = Table(title=title or None, show_lines=False)
    table.add_column("submission", overflow="fold")
    table.add_column("problem")
    if families:
        table.add_column("family")
    table.add_column("cases", justify="right")
    for v in shown:
        table.add_column(v, justify="right", style=VERDICT_COLOURS.get(v, ""))
    for name in ("pass", "cpu p50 ms", "cpu p95 ms", "cpu max ms"):
        table.add_column(name, justify="right")
    table.add_column("first failing case", overflow="fold")
    for r in rows:
        cells = [escape(r["submission"]), r["problem"]]
        if families:
            cells.append("(all)" if r["family"] is None else escape(r["family"]))
        cells.append(str(r["cases"]))
        cells += [str(r[f"n_{v}"]) if r[f"n_{v}"] else "·" for v in shown]
        cells.append(_pass_cell(r["pass_rate"]))
        cells += [_ms(r["cpu_ms_p50"]), _ms(r["cpu_ms_p95"]), _ms(r["cpu_ms_max"])]
        cells.append(escape(r["first_failing_case"] or "—"))
        table.add_row(*cells, end_section=families and r["family"] is None)
    return table


def print_summary(
    summary: pa.Table, *, families: bool = False, title: str = "", console: Console | None = None
) -> None:
    (console or wide_console()).print(summary_table(summary, families=families, title=title))


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
