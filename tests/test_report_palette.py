"""One verdict palette: every verdict has its own colour, and the terminal table, the
grade progress line and the HTML report all take it from there."""

from __future__ import annotations

from collections import Counter

import pyarrow as pa
from rich.color import Color

from pipeline.report.html import render_report
from pipeline.report.palette import VERDICT_COLOURS
from pipeline.report.terminal import summary_table, verdict_counts
from pipeline.results.summary import summarize
from pipeline.schemas import RESULTS_SCHEMA, VERDICTS


def _results(verdicts: list[str]) -> pa.Table:
    rows = []
    for i, verdict in enumerate(verdicts):
        row = dict.fromkeys(RESULTS_SCHEMA.names)
        row.update(
            run_id="r",
            submission="a.cpp",
            submission_sha="sha",
            problem="spot",
            case_id=f"f/{i:07d}",
            family="f",
            verdict=verdict,
            cpu_ms=1.0,
            attempt=1,
            batch_size=1,
        )
        rows.append(row)
    return pa.Table.from_pylist(rows, schema=RESULTS_SCHEMA)


def test_every_verdict_has_its_own_colour() -> None:
    assert set(VERDICT_COLOURS) == set(VERDICTS)
    assert len(set(VERDICT_COLOURS.values())) == len(VERDICTS)
    for colour in VERDICT_COLOURS.values():
        Color.parse(colour)  # a style rich accepts, as the terminal uses it


def test_terminal_and_html_use_the_palette() -> None:
    results = _results(["AC", "WA", "TLE", "RE"])
    table = summary_table(summarize(results))
    styles = {str(c.header): c.style for c in table.columns}
    assert {v: styles[v] for v in ("AC", "WA", "TLE", "RE")} == {
        v: VERDICT_COLOURS[v] for v in ("AC", "WA", "TLE", "RE")
    }
    assert verdict_counts(Counter({"WA": 3, "AC": 2, "JE": 0})) == (
        f"[{VERDICT_COLOURS['AC']}]AC 2[/] [{VERDICT_COLOURS['WA']}]WA 3[/]"
    )
    page = render_report(results, {"run_id": "r"})
    for verdict in VERDICTS:
        assert f".v-{verdict}{{color:{VERDICT_COLOURS[verdict]}}}" in page
    assert f'fill="{VERDICT_COLOURS["TLE"]}"' in page  # the verdict bars
