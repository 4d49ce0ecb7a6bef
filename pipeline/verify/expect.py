"""What `verify` expects of a package, judged from results rows: each author submission
against its verdict folder's expectations (and submissions.yaml's), and the time limit
derived from the accepted submissions as the format says, with its margins.

A case's verdict is named as the format names it before it is compared: gridjudge's PE
is WA (the format has no presentation error), MLE and OLE are RTE (a run stopped for a
resource other than time); CE and JE are never permitted, whatever the folder says.

Two readings of a submission's rows. The format's tool's (legacy and 2023-07, a folder's
own expectation: problemtools): its verdict is the first rejected case's
(verify.verdicts), and must be the folder's. gridjudge's stricter one (every version;
the only one for 2025-09, a submissions.yaml entry and a scoring package, as the 2025-09
text reads them): every case a verdict the folder permits, one the verdict it requires.
Where the first holds and the second does not (a wrong answer that also crashes on a
later case), the check holds with a warning; `verify --strict` fails it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.package.submissions import ExpectedSubmission
from pipeline.verify.verdicts import FolderRules, format_verdict, of_rows

SPEC_VERDICT = {"PE": "WA", "MLE": "RE", "OLE": "RE"}
SHOWN = {"RE": "RTE"}  # gridjudge's verdict names -> the format's, in messages
INPUTS, SUBMISSION, TIMING = "input validation", "submission", "time limit"
# the verdict a folder's submission must get where its verdict is the first rejected
# case's (problemtools' folders; brute_force and rejected read alike)
FIRST_REJECTED = {
    "accepted": frozenset({"AC"}),
    "wrong_answer": frozenset({"WA"}),
    "time_limit_exceeded": frozenset({"TLE"}),
    "run_time_error": frozenset({"RE"}),
    "brute_force": frozenset({"TLE", "RE"}),
    "rejected": frozenset({"WA", "TLE", "RE"}),
}
NEAR_BOUNDARY = 0.1  # a derived limit this close to a rounding boundary is warned about


@dataclass(frozen=True)
class Check:
    """One expectation and whether it held: a line of `verify`, a JUnit testcase."""

    kind: str  # INPUTS | SUBMISSION | TIMING
    name: str
    ok: bool
    detail: str
    skipped: bool = False  # not checked (a validator gridjudge cannot run): no failure
    # holds, but a stricter reading than the format's tool's finds something (--strict:
    # a failure)
    warning: bool = False

    @property
    def status(self) -> str:
        if self.skipped:
            return "SKIP"
        return "FAIL" if not self.ok else "WARN" if self.warning else "PASS"

    def strict(self) -> Check:
        """This check as `verify --strict` reads it: a warning is a failure."""
        if not (self.ok and self.warning and not self.skipped):
            return self
        return Check(self.kind, self.name, False, f"{self.detail} (--strict)")


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
    rules: Mapping[str, FolderRules] | None = None,
    high: Sequence[Mapping[str, Any]] | None = None,
) -> Check:
    """`rows`: the submission's results rows, in case order; `score`: (its score, the
    most it could score) on a scoring problem, else None; `rules`: the test data
    folders' rules where the format's tool reads a verdict as the first rejected case's
    (verdicts.folder_rules), else None; `high`: the rows as graded at limit x margin,
    where `rows` are those read at the limit (at_limit): a verdict the folder expects
    there only holds with a warning, as problemtools' "OK with extra time"."""
    if not rows:
        return Check(SUBMISSION, label, False, "no results (no test cases graded)")
    problems = _case_problems(sub, rows) + _score_problems(sub, score)
    shown = _counts(rows) + ("" if score is None else f"; score {score[0]:g} of {score[1]:g}")
    want = FIRST_REJECTED.get(sub.folder)
    if rules is None or want is None or sub.listed or score is not None:
        detail = shown if not problems else f"{shown}: {'; '.join(problems)}"
        return Check(SUBMISSION, label, not problems, detail)
    got, said = _decided(rows, rules)
    if got not in want:
        failed = f"{shown}: verdict {said}, expected {_names(want)}"
        later, also = _decided(high, rules) if high is not None else (got, said)
        if later not in want:
            return Check(SUBMISSION, label, False, failed)
        extra = f"{failed}; {also} at limit x margin: sensitive to the time limit"
        return Check(SUBMISSION, label, True, extra, warning=True)
    detail = shown if got == "AC" else f"{shown}: verdict {said}"
    if problems:
        stricter = f"{detail}; stricter than the format's tool: {'; '.join(problems)}"
        return Check(SUBMISSION, label, True, stricter, warning=True)
    return Check(SUBMISSION, label, True, detail)


def _decided(
    rows: Sequence[Mapping[str, Any]], rules: Mapping[str, FolderRules]
) -> tuple[str, str]:
    """The format's verdict of `rows`, and how a line says it (with the deciding case)."""
    decided = format_verdict(of_rows(rows, spec_verdict), rules)
    got = "AC" if decided is None else decided.verdict
    said = _names([got])
    if decided is not None and decided.case_id is not None:
        said += f" on {_first([r for r in rows if r['case_id'] == decided.case_id], {got})}"
    return got, said


def _case_problems(sub: ExpectedSubmission, rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """What fails the case-by-case reading: a verdict the folder does not permit, none of
    those it requires, no judge message with the text it gives."""
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
    return problems


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


def near_boundary(slowest_ms: float, multiplier: float, resolution_s: float) -> float | None:
    """The rounding boundary (s) that slowest x multiplier sits within NEAR_BOUNDARY of,
    None when none is that close: a machine a little faster or slower would derive a
    limit one resolution apart."""
    exact = slowest_ms / 1000.0 * multiplier
    boundary = max(1, round(exact / resolution_s)) * resolution_s
    return boundary if abs(exact - boundary) <= NEAR_BOUNDARY * boundary else None


def least_ms(row: Mapping[str, Any]) -> float | None:
    """A case's CPU time as a limit is derived from it: the least of its runs. Load only
    ever adds CPU time (cache misses, frequency drops, migrations), so the least run is
    the one closest to the program's own time, where the median moves with the load.
    A served case's start-up (start_cpu_ms) is added: the whole process's time, as a
    spawned run measures it and as problemtools times a program."""
    runs = [t for t in (row.get("cpu_ms_runs") or []) if t is not None]
    least = min(runs) if runs else row.get("cpu_ms")
    return None if least is None else least + (row.get("start_cpu_ms") or 0.0)


def slowest(rows: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The row with the largest CPU time (least_ms: the least of its runs), None
    without one."""
    timed = [r for r in rows if least_ms(r) is not None]
    return max(timed, key=lambda r: least_ms(r) or 0.0) if timed else None


def accepted_margin(
    label: str, rows: Sequence[Mapping[str, Any]], limit_s: float, factor: float
) -> Check:
    """An accepted submission's slowest case x `factor` must be within the limit."""
    row = slowest(rows)
    if row is None:
        return Check(TIMING, f"margin {label}", False, "no timed case")
    t = (least_ms(row) or 0.0) / 1000.0
    below = limit_s / t if t > 0 else math.inf
    detail = (
        f"slowest case {row['case_id']} {t:.3f} s, {below:.1f}x below the {limit_s:g} s "
        f"limit (needed: {factor:g}x)"
    )
    return Check(TIMING, f"margin {label}", below >= factor - 1e-9, detail)


def at_limit(rows: Sequence[Mapping[str, Any]], limit_s: float) -> list[dict[str, Any]]:
    """Rows graded at a higher limit as at `limit_s`: a case over it (the least of its
    runs, as the limit is derived) is TLE, as problemtools reads one run at limit x
    time_limit_to_tle at both limits."""
    out = []
    for row in rows:
        ms = least_ms(row)
        over = ms is not None and ms > limit_s * 1000.0
        if over and row["verdict"] != "TLE":
            said = f"CPU {ms:.0f} ms > limit {limit_s * 1000.0:.0f} ms; {row['verdict']} above it"
            out.append({**row, "verdict": "TLE", "checker_msg": said})
        else:
            out.append(dict(row))
    return out


def tle_margin(
    label: str,
    rows: Sequence[Mapping[str, Any]],
    limit_s: float,
    factor: float,
    warn: bool = False,
) -> Check:
    """A time_limit_exceeded submission, graded at limit x `factor`, must still exceed
    it; with `warn` (the format's tool's reading: problemtools judges it at the limit and
    warns that it is "sensitive to time limit"), only a warning when it does not."""
    over = [r for r in rows if r["verdict"] == "TLE"]
    high = limit_s * factor
    if not over:
        row = slowest(rows)
        t = "?" if row is None else f"{row['cpu_ms'] / 1000.0:.3f} s ({row['case_id']})"
        detail = f"no case over limit x {factor:g} = {high:g} s; slowest {t}"
        return Check(TIMING, f"margin {label}", warn, detail, warning=warn)
    detail = (
        f"over limit x {factor:g} = {high:g} s on {len(over)} case"
        f"{'' if len(over) == 1 else 's'} (first {over[0]['case_id']})"
    )
    return Check(TIMING, f"margin {label}", True, detail)
