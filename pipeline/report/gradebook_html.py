"""The gradebook part of report.html: a score histogram (inline SVG), the gradebook
table (sorted in the browser by a few lines of inline script), the submissions x groups
matrix and one section per submission. Every value from the run is HTML-escaped."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

import pandas as pd
import pyarrow as pa

from pipeline.scoring.policy import Policy, Threshold
from pipeline.text import TRUNCATED, compiler_message, printable

FAILING_PER_SECTION = 10
OUTPUT_HEAD_CHARS = 200
COMPILE_MESSAGE_CHARS = 2000
HIST_BINS = 10

# Click a header with data-key to sort its table's rows by the cells' data-v (numbers
# for data-key="num", ids in natural order otherwise); a second click reverses.
SORT_SCRIPT = """
document.querySelectorAll('table.sortable th[data-key]').forEach(function (th) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0], k = th.cellIndex;
    var num = th.dataset.key === 'num', dir = th.dataset.dir === 'asc' ? 'desc' : 'asc';
    th.dataset.dir = dir;
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (x, y) {
      var a = x.cells[k].dataset.v, b = y.cells[k].dataset.v;
      var r = num ? parseFloat(a) - parseFloat(b) : a.localeCompare(b, undefined, {numeric: true});
      return dir === 'asc' ? r : -r;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""

CSS = """
table.sortable th[data-key]{cursor:pointer;text-decoration:underline dotted}
td.m{text-align:center;font-variant-numeric:tabular-nums;min-width:4em}
section.sub{border-top:1px solid #eee;margin-top:1em}
"""


def anchor(index: int) -> str:
    """The HTML id of the index-th submission's section (ids may hold any character)."""
    return f"sub-{index}"


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".") if x == x else "—"


def score_bins(scores: list[float], max_score: float) -> list[tuple[str, str, int]]:
    """(axis label, tooltip range, count) per bar: HIST_BINS bins [lo, hi) of 0..max
    score, then one bar of the full score alone (a 100 is not "in the 90s")."""
    counts = [0] * (HIST_BINS + 1)
    for s in scores:
        share = s / max_score if max_score > 0 else 0.0
        counts[HIST_BINS if share >= 1 else max(0, int(share * HIST_BINS))] += 1
    step = max_score / HIST_BINS
    bins = [
        (_fmt(step * i), f"{_fmt(step * i)} to under {_fmt(step * (i + 1))}", counts[i])
        for i in range(HIST_BINS)
    ]
    return [*bins, (_fmt(max_score), f"the full {_fmt(max_score)}", counts[HIST_BINS])]


def histogram(scores: list[float], max_score: float, width: int = 640, height: int = 180) -> str:
    """Bars of submissions per score bin (score_bins)."""
    bins = score_bins(scores, max_score)
    top = max(n for _, _, n in bins) or 1
    bar_w = (width - 40) / len(bins)
    plot_h = height - 50
    parts = []
    for i, (label, span, n) in enumerate(bins):
        h = plot_h * n / top
        x = 30 + i * bar_w
        parts.append(
            f'<rect x="{x:.1f}" y="{20 + plot_h - h:.1f}" width="{bar_w - 2:.1f}" '
            f'height="{h:.1f}" fill="#4a7fb5"><title>{n} with score {span}</title></rect>'
            f'<text x="{x + bar_w / 2:.1f}" y="{height - 14}" text-anchor="middle">'
            f"{label}</text>"
        )
        if n:
            parts.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{16 + plot_h - h:.1f}" '
                f'text-anchor="middle">{n}</text>'
            )
    return (
        f'<svg class="chart" width="{width}" '
        f'height="{height}" font-family="system-ui, sans-serif" font-size="11" '
        f'role="img" aria-label="score histogram">{"".join(parts)}'
        f'<text x="{width - 10}" y="{height - 2}" text-anchor="end">score</text></svg>'
    )


def _aggregate(policy: Policy, name: str) -> str:
    agg = next(g.aggregate for g in policy.groups if g.name == name)
    return agg if isinstance(agg, str) else f"threshold {agg.threshold}"


def _marks(r: Mapping[str, Any]) -> str:
    """The TLE marks cell: wall-clock TLEs / cases not run ("" when neither)."""
    wall, skipped = int(r.get("n_TLE_wall") or 0), int(r.get("n_not_run") or 0)
    text = f"{wall} / {skipped}" if wall or skipped else ""
    return f'<td class="num" data-v="{wall + skipped}">{text}</td>'


def gradebook_table(rows: list[dict[str, Any]], policy: Policy) -> str:
    groups = [g.name for g in policy.groups]
    head = (
        '<th data-key="id">submission</th><th data-key="num">score</th>'
        + "".join(f'<th data-key="num">{escape(g)}</th>' for g in groups)
        + '<th data-key="num">AC</th><th data-key="id">compile</th>'
        + '<th data-key="num" title="TLEs killed by the wall clock under the CPU limit '
        + '(again when run alone) / cases not run after --max-tle TLEs">'
        + "TLE wall / not run</th>"
        + '<th data-key="num">CPU s</th>'
    )
    body = []
    for i, r in enumerate(rows):
        sub = escape(printable(str(r["submission"])))
        cells = [
            f'<td data-v="{sub}"><a href="#{anchor(i)}">{sub}</a></td>',
            f'<td class="num" data-v="{r["score"]:.6f}">{_fmt(r["score"])}</td>',
        ]
        for g in groups:
            p = r[f"points_{g}"]
            cells.append(f'<td class="num" data-v="{p:.6f}">{_fmt(p)}</td>')
        cpu = r["cpu_ms_total"] / 1000
        cells += [
            f'<td class="num" data-v="{r["n_AC"]}">{r["n_AC"]}</td>',
            f'<td data-v="{escape(r["compile"])}">{escape(r["compile"])}</td>',
            _marks(r),
            f'<td class="num" data-v="{cpu:.6f}">{cpu:.2f}</td>',
        ]
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (
        f'<table class="sortable" id="gradebook"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _colour(share: float) -> str:
    """Red (0) through yellow to green (1), light enough for dark text."""
    return f"hsl({120 * share:.0f},70%,{78 - 6 * share:.0f}%)"


def matrix(rows: list[dict[str, Any]], policy: Policy) -> str:
    groups = policy.groups
    head = "<th>submission</th>" + "".join(
        f"<th>{escape(g.name)}<br><span class='muted'>{_fmt(g.points)} pts, "
        f"{escape(_aggregate(policy, g.name))}</span></th>"
        for g in groups
    )
    body = []
    for i, r in enumerate(rows):
        cells = [f'<td><a href="#{anchor(i)}">{escape(printable(str(r["submission"])))}</a></td>']
        for g in groups:
            passed, cases = r[f"passed_{g.name}"], r[f"cases_{g.name}"]
            if not cases:
                cells.append('<td class="m muted">—</td>')
                continue
            cells.append(
                f'<td class="m" style="background:{_colour(passed / cases)}">{passed}/{cases}</td>'
            )
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (
        f"<table id='matrix'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _text(value: Any) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return '<span class="muted">—</span>'
    return escape(str(value))


def _head(value: Any, limit: int = OUTPUT_HEAD_CHARS) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return _text(None)
    s = str(value)
    more = "…" if len(s) > limit else ""
    return f"<pre>{escape(s[:limit])}{more}</pre>"


def _shown(case: Any) -> str:
    """An interactive case's transcript (folded), else the output's head."""
    transcript = getattr(case, "transcript", None)
    if transcript is None or (isinstance(transcript, float) and pd.isna(transcript)):
        return _head(case.output_head)
    return (
        "<details><summary>transcript (&gt; submission, &lt; judge)</summary>"
        f"<pre>{escape(str(transcript))}</pre></details>"
    )


def _exit(code: Any, signal: Any) -> str | None:
    parts = [
        f"exit {int(code)}" if pd.notna(code) else "",
        f"signal {int(signal)}" if pd.notna(signal) else "",
    ]
    return " ".join(p for p in parts if p) or None


def section(index: int, r: Mapping[str, Any], failing: pd.DataFrame, policy: Policy) -> str:
    sub = escape(printable(str(r["submission"])))
    groups = "".join(
        f"<tr><td>{escape(g.name)}</td><td class='num'>{r[f'passed_{g.name}']}"
        f"/{r[f'cases_{g.name}']}</td><td class='num'>{_fmt(r[f'points_{g.name}'])}"
        f" / {_fmt(g.points)}</td><td>{_text(r[f'first_failing_{g.name}'])}</td></tr>"
        for g in policy.groups
    )
    parts = [
        f'<section class="sub" id="{anchor(index)}"><h3>{sub}: {_fmt(r["score"])} / '
        f"{_fmt(r['max_score'])}</h3>",
        "<table><thead><tr><th>group</th><th>passed</th><th>points</th>"
        f"<th>first failing case</th></tr></thead><tbody>{groups}</tbody></table>",
    ]
    if r["compile"] == "CE" and len(failing):  # one message, not one per case
        message = failing["checker_msg"].dropna()
        parts.append(
            "<p>did not compile (CE on every case):</p>"
            + _head(
                compiler_message(str(message.iat[0]), COMPILE_MESSAGE_CHARS)
                if len(message)
                else None,
                COMPILE_MESSAGE_CHARS + len(TRUNCATED),
            )
        )
    elif len(failing):
        shown = failing.head(FAILING_PER_SECTION)
        note = f" (first {len(shown)} of {len(failing)})" if len(failing) > len(shown) else ""
        rows = "".join(
            f"<tr><td>{escape(printable(str(c.case_id)))}</td><td>{escape(str(c.group))}</td>"
            f'<td><span class="v v-{escape(str(c.verdict))}">{escape(str(c.verdict))}</span></td>'
            f"<td>{_text(_exit(c.exit_code, c.signal))}</td>"
            f"<td>{_text(c.checker_msg)}</td><td>{_shown(c)}</td></tr>"
            for c in shown.itertuples()
        )
        parts.append(
            f"<p>{len(failing)} failing cases{note}</p><table><thead><tr><th>case</th>"
            "<th>group</th><th>verdict</th><th>exit</th><th>checker message</th>"
            "<th>output head or transcript</th>"
            f"</tr></thead><tbody>{rows}</tbody></table>"
        )
    else:
        parts.append("<p>every case passed.</p>")
    parts.append('<p><a href="#gradebook">back to the gradebook</a></p></section>')
    return "".join(parts)


def gradebook_html(book: pa.Table, failing: pd.DataFrame, policy: Policy) -> str:
    """Histogram, gradebook, matrix and the per-submission sections. `failing` holds the
    failing rows (case_id, verdict, checker_msg, output_head, group), in case order."""
    rows = book.to_pylist()
    if not rows:
        return '<p class="muted">no results yet</p>'
    by_sub = dict(iter(failing.groupby("submission", sort=False))) if len(failing) else {}
    empty = failing.iloc[0:0]
    thresholds = [g for g in policy.groups if isinstance(g.aggregate, Threshold)]
    note = f", {len(thresholds)} with a threshold" if thresholds else ""
    return "".join(
        [
            f"<p>{len(rows)} submissions, scored out of {_fmt(policy.max_score)} in "
            f"{len(policy.groups)} groups{note}. Click a column header to sort.</p>",
            histogram([r["score"] for r in rows], policy.max_score),
            gradebook_table(rows, policy),
            "<h2>Submissions × groups</h2>",
            '<p class="muted">cases passed / cases; colour from red (none) to green (all).</p>',
            matrix(rows, policy),
            "<h2>Submissions</h2>",
            *(
                section(i, r, by_sub.get(r["submission"], empty), policy)
                for i, r in enumerate(rows)
            ),
        ]
    )
