"""One colour per verdict, for the HTML report and the terminal alike (rich takes the
same "#rrggbb" styles). Each reads on a white page and on a dark terminal."""

from __future__ import annotations

from pipeline.schemas import Verdict

VERDICT_COLOURS: dict[str, str] = {
    Verdict.AC: "#2e9d4f",
    Verdict.WA: "#d43c3c",
    Verdict.PE: "#ef8a3c",
    Verdict.TLE: "#e0b01f",
    Verdict.MLE: "#8e5bb5",
    Verdict.RE: "#c2398f",
    Verdict.OLE: "#8d6e63",
    Verdict.CE: "#7f7f7f",
    Verdict.IE: "#1aa3b8",
    Verdict.JE: "#5b6abf",
}


def verdict_markup(verdict: str, text: str | None = None) -> str:
    """`text` (default: the verdict) in the verdict's colour, as rich console markup."""
    colour = VERDICT_COLOURS.get(verdict)
    shown = verdict if text is None else text
    return f"[{colour}]{shown}[/]" if colour else shown
