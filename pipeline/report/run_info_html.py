"""run.json as readable tables for report.html: one row per field, corpora and
submissions as their own small tables, no JSON dumps."""

from __future__ import annotations

from html import escape
from typing import Any

from pipeline.ids import natural_sorted

SUBMISSIONS_SHOWN = 500


def _value(value: Any) -> str:
    if value is None:
        return '<span class="muted">—</span>'
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return escape(", ".join(f"{k} {v}" for k, v in sorted(value.items())))
    if isinstance(value, list):
        return escape(", ".join(str(v) for v in value))
    return escape(str(value))


def _limits(limits: dict[str, Any]) -> str:
    units = {"cpu_ms": "ms CPU", "wall_ms": "ms wall", "memory_mb": "MB", "output_kb": "KB out"}
    parts = [f"{limits[k]:g} {u}" for k, u in units.items() if limits.get(k) is not None]
    if limits.get("processes") is not None:
        parts.append(f"{limits['processes']} processes")
    return escape(", ".join(parts))


def _corpora(corpora: list[dict[str, Any]]) -> str:
    rows = []
    for c in corpora:
        subs = c.get("submissions", [])
        failed = [s["label"] for s in subs if not s.get("compiled", True)]
        rows.append(
            f"<tr><td>{escape(str(c.get('path', '')))}</td><td>{escape(str(c.get('problem')))}"
            f"</td><td class='num'>{c.get('count')}</td><td>{_limits(c.get('limits') or {})}</td>"
            f"<td>{_value(c.get('validated_at_grade'))}</td><td class='num'>{len(subs)}</td>"
            f"<td>{escape(', '.join(natural_sorted(failed))) or '—'}</td></tr>"
        )
    return (
        "<table><thead><tr><th>corpus</th><th>problem</th><th>cases</th><th>limits</th>"
        "<th>validated at grade</th><th>submissions</th><th>did not compile</th></tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
    )


def run_info_html(info: dict[str, Any]) -> str:
    if not info:
        return '<p class="muted">no run.json in this run folder</p>'
    rows = []
    for key in sorted(info):
        if key in ("corpora", "submissions"):
            continue
        value = info[key]
        cell = f"<code>{escape(value)}</code>" if key == "command" else _value(value)
        rows.append(f"<tr><th>{escape(key)}</th><td>{cell}</td></tr>")
    parts = [f"<table>{''.join(rows)}</table>"]
    if info.get("corpora"):
        parts += ["<h3>Corpora</h3>", _corpora(info["corpora"])]
    labels = natural_sorted(
        list({s["label"] for c in info.get("corpora", []) for s in c.get("submissions", [])})
    )
    if labels:
        shown = ", ".join(escape(s) for s in labels[:SUBMISSIONS_SHOWN])
        more = (
            f" … and {len(labels) - SUBMISSIONS_SHOWN} more"
            if len(labels) > SUBMISSIONS_SHOWN
            else ""
        )
        parts.append(f"<h3>Submissions ({len(labels)})</h3><p>{shown}{more}</p>")
    return "".join(parts)
