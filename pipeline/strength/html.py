"""The strength section of OUT/report.html: the kill matrix as a picture (case families x
programs, each cell shaded by the share of the family's cases that kill the program),
the minimal corpus against the full one, kills per family and the survivors. It comes
first in the report of the run that graded the population (`grade`'s report: its
gradebook, verdicts and timings per program); past REPORT_MAX_PAIRS pairs the page holds
the section alone, as `grade`'s report reads every row into memory."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.report.html import page, write_page, write_report
from pipeline.strength.matrix import Cases
from pipeline.strength.population import Program

CELL_H, LABEL_W, TOP = 16, 220, 20
WIDTH = 900  # the columns' width, cells between 2 and 40 pixels wide
MAX_PROGRAMS = 600  # columns drawn; more are summed up in the tables only
REPORT_MAX_PAIRS = 10**6
SURVIVOR_FILL = "#eef"


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def family_shares(kills: np.ndarray, cases: Cases) -> tuple[list[str], np.ndarray]:
    """Each family's share of cases that kill each program: families x programs."""
    families = sorted(set(cases.families))
    at = np.array([families.index(f) for f in cases.families], dtype=np.int64)
    shares = np.zeros((len(families), kills.shape[0]))
    for k in range(len(families)):
        mine = kills[:, at == k]
        shares[k] = mine.mean(axis=1) if mine.shape[1] else 0.0
    return families, shares


def _cell(x: int, y: int, w: int, share: float, title: str) -> str:
    shade = int(255 - 200 * share)
    fill = f"rgb(255,{shade},{shade})" if share > 0 else SURVIVOR_FILL
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="{CELL_H}" fill="{fill}">'
        f"<title>{_e(title)}</title></rect>"
    )


def matrix_svg(families: list[str], shares: np.ndarray, programs: list[Program]) -> str:
    """Rows: families; columns: programs (a survivor's column pale blue throughout)."""
    shown = programs[:MAX_PROGRAMS]
    cell = max(2, min(40, WIDTH // max(1, len(shown))))
    width = LABEL_W + max(cell * len(shown), 100)
    height = TOP + CELL_H * len(families)
    parts = [
        f'<svg id="kill-matrix" class="chart" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}">'
    ]
    parts.append(f'<text x="{LABEL_W}" y="14" font-size="12">programs →</text>')
    for r, family in enumerate(families):
        y = TOP + r * CELL_H
        parts.append(f'<text x="0" y="{y + 12}" font-size="12">{_e(family[:32])}</text>')
        for c, program in enumerate(shown):
            share = float(shares[r, c])
            title = f"{program.label} ({program.kind}) on {family}: {share:.0%} of cases kill"
            parts.append(_cell(LABEL_W + c * cell, y, cell, share, title))
    parts.append("</svg>")
    return "".join(parts)


def _rows(rows: list[list[Any]]) -> str:
    return "".join(
        "<tr>" + "".join(f"<td>{_e(v)}</td>" for v in row[:1])
        + "".join(f'<td class="num">{_e(v)}</td>' for v in row[1:]) + "</tr>"
        for row in rows
    )  # fmt: skip


def strength_section(
    figures: dict[str, Any], programs: list[Program], kills: np.ndarray, cases: Cases
) -> str:
    families, shares = family_shares(kills, cases)
    f = figures
    share = f["minimal_cases"] / f["cases"] if f["cases"] else 0.0
    cpu = f["minimal_cpu_ms"] / f["cpu_ms"] if f["cpu_ms"] else 0.0
    summary = [
        ["programs", f["programs"]],
        ["killed", f["killed"]],
        ["survivors", len(f["survivors"])],
        ["mutants made / sampled / did not compile",
         f"{f['mutants_made']} / {f['mutants_sampled']} / {f['mutants_compile_failed']}"],
        ["cases", f["cases"]],
        ["CPU of the population on every case", f"{f['cpu_ms']:.1f} ms"],
        ["minimal corpus", f"{f['minimal_cases']} cases ({share:.1%}), "
         f"{f['minimal_cpu_ms']:.1f} ms ({cpu:.1%} of the CPU)"],
        ["cheapest corpus (by CPU)",
         f"{f['minimal_by_cpu_cases']} cases, {f['minimal_by_cpu_cpu_ms']:.1f} ms"],
    ]  # fmt: skip
    if not f["optimal"]:
        summary.append(["the covers", f"best found, not proven minimal (gap {f['gap']:.1%})"])
    at = np.array(cases.families)
    per_family = [
        [family, int((at == family).sum()), int((row > 0).sum())]
        for family, row in zip(families, shares, strict=True)
    ]
    survivors = "".join(f"<li>{_e(s)}</li>" for s in f["survivors"]) or "<li>none</li>"
    more = len(programs) - MAX_PROGRAMS
    note = f"<p>{more} more programs are in the tables, not drawn.</p>" if more > 0 else ""
    return (
        f'<section id="strength"><h2>Test set strength</h2>'
        f'<table id="strength-figures">{_rows(summary)}</table><h3>Kill matrix</h3>'
        f'<p class="muted">Each cell: the share of the family\'s cases that kill the program '
        f"(pale blue: none).</p>{matrix_svg(families, shares, programs)}{note}"
        f'<h3>Families</h3><table id="strength-families"><tr><th>family</th><th>cases</th>'
        f"<th>programs killed</th></tr>{_rows(per_family)}</table>"
        f'<h3>Survivors</h3><ul id="survivors">{survivors}</ul></section>'
    )


def write_strength_report(out: Path, run_dir: Path, pairs: int, section: str) -> Path:
    """`out`: the report of the run in `run_dir` with the strength section first; past
    REPORT_MAX_PAIRS pairs, a page with the section alone."""
    if pairs <= REPORT_MAX_PAIRS:
        return write_report(run_dir, out, sections=[section])
    left_out = (
        f'<p class="muted">{pairs} pairs: the per-program report of the grading run is left '
        f"out past {REPORT_MAX_PAIRS} (`gridjudge report {_e(run_dir)}` writes it); every "
        "pair is in matrix.parquet.</p>"
    )
    return write_page(
        out, page("gridjudge strength", ["<h1>gridjudge strength</h1>", section, left_out])
    )
