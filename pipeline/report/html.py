"""The self-contained HTML report of a run folder (RUN_DIR/report.html).

One file: inline CSS, inline SVG charts (pipeline.report.svg), one inline script (sorting
the gradebook), no fonts, no links to anything outside the file. Every value that comes
from a run (submission labels, case ids, checker messages, program output) is escaped,
its control characters too (text.printable).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from html import escape
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.ids import natural_ranks
from pipeline.private import private_dir, replace_private, write_private
from pipeline.report import gradebook_html
from pipeline.report.palette import VERDICT_COLOURS
from pipeline.report.run_info_html import run_info_html
from pipeline.report.svg import timing_boxes, verdict_bars
from pipeline.results.store import RUN_JSON, load_results, read_run_json
from pipeline.results.summary import last_attempts, summarize
from pipeline.schemas import PROGRAM_VERDICTS, VERDICTS
from pipeline.scoring.gradebook import by_problem, default_policy_for, gradebook
from pipeline.scoring.policy import Policy
from pipeline.scoring.run_folder import run_policy
from pipeline.text import printable

REPORT_FILE = "report.html"
SLOWEST = 20

_COLUMNS = [
    "submission",
    "problem",
    "case_id",
    "family",
    "verdict",
    "cpu_ms",
    "wall_ms",
    "peak_rss_kb",
    "exit_code",
    "signal",
    "output_head",
    "checker_msg",
    "batch_size",
    "transcript",
]
_TEXT_COLUMNS = ("output_head", "checker_msg", "transcript")

_CSS = (
    """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}
th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f3f5f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
pre{margin:0;max-width:420px;max-height:9em;overflow:auto;white-space:pre-wrap;
font-size:.85em;background:#f8f8f8}
.muted{color:#777}.v{font-weight:600}
.chart{display:block;margin:.5em 0 1em 0}
details summary{cursor:pointer;margin:.5em 0}
"""
    + gradebook_html.CSS
    + "".join(f".v-{v}{{color:{c}}}" for v, c in VERDICT_COLOURS.items())
)


def _e(value: Any) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return '<span class="muted">—</span>'
    return escape(printable(str(value)))  # a name: one line, whatever it holds


def _num(value: Any, digits: int = 3) -> str:
    if value is None or pd.isna(value):
        return '<td class="num muted">—</td>'
    if isinstance(value, float):
        return f'<td class="num">{value:.{digits}f}</td>'
    return f'<td class="num">{escape(str(value))}</td>'


def _verdict(v: str) -> str:
    return f'<span class="v v-{escape(v)}">{escape(v)}</span>'


def _table(headers: Sequence[str], rows: Iterable[str]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _summary_rows(summary: list[dict[str, Any]], families: bool) -> tuple[list[str], list[str]]:
    shown = [v for v in VERDICTS if v == "AC" or any(r[f"n_{v}"] for r in summary)]
    headers = ["submission", "problem"] + (["family"] if families else []) + ["cases"]
    headers += [*shown, "pass", "cpu p50 ms", "cpu p95 ms", "cpu max ms", "first failing case"]
    rows = []
    for r in summary:
        cells = [f"<td>{_e(r['submission'])}</td>", f"<td>{_e(r['problem'])}</td>"]
        if families:
            cells.append(f"<td>{_e(r['family'] if r['family'] is not None else '(all)')}</td>")
        cells.append(_num(r["cases"]))
        cells += [_num(r[f"n_{v}"]) for v in shown]
        rate = r["pass_rate"]
        cells.append(_num(None) if rate is None else f'<td class="num">{100 * rate:.1f}%</td>')
        cells += [_num(r["cpu_ms_p50"]), _num(r["cpu_ms_p95"]), _num(r["cpu_ms_max"])]
        cells.append(f"<td>{_e(r['first_failing_case'])}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return headers, rows


def _case_cells(r: Mapping[Any, Any]) -> list[str]:
    return [
        f"<td>{_e(r['submission'])}</td>",
        f"<td>{_e(r['case_id'])}</td>",
        f"<td>{_verdict(r['verdict'])}</td>",
    ]


def _slowest(df: pd.DataFrame) -> str:
    timed = df[df["verdict"].isin(PROGRAM_VERDICTS) & df["cpu_ms"].notna()]
    if timed.empty:
        return '<p class="muted">no timed cases</p>'
    top = timed.nlargest(SLOWEST, "cpu_ms").to_dict("records")
    rows = [
        "<tr>"
        + "".join(_case_cells(r))
        + _num(r["cpu_ms"])
        + _num(r["wall_ms"])
        + _num(r["peak_rss_kb"])
        + _num(r["batch_size"])
        + "</tr>"
        for r in top
    ]
    headers = ["submission", "case", "verdict", "cpu ms", "wall ms", "peak RSS KB", "batch"]
    return _table(headers, rows)


def _short(label: str) -> str:
    """A submission path by its file name (charts have little room; tables show it all)."""
    return label.rsplit("/", 1)[-1] if "/" in label and not label.startswith("cmd:") else label


def _timing_charts(df: pd.DataFrame) -> str:
    timed = df[df["verdict"].isin(PROGRAM_VERDICTS) & df["cpu_ms"].notna()]
    if timed.empty:
        return '<p class="muted">no timings</p>'
    parts = []
    for prob, group in timed.groupby("problem", sort=True):
        boxes = [
            (f"{_short(str(sub))} · {fam}", g["cpu_ms"].tolist())
            for (sub, fam), g in group.groupby(["submission", "family"], sort=True)
        ]
        parts.append(f"<h3>{escape(printable(str(prob)))}</h3>{timing_boxes(boxes)}")
    legend = (
        '<p class="muted">whiskers min..max, box p25..p75, bar median, red dot p95; log scale.</p>'
    )
    return legend + "".join(parts)


def _gradebooks(results: pa.Table, policy: Policy | None) -> str:
    """The gradebook; in a run over several problems one per problem, each over its
    problem's groups only."""
    if policy is None:
        return '<p class="muted">no results yet</p>'
    parts = by_problem(results, policy)
    return "".join(
        ("" if problem is None else f"<h3>{escape(printable(problem))}</h3>")
        + gradebook_html.gradebook_html(gradebook(rows, mine), _failing_rows(rows, mine), mine)
        for problem, rows, mine in parts
    )


def _failing_rows(results: pa.Table, policy: Policy) -> pd.DataFrame:
    """The failing rows with their group, in natural case order (for the sections)."""
    mask = pc.invert(pc.is_in(results["verdict"], pa.array(["AC", "IE"])))
    cols = ["submission", "case_id", "family", "verdict", "exit_code", "signal"]
    cols += ["checker_msg", "output_head"]
    cols += ["transcript"] if "transcript" in results.column_names else []
    failing = results.filter(mask).select(cols).to_pandas()
    if len(failing):
        failing["group"] = failing["family"].map(policy.assign(failing["family"].unique()))
        rank = failing["case_id"].map(natural_ranks(failing["case_id"]))
        failing = failing.assign(_rank=rank).sort_values("_rank", kind="stable")
    return failing


def render_report(
    results: pa.Table,
    run_info: dict[str, Any] | None = None,
    summary: pa.Table | None = None,
    policy: Policy | None = None,
    sections: Sequence[str] = (),
) -> str:
    """The whole HTML page for a run's results (RESULTS_SCHEMA, last attempts) and
    run.json data: `sections` (HTML a command adds about its run, e.g. `strength`'s)
    first, then the gradebook under `policy` (default: one group per family)."""
    info = run_info or {}
    summary = summary if summary is not None else summarize(results)
    srows = summary.to_pylist()
    overall = [r for r in srows if r["family"] is None]
    df = results.select([c for c in _COLUMNS if c not in _TEXT_COLUMNS]).to_pandas()
    if policy is None and results.num_rows:
        policy = default_policy_for(results)
    title = f"gridjudge report — {info.get('run_id', 'run')}"
    bars = verdict_bars(
        [
            (f"{r['submission']} · {r['problem']}", {v: r[f"n_{v}"] for v in VERDICTS})
            for r in overall
        ]
    )
    h_all, r_all = _summary_rows(overall, families=False)
    h_fam, r_fam = _summary_rows(srows, families=True)
    generated = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    grades = _gradebooks(results, policy)
    status = info.get("status")
    body = [
        f"<h1>{escape(title)}</h1>",
        ""
        if status in (None, "done")
        else f"<p><strong>unfinished run ({escape(str(status))}): the figures cover the "
        "pairs graded so far</strong></p>",
        f'<p class="muted">{len(df)} results rows, {len(overall)} submission × problem '
        f"pairs; generated {generated}.</p>",
        *sections,
        "<h2>Gradebook</h2>",
        grades,
        "<h2>Summary</h2>",
        _table(h_all, r_all) if overall else '<p class="muted">no results yet</p>',
        "<h2>Verdicts per submission</h2>",
        bars if overall else "",
        "<h2>CPU time per family</h2>",
        _timing_charts(df),
        "<details><summary>Summary per family</summary>",
        _table(h_fam, r_fam),
        "</details>",
        f"<h2>Slowest {SLOWEST} cases</h2>",
        _slowest(df),
        "<h2>Run</h2>",
        run_info_html(info),
    ]
    return page(title, body, script=gradebook_html.SORT_SCRIPT)


def page(title: str, body: Sequence[str], css: str = "", script: str = "") -> str:
    """A self-contained page: the report's style (and `css`), `body`, `script`."""
    # the one pass every character of the page goes through: a control character of a
    # name (a submission, a case, a family) or a message is written as its escape
    return printable(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_CSS}{css}</style></head>"
        f"<body>{''.join(body)}<script>{script}</script></body></html>\n",
        lines=True,
    )


def write_report(
    run_dir: Path,
    out: Path | None = None,
    summary: pa.Table | None = None,
    policy: Policy | None = None,
    sections: Sequence[str] = (),
) -> Path:
    """Render RUN_DIR's report into `out` (default RUN_DIR/report.html), atomically;
    scored under `policy`, else the run's kept policy (see scoring.run_folder.run_policy);
    `sections` first (see render_report)."""
    run_dir = Path(run_dir)
    needed = list(dict.fromkeys(["run_id", "family", "attempt", *_COLUMNS]))
    results = last_attempts(load_results(run_dir, columns=needed, skip_unreadable=True))
    info = read_run_json(run_dir) if (run_dir / RUN_JSON).is_file() else {}
    if results.num_rows:
        policy = run_policy(run_dir, results, policy)
    target = Path(out) if out is not None else run_dir / REPORT_FILE
    return write_page(target, render_report(results, info, summary, policy, sections))


def write_page(target: Path, html: str) -> Path:
    """Write a page atomically (a temp name, then renamed)."""
    private_dir(target.parent)
    tmp = target.with_name(f".{target.name}.tmp")
    write_private(tmp, html)
    replace_private(tmp, target)
    return target
