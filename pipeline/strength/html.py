"""OUT/strength.html: the kill matrix as a picture (case families x programs, each cell
shaded by the share of the family's cases that kill the program), the survivors, and the
minimal corpus against the full one. Self-contained, like the run report."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.private import write_private
from pipeline.strength.matrix import Cases
from pipeline.strength.population import Program

CELL_H, LABEL_W, TOP = 16, 220, 20
WIDTH = 900  # the columns' width, cells between 2 and 40 pixels wide
MAX_PROGRAMS = 600  # columns drawn; more are summed up in the tables only
_CSS = (
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;"
    "text-align:right}td:first-child,th:first-child{text-align:left}"
)


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


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
    fill = f"rgb(255,{shade},{shade})" if share > 0 else "#eef"
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
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">']
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
    return "".join("<tr>" + "".join(f"<td>{_e(v)}</td>" for v in row) + "</tr>" for row in rows)


def render(
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
        ["minimal corpus", f"{f['minimal_cases']} cases ({share:.1%}), {cpu:.1%} of the CPU"],
        ["cheapest corpus (by CPU)",
         f"{f['minimal_by_cpu_cases']} cases, {f['minimal_by_cpu_cpu_ms']:.1f} ms"],
    ]  # fmt: skip
    per_family = [
        [family, int((np.array(cases.families) == family).sum()), int((row > 0).sum())]
        for family, row in zip(families, shares, strict=True)
    ]
    survivors = "".join(f"<li>{_e(s)}</li>" for s in f["survivors"]) or "<li>none</li>"
    more = len(programs) - MAX_PROGRAMS
    note = f"<p>{more} more programs are in the tables, not drawn.</p>" if more > 0 else ""
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>strength</title>"
        f"<style>{_CSS}</style></head><body><h1>Test set strength: {_e(f['target'])}</h1>"
        f"<table>{_rows(summary)}</table><h2>Kill matrix</h2>"
        f"<p>Each cell: the share of the family's cases that kill the program "
        f"(pale blue: none).</p>{matrix_svg(families, shares, programs)}{note}"
        f"<h2>Families</h2><table><tr><th>family</th><th>cases</th>"
        f"<th>programs killed</th></tr>{_rows(per_family)}</table>"
        f"<h2>Survivors</h2><ul>{survivors}</ul></body></html>\n"
    )


def write_html(
    out: Path, figures: dict[str, Any], programs: list[Program], kills: np.ndarray, cases: Cases
) -> Path:
    return write_private(out, render(figures, programs, kills, cases))
