"""What `compare` shows and writes: the terminal tables (rich), compare.parquet (one row per
case), compare_summary.parquet, compare.json (the verdict) and JUnit XML."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from collections.abc import Hashable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pipeline.compare.cases import CASE_COLUMNS
from pipeline.compare.families import SUMMARY_COLUMNS
from pipeline.compare.options import (
    COMPARE_FILE,
    COMPARE_JSON,
    COMPARE_SUMMARY_FILE,
    MAX_ROWS,
)
from pipeline.compare.pair import Comparison, RunVerdict
from pipeline.errors import GridjudgeError
from pipeline.private import private_dir, private_writer, write_private
from pipeline.results.store import write_table
from pipeline.schemas import COMPARE_SCHEMA, COMPARE_SUMMARY_SCHEMA
from pipeline.text import printable

_VERDICT_STYLE = {
    "regression": "bold red",
    "too noisy to conclude": "bold yellow",
    "improvement": "bold green",
    "no change": "bold",
}


def cases_table(comparison: Comparison) -> pa.Table:
    return pa.Table.from_pandas(
        comparison.cases[list(CASE_COLUMNS)], schema=COMPARE_SCHEMA, preserve_index=False
    )


def summary_table(comparison: Comparison) -> pa.Table:
    frame = comparison.summary[list(SUMMARY_COLUMNS)].copy()
    frame["family"] = frame["family"].astype(object).where(frame["family"].notna(), None)
    return pa.Table.from_pandas(frame, schema=COMPARE_SUMMARY_SCHEMA, preserve_index=False)


def verdict_dict(verdict: RunVerdict) -> dict[str, Any]:
    data = asdict(verdict)
    data["reasons"] = list(verdict.reasons)
    data["significant_slowdown"] = verdict.significant_slowdown
    return data


def write_comparison(out_dir: Path, comparison: Comparison) -> list[Path]:
    """The OUTPUT_FILES into `out_dir`."""
    out_dir = Path(out_dir)
    written = [
        write_table(out_dir / COMPARE_FILE, cases_table(comparison)),
        write_table(out_dir / COMPARE_SUMMARY_FILE, summary_table(comparison)),
    ]
    info = {"verdict": verdict_dict(comparison.verdict), "options": asdict(comparison.options)}
    path = out_dir / COMPARE_JSON
    try:
        write_private(path, json.dumps(info, indent=2, sort_keys=True) + "\n")
    except OSError as exc:
        raise GridjudgeError(f"{path}: cannot write ({' '.join(str(exc).split())})") from None
    return [*written, path]


def write_outputs(comparison: Comparison, out_dir: Path | None, junit: Path | None) -> list[Path]:
    """The OUTPUT_FILES into `out_dir` and the JUnit XML into `junit`, each when given."""
    written = [] if out_dir is None else write_comparison(out_dir, comparison)
    return written if junit is None else [*written, write_junit(junit, comparison)]


# --- terminal -------------------------------------------------------------------------


def _num(value: Any, fmt: str = "{:.3f}") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return fmt.format(value)


def _family(value: Any) -> str:
    return value if isinstance(value, str) else "(all)"


def _cell(value: Any) -> str:
    """A name (submission, problem, family, case) as a cell: data, not rich markup, and
    no control character of it (text.printable)."""
    return escape(printable(str(value)))


def _summary_rich(summary: pd.DataFrame) -> Table:
    pairs = summary[["submission_a", "submission_b"]].drop_duplicates()
    one_pair = len(pairs) == 1
    title = "per family"
    if one_pair:
        title += f": B = {_cell(pairs.iloc[0]['submission_b'])} vs A = "
        title += _cell(pairs.iloc[0]["submission_a"])
    t = Table(title=title, title_justify="left")
    if not one_pair:
        t.add_column("B vs A")
    for name in ("family", "cases", "flips", "out Δ", "ratio B/A [CI]", "q", "timing"):
        t.add_column(name)
    for name in ("noise", "near limit", "JE"):
        t.add_column(name, justify="right")
    for _, r in summary.iterrows():
        ci = f"{_num(r['median_ratio'])} [{_num(r['ci_low'])}, {_num(r['ci_high'])}]"
        change = r["timing_change"] or "-"
        style = {"slower": "red", "faster": "green"}.get(change, "")
        t.add_row(
            *([] if one_pair else [_cell(f"{r['submission_b']} vs {r['submission_a']}")]),
            _cell(f"{r['problem']}/{_family(r['family'])}"),
            str(r["cases"]),
            r["flips"] or "-",
            str(r["output_changed"]),
            ci if r["timed"] else "-",
            _num(r["q_value"], "{:.2g}"),
            f"[{style}]{change}[/]" if style else change,
            ("x" + _num(r["detectable_ratio"], "{:.3f}")) + (" noisy" if r["too_noisy"] else ""),
            str(r["close_to_limit"]),
            str(r["judge_errors"]),
        )
    return t


def _cases_rich(title: str, rows: pd.DataFrame, max_rows: int, rows_file: Path | None) -> Table:
    t = Table(title=f"{title} ({len(rows)})", title_justify="left")
    for name in ("case", "family", "A", "B", "time A ms", "time B ms", "ratio", "q"):
        t.add_column(name)
    for _, r in rows.head(max_rows).iterrows():
        t.add_row(
            _cell(r["case_id"]),
            _cell(r["family"]),
            str(r["verdict_a"] or "-"),
            str(r["verdict_b"] or "-"),
            _num(r["time_a_ms"], "{:.2f}"),
            _num(r["time_b_ms"], "{:.2f}"),
            _num(r["time_ratio"]),
            _num(r["q_value"], "{:.2g}"),
        )
    if len(rows) > max_rows:
        where = f"every row is in {rows_file}" if rows_file else "--out writes every row"
        t.caption = f"... {len(rows) - max_rows} more ({where})"
    return t


def render(
    comparison: Comparison,
    console: Console,
    max_rows: int = MAX_ROWS,
    out_dir: Path | None = None,
) -> None:
    """Summary table, the flipped / changed / slower / faster cases, then the verdict.
    `out_dir`: where the rows are written, named when a list is cut (None: not written)."""
    rows_file = None if out_dir is None else Path(out_dir) / COMPARE_FILE
    cases = comparison.cases
    console.print(_summary_rich(comparison.summary))
    sections = (
        ("verdict flips", cases["flip"].notna()),
        ("output changed (AC on both sides)", cases["output_changed"]),
        ("significantly slower", cases["timing_change"] == "slower"),
        ("significantly faster", cases["timing_change"] == "faster"),
        ("close to the time limit", cases["close_to_limit"]),
    )
    for title, mask in sections:
        if mask.any():
            console.print(_cases_rich(title, cases[mask], max_rows, rows_file))
    v = comparison.verdict
    opts = comparison.options
    console.print(
        f"[{_VERDICT_STYLE[v.verdict]}]verdict: {v.verdict}[/]  "
        f"(factor {opts.factor}, alpha {opts.alpha}, {opts.metric} time)"
    )
    for reason in v.reasons:
        console.print(f"  - {printable(reason)}", markup=False)


# --- JUnit XML ------------------------------------------------------------------------


def _case_element(r: Mapping[Hashable, Any], factor: float) -> ET.Element:
    tc = ET.Element(
        "testcase",
        classname=printable(f"{r['problem']}.{r['family']}"),
        name=printable(str(r["case_id"])),
    )
    if isinstance(r["time_b_ms"], float) and not math.isnan(r["time_b_ms"]):
        tc.set("time", f"{r['time_b_ms'] / 1000.0:.6f}")
    if r["status"] == "judge_error":
        ET.SubElement(tc, "skipped", message="judge error (JE): excluded from the comparison")
    elif r["status"] in ("only_a", "only_b"):
        ET.SubElement(tc, "skipped", message=f"case present in {r['status'][-1].upper()} only")
    elif r["flip_kind"] == "regression":
        f = ET.SubElement(tc, "failure", type="verdict-flip", message=str(r["flip"]))
        f.text = f"verdict {r['verdict_a']} in A became {r['verdict_b']} in B"
    elif r["timing_change"] in ("slower", "faster"):
        # A case's own timing flag is reported, not failed: the gate decides per family.
        out = ET.SubElement(tc, "system-out")
        out.text = (
            f"{r['timing_change']}: {r['time_ratio']:.3f}x (q={r['q_value']:.2g}), "
            f"median {r['time_a_ms']:.3f} ms -> {r['time_b_ms']:.3f} ms"
        )
    return tc


def _family_element(r: Mapping[Hashable, Any], factor: float) -> ET.Element:
    tc = ET.Element(
        "testcase",
        classname=printable(f"{r['problem']}.{_family(r['family'])}"),
        name="timing (median ratio)",
    )
    if r["timing_change"] == "slower":
        message = (
            f"median ratio {r['median_ratio']:.3f} (CI {r['ci_low']:.3f}-{r['ci_high']:.3f}, "
            f"q={r['q_value']:.2g}, factor {factor})"
        )
        ET.SubElement(tc, "failure", type="slowdown", message=message)
    elif r["timed"] == 0:
        ET.SubElement(tc, "skipped", message="no case AC on both sides with timings")
    return tc


def junit_xml(comparison: Comparison) -> ET.ElementTree:
    """One testsuite per submission pair x problem x family: a testcase per case (failure:
    a flip away from AC; skipped: JE or one-sided; its own timing flag as system-out) and
    one for the family's median time ratio (failure: a significant slowdown); and a suite
    with that one testcase for all families together. Failures are exactly what
    `--fail-on regression` fails on."""
    factor = comparison.options.factor
    root = ET.Element("testsuites", name="gridjudge compare")
    keys = ("submission_a", "submission_b", "problem", "family")
    by_family: dict[tuple[Any, ...], list[ET.Element]] = {}
    for r in comparison.cases.to_dict("records"):
        by_family.setdefault(tuple(r[k] for k in keys), []).append(_case_element(r, factor))
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for fam in comparison.summary.to_dict("records"):
        pair = f"{fam['submission_b']} vs {fam['submission_a']}"
        where = _family(fam["family"])
        name = printable(f"{pair}: {fam['problem']}/{where}")
        suite = ET.SubElement(root, "testsuite", name=name)
        # the all-families row has no cases of its own (null family matches none)
        elements = [*by_family.get(tuple(fam[k] for k in keys), []), _family_element(fam, factor)]
        counts = {
            "tests": len(elements),
            "failures": sum(e.find("failure") is not None for e in elements),
            "skipped": sum(e.find("skipped") is not None for e in elements),
        }
        for name, n in counts.items():
            suite.set(name, str(n))
            totals[name] += n
        suite.set("errors", "0")
        suite.extend(elements)
    for name, n in totals.items():
        root.set(name, str(n))
    root.set("errors", "0")
    return ET.ElementTree(root)


def write_junit(path: Path, comparison: Comparison) -> Path:
    tree = junit_xml(comparison)
    ET.indent(tree)
    try:
        private_dir(Path(path).parent)
        with private_writer(path) as sink:
            tree.write(sink, encoding="utf-8", xml_declaration=True)
    except OSError as exc:
        raise GridjudgeError(f"{path}: cannot write ({' '.join(str(exc).split())})") from None
    return Path(path)
