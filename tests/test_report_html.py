"""The HTML report: well-formed, complete, escaped, self-contained; and `gridjudge report`."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.report import gradebook_html
from pipeline.report.gradebook_html import histogram, score_bins
from pipeline.report.html import render_report, write_report
from pipeline.results.store import write_results_part, write_run_json
from pipeline.schemas import RESULTS_SCHEMA
from tests.result_rows import result_row
from tests.run_summary import read_summary

VOID = {"meta", "br", "hr", "img", "input", "link", "rect", "line", "circle", "col"}
EVIL = '<script>alert("x")</script>.py'


class _Checker(HTMLParser):
    """Collects tags and attribute values; checks that non-void tags nest properly."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: list[str] = []
        self.attr_values: list[str] = []
        self.attr_names: set[str] = set()
        self.text: list[str] = []
        self.scripts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attr_values += [v or "" for _, v in attrs]
        self.attr_names |= {k for k, _ in attrs}
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attr_values += [v or "" for _, v in attrs]

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.stack and self.stack[-1] == "script":
            self.scripts.append(data)
            return
        self.text.append(data)


def _parse(page: str) -> _Checker:
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert checker.errors == []
    assert checker.stack == []
    return checker


def _row(sub: str, case: str, verdict: str, cpu: float | None, **kw: Any) -> dict[str, Any]:
    return result_row(sub, case, verdict, cpu, run_id="run-1", **kw)


ROWS = [
    *[_row("good.cpp", f"rand/{i:07d}", "AC", 1.0 + i) for i in range(7)],
    *[_row("good.cpp", f"edge/{i:07d}", "AC", 0.5) for i in range(3)],
    _row(EVIL, "rand/0000000", "AC", 3.0),
    _row(
        EVIL,
        "rand/0000001",
        "WA",
        4.0,
        checker_msg="line 1: expected 'Draw' <got> 'X'",
        output_head="Player 1 wins on move 3\n<b>bold</b>",
    ),
    _row(EVIL, "rand/0000002", "RE", 2.0, exit_code=139, signal=11),
    _row(EVIL, "edge/0000000", "TLE", 2000.0),
    _row(EVIL, "edge/0000001", "IE", None, checker_msg="line 2: move out of range"),
]


def _run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    write_run_json(run, {"run_id": "run-1", "problem": "spot", "submissions": ["good.cpp", EVIL]})
    write_results_part(run, ROWS[:6])
    write_results_part(run, ROWS[6:])
    return run


def test_report_is_well_formed_complete_and_escaped(tmp_path: Path) -> None:
    page = write_report(_run(tmp_path)).read_text(encoding="utf-8")
    parsed = _parse(page)
    text = " ".join(parsed.text)
    assert parsed.tags.count("script") == 1 and "b" not in parsed.tags  # escaped, not markup
    assert parsed.scripts == [gradebook_html.SORT_SCRIPT]  # only the report's own script
    assert EVIL in text and "<b>bold</b>" in text  # shown as text
    assert "good.cpp" in text
    assert "expected 'Draw' <got> 'X'" in text
    assert "exit 139 signal 11" in text
    # verdict counts of the summary table: good.cpp 10 AC; the other 1 AC, 1 WA, 1 RE, 1 TLE
    cells = re.findall(r'<td class="num">([^<]*)</td>', page)
    assert "10" in cells and "20.0%" not in cells and "25.0%" in cells and "100.0%" in cells
    # score histogram + verdict bars + one timing chart (spot)
    assert parsed.tags.count("svg") == 3
    assert "run-1" in text


def page_attrs(parsed: _Checker) -> set[str]:
    return parsed.attr_names


def test_report_has_no_external_resources(tmp_path: Path) -> None:
    parsed = _parse(write_report(_run(tmp_path)).read_text(encoding="utf-8"))
    assert not {"link", "img", "iframe", "object"} & set(parsed.tags)
    assert "src" not in page_attrs(parsed)  # the one script is inline
    for value in parsed.attr_values:
        assert not re.match(r"\s*(https?:)?//", value, re.I), value
    assert not any(re.search(r"url\(|@import", t) for t in parsed.text)


def test_empty_run_renders(tmp_path: Path) -> None:
    """A run with no rows yet (graded nothing, or read mid-run): a well-formed page that
    says so in every section instead of empty charts or a traceback."""
    parsed = _parse(render_report(RESULTS_SCHEMA.empty_table(), {}))
    text = " ".join(parsed.text)
    assert "0 results rows, 0 submission × problem pairs" in text
    assert text.count("no results yet") == 2  # gradebook and summary
    for empty in ("no timings", "no timed cases", "no run.json in this run folder"):
        assert empty in text
    assert "svg" not in parsed.tags and "td" not in parsed.tags  # no chart, no table row


def test_report_command(tmp_path: Path) -> None:
    run = _run(tmp_path)
    out = tmp_path / "elsewhere" / "r.html"
    result = CliRunner().invoke(app, ["report", str(run), "--html", str(out), "--families"])
    assert result.exit_code == 0, result.output
    assert "good.cpp" in result.output and "rand" in result.output
    assert out.is_file() and read_summary(run).num_rows == 6
    missing = CliRunner().invoke(app, ["report", str(tmp_path / "nope")])
    assert missing.exit_code == 2
    assert "does not exist" in missing.output


def test_a_full_score_has_its_own_bar_not_the_90s() -> None:
    bins = score_bins([100.0, 95.0, 90.0, 89.9, 0.0, 100.0], 100.0)
    assert [label for label, _, _ in bins] == [str(10 * i) for i in range(11)]
    counts = {label: n for label, _, n in bins}
    assert counts["100"] == 2 and counts["90"] == 2 and counts["80"] == 1 and counts["0"] == 1
    svg = histogram([100.0, 95.0], 100.0)
    assert "1 with score the full 100" in svg and "1 with score 90 to under 100" in svg
