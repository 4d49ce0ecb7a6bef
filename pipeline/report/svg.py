"""Small inline-SVG charts for the HTML report: no libraries, no network, every text
escaped. Each function returns one `<svg>` element as a string."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

import numpy as np

from pipeline.report.palette import VERDICT_COLOURS
from pipeline.schemas import VERDICTS

_FONT = 'font-family="system-ui, sans-serif" font-size="12"'
LABEL_W = 290
ROW_H = 22


def _label(text: str, limit: int = 40) -> str:
    """Shortened in the middle, so both the start and the end (the family) stay."""
    if len(text) > limit:
        head = (limit - 1) // 2
        text = text[:head] + "…" + text[len(text) - (limit - 1 - head) :]
    return escape(text)


def _legend(verdicts: Sequence[str], y: int) -> str:
    parts, x = [], LABEL_W
    for v in verdicts:
        parts.append(
            f'<rect x="{x}" y="{y}" width="12" height="12" fill="{VERDICT_COLOURS[v]}"/>'
            f'<text x="{x + 16}" y="{y + 10}">{escape(v)}</text>'
        )
        x += 16 + 8 * len(v) + 14
    return "".join(parts)


def verdict_bars(rows: Sequence[tuple[str, Mapping[str, int]]], width: int = 900) -> str:
    """One stacked horizontal bar per (label, counts by verdict): share of each verdict,
    with the count written on segments wide enough to hold it."""
    present = [v for v in VERDICTS if any(c.get(v, 0) for _, c in rows)]
    bar_w = width - LABEL_W - 10
    height = 30 + ROW_H * len(rows)
    out = [
        f'<svg class="chart" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {_FONT}>',
        "<title>verdicts per submission</title>",
        _legend(present, 4),
    ]
    for k, (label, counts) in enumerate(rows):
        y = 26 + ROW_H * k
        total = sum(counts.get(v, 0) for v in VERDICTS)
        out.append(f'<text x="0" y="{y + 13}">{_label(label)}</text>')
        x = float(LABEL_W)
        for v in present:
            n = counts.get(v, 0)
            if not n or not total:
                continue
            w = bar_w * n / total
            out.append(
                f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{ROW_H - 6}" '
                f'fill="{VERDICT_COLOURS[v]}"><title>{escape(v)}: {n} of {total}</title></rect>'
            )
            if w >= 8 * len(str(n)) + 6:
                out.append(
                    f'<text x="{x + w / 2:.1f}" y="{y + 12}" text-anchor="middle" '
                    f'fill="#fff">{n}</text>'
                )
            x += w
    out.append("</svg>")
    return "".join(out)


def _log_ticks(lo: float, hi: float) -> list[float]:
    return [10.0**e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]


def _tick_text(v: float) -> str:
    if v >= 1000:
        return f"{v / 1000:g} s"
    return f"{v:g} ms"


def timing_boxes(groups: Sequence[tuple[str, Sequence[float]]], width: int = 900) -> str:
    """A box per (label, cpu times in ms) on a log scale: whiskers min..max, box
    p25..p75, a line at the median and a dot at p95."""
    groups = [(label, [max(t, 1e-3) for t in times]) for label, times in groups if len(times)]
    if not groups:
        return '<p class="muted">no timings</p>'
    lo = min(min(t) for _, t in groups)
    hi = max(max(t) for _, t in groups)
    ticks = _log_ticks(lo, hi if hi > lo else lo * 10)
    a, b = math.log10(ticks[0]), math.log10(ticks[-1])
    plot_w = width - LABEL_W - 20

    def xpos(v: float) -> float:
        return LABEL_W + plot_w * (math.log10(v) - a) / (b - a)

    height = 30 + ROW_H * len(groups)
    out = [
        f'<svg class="chart" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {_FONT}>',
        "<title>cpu time per family (log scale)</title>",
    ]
    axis_y = height - 14
    for t in ticks:
        x = xpos(t)
        out.append(
            f'<line x1="{x:.1f}" y1="4" x2="{x:.1f}" y2="{axis_y}" stroke="#ddd"/>'
            f'<text x="{x:.1f}" y="{height - 2}" text-anchor="middle">{_tick_text(t)}</text>'
        )
    for k, (label, times) in enumerate(groups):
        y = 6 + ROW_H * k
        mid = y + (ROW_H - 6) / 2
        q = np.percentile(np.asarray(times, dtype=float), [0, 25, 50, 75, 95, 100])
        x0, x25, x50, x75, x95, x100 = (xpos(float(v)) for v in q)
        tip = (
            f"{escape(label)}: n={len(times)}, median {q[2]:.3f} ms, "
            f"p95 {q[4]:.3f} ms, max {q[5]:.3f} ms"
        )
        out.append(
            f'<g><title>{tip}</title><text x="0" y="{mid + 4:.1f}">{_label(label)}</text>'
            f'<line x1="{x0:.1f}" y1="{mid:.1f}" x2="{x100:.1f}" y2="{mid:.1f}" stroke="#555"/>'
            f'<rect x="{x25:.1f}" y="{y + 2}" width="{max(x75 - x25, 1.5):.1f}" '
            f'height="{ROW_H - 10}" fill="#9cc3e6" stroke="#2f6fa6"/>'
            f'<line x1="{x50:.1f}" y1="{y + 1}" x2="{x50:.1f}" y2="{y + ROW_H - 7}" '
            f'stroke="#123" stroke-width="2"/>'
            f'<circle cx="{x95:.1f}" cy="{mid:.1f}" r="3" fill="#d43c3c"/></g>'
        )
    out.append("</svg>")
    return "".join(out)
