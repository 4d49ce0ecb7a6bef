"""What `verify` expects of a package, judged from results rows: each author submission
against its verdict folder's expectations (and submissions.yaml's), and the time limit
derived from the accepted submissions as the format says, with its margins.

A case's verdict is named as the format names it before it is compared: gridjudge's PE
is WA (the format has no presentation error), MLE and OLE are RTE (a run stopped for a
resource other than time); CE and JE are never permitted, whatever the folder says.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.package.submissions import ExpectedSubmission

SPEC_VERDICT = {"PE": "WA", "MLE": "RE", "OLE": "RE"}
SHOWN = {"RE": "RTE"}  # gridjudge's verdict names -> the format's, in messages
INPUTS, SUBMISSION, TIMING = "input validation", "submission", "time limit"


@dataclass(frozen=True)
class Check:
    """One expectation and whether it held: a line of `verify`, a JUnit testcase."""

    kind: str  # INPUTS | SUBMISSION | TIMING
    name: str
    ok: bool
    detail: str
    skipped: bool = False  # not checked (a validator gridjudge cannot run): no failure

    @property
    def status(self) -> str:
        return "SKIP" if self.skipped else "PASS" if self.ok else "FAIL"


def spec_verdict(verdict: str) -> str:
    return SPEC_VERDICT.get(verdict, verdict)


def _names(verdicts: Iterable[str]) -> str:
    return ", ".join(SHOWN.get(v, v) for v in sorted(verdicts)) or "none"


def _counts(rows: Sequence[Mapping[str, Any]]) -> str:
    counts = Counter(spec_verdict(r["verdict"]) for r in rows)
    return " ".join(f"{SHOWN.get(v, v)} {n}" for v, n in sorted(counts.items()))


def _first(rows: Sequence[Mapping[str, Any]], verdicts: set[str]) -> str:
    """The first case (in the rows' order) whose verdict is one of `verdicts`, with the
    checker's message."""
    for r in rows:
        if spec_verdict(r["verdict"]) in verdicts:
            said = " ".join(str(r.get("checker_msg") or "").split())[:120]
            return f"{r['case_id']}" + (f" ({said})" if said else "")
    return ""


def judge_submission(
    sub: ExpectedSubmission,
    label: str,
    rows: Sequence[Mapping[str, Any]],
    score: tuple[float, float] | None = None,
) -> Check:
    """`rows`: the submission's results rows, in case order; `score`: (its score, the
    most it could score) on a scoring problem, else None."""
    if not rows:
        return Check(SUBMISSION, label, False, "no results (no test cases graded)")
    got = {spec_verdict(r["verdict"]) for r in rows}
    problems = []
    wrong = got - set(sub.permitted)
    if wrong:
        problems.append(
            f"{_names(wrong)} on {_first(rows, wrong)}, not permitted (permitted: "
            f"{_names(sub.permitted)})"
        )
    if sub.required and not got & sub.required:
        problems.append(f"no case got {' or '.join(_names([v]) for v in sorted(sub.required))}")
    if sub.message and not any(sub.message in str(r.get("checker_msg") or "") for r in rows):
        problems.append(f"no judge message contains {sub.message!r}")
    problems += _score_problems(sub, score)
    shown = _counts(rows) + ("" if score is None else f"; score {score[0]:g} of {score[1]:g}")
    detail = shown if not problems else f"{shown}: {'; '.join(problems)}"
    return Check(SUBMISSION, label, not problems, detail)


def _score_problems(sub: ExpectedSubmission, score: tuple[float, float] | None) -> list[str]:
    """A scoring problem: the score submissions.yaml gives (a number or a range), else
    for partially_accepted some points but not all."""
    if score is None:
        return []
    value, top = score
    if sub.score is not None:
        low, high = sub.score
        if not low - 1e-9 <= value <= high + 1e-9:
            want = f"{low:g}" if low == high else f"{low:g}-{high:g}"
            return [f"score {value:g}, expected {want}"]
    elif sub.folder == "partially_accepted" and not 0 < value < top:
        return [f"score {value:g}: a partially accepted submission scores above 0, below {top:g}"]
    return []


def derive_time_limit(slowest_ms: float, multiplier: float, resolution_s: float) -> float:
    """Seconds: the smallest positive multiple of `resolution_s` at least slowest x
    multiplier (the format's rule; the legacy format rounds up to whole seconds)."""
    need = slowest_ms / 1000.0 * multiplier / resolution_s
    return max(1, math.ceil(round(need, 9))) * resolution_s


def slowest(rows: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The row with the largest CPU time (the median over repeats), None without one."""
    timed = [r for r in rows if r.get("cpu_ms") is not None]
    return max(timed, key=lambda r: r["cpu_ms"]) if timed else None


def accepted_margin(
    label: str, rows: Sequence[Mapping[str, Any]], limit_s: float, factor: float
) -> Check:
    """An accepted submission's slowest case x `factor` must be within the limit."""
    row = slowest(rows)
    if row is None:
        return Check(TIMING, f"margin {label}", False, "no timed case")
    t = row["cpu_ms"] / 1000.0
    below = limit_s / t if t > 0 else math.inf
    detail = (
        f"slowest case {row['case_id']} {t:.3f} s, {below:.1f}x below the {limit_s:g} s "
        f"limit (needed: {factor:g}x)"
    )
    return Check(TIMING, f"margin {label}", below >= factor - 1e-9, detail)


def tle_margin(
    label: str, rows: Sequence[Mapping[str, Any]], limit_s: float, factor: float
) -> Check:
    """A time_limit_exceeded submission, graded at limit x `factor`, must still exceed it."""
    over = [r for r in rows if r["verdict"] == "TLE"]
    high = limit_s * factor
    if not over:
        row = slowest(rows)
        t = "?" if row is None else f"{row['cpu_ms'] / 1000.0:.3f} s ({row['case_id']})"
        detail = f"no case over limit x {factor:g} = {high:g} s; slowest {t}"
        return Check(TIMING, f"margin {label}", False, detail)
    detail = (
        f"over limit x {factor:g} = {high:g} s on {len(over)} case"
        f"{'' if len(over) == 1 else 's'} (first {over[0]['case_id']})"
    )
    return Check(TIMING, f"margin {label}", True, detail)
