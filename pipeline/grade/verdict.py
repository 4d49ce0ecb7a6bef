"""The verdict of one run, decided in one place.

Order (the first that applies wins): JE (the judge failed) > TLE (CPU, then wall clock) >
MLE > OLE > RE > the checker's AC/WA/PE. Nothing here runs a program or touches a file.
"""

from __future__ import annotations

import signal as _signal
from collections.abc import Callable

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.checkers import ACCEPTED, CheckResult
from pipeline.problem.contract import Problem
from pipeline.program.relay import ENDED, IDLE
from pipeline.schemas import Verdict

MESSAGE_CHARS = 500
# how an idle interaction's TLE message begins (grade.time_verdicts does not rerun it)
IDLE_MARK = "idle:"


def signal_name(number: int) -> str:
    try:
        return _signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _last_line(data: bytes) -> str:
    lines = [ln for ln in data.decode("utf-8", "replace").splitlines() if ln.strip()]
    return lines[-1][:200] if lines else ""


def _runtime_message(result: ExecutionResult) -> str:
    if result.runtime_error:
        return result.runtime_error
    if result.signal:
        what = f"killed by signal {result.signal} ({signal_name(result.signal)})"
    else:
        what = f"exit code {result.exit_code}"
    tail = _last_line(result.stderr_head)
    return f"{what}: {tail}" if tail else what


def decide(
    limits: Limits, result: ExecutionResult, check: Callable[[str], CheckResult]
) -> CheckResult:
    """The verdict of `result` under `limits`; `check(output)` gives the checker's verdict
    and is called only for a run that ended normally within every limit."""
    if result.judge_error:
        return CheckResult(Verdict.JE, result.judge_error[:MESSAGE_CHARS])
    if result.cpu_exceeded or limits.cpu_over(result.cpu_ms):
        start = f" + start-up {result.start_cpu_ms:.0f} ms" if result.start_cpu_ms >= 1 else ""
        return CheckResult(
            Verdict.TLE, f"cpu {result.cpu_ms:.0f} ms{start} > limit {limits.cpu_ms:.0f} ms"
        )
    if result.wall_exceeded or limits.wall_over(result.wall_ms):
        return CheckResult(
            Verdict.TLE, f"wall {result.wall_ms:.0f} ms > limit {limits.wall_limit_ms:.0f} ms"
        )
    if result.memory_exceeded or limits.memory_over(result.peak_rss_kb):
        return CheckResult(
            Verdict.MLE, f"peak {result.peak_rss_kb // 1024} MB, limit {limits.memory_mb} MB"
        )
    if result.output_exceeded or limits.output_over(len(result.output)):
        return CheckResult(Verdict.OLE, f"output over {limits.output_kb} KB")
    if result.signal or result.exit_code != 0 or result.runtime_error:
        return CheckResult(Verdict.RE, _runtime_message(result))
    return check(result.output.decode("utf-8", "replace"))


def judge_interaction(
    limits: Limits, result: ExecutionResult, check: CheckResult, interactor_first: bool
) -> CheckResult:
    """The verdict of an interactive case (the Kattis format's rules, as problemtools
    applies them; the same for a testlib interactor): an interactor that failed is JE; an
    interactor that ended first with a rejection stands, whatever the submission did after
    losing its input (interact.interact ends it then); a submission ended as idle (both
    sides waiting to read) is TLE marked IDLE_MARK; else the submission's run decides as
    `decide` does (time, memory, output, crash), and the interactor's `check` after it.
    A non-interactive pass of a multi-pass problem is the same with `interactor_first`
    False."""
    if check.verdict == Verdict.JE:
        return check
    if interactor_first and check.verdict != Verdict.AC:
        return check
    if result.extra.get(ENDED) == IDLE and not result.judge_error:
        # both sides waited for each other (interact.interact ended it): a TLE of its own
        # kind, not a wall-clock timeout that a quieter machine might not repeat
        return CheckResult(
            Verdict.TLE, f"{IDLE_MARK} the submission and the judge waited for each other"
        )
    return decide(limits, result, lambda _output: check)


def judge(
    problem: Problem,
    input_text: str,
    expected: str | None,
    result: ExecutionResult,
    limits: Limits,
) -> CheckResult:
    """`decide` with the problem's checker against `expected`."""
    return decide(
        limits, result, lambda actual: check_output(problem, input_text, expected, actual)
    )


def check_output(
    problem: Problem, input_text: str, expected: str | None, actual: str
) -> CheckResult:
    """The checker's verdict on a run that ended normally within every limit. An output
    equal to the expected answer is accepted without calling the checker: a checker
    accepts the reference answer (the Problem contract, checked by problem.self_test),
    unless the problem says it does not trust that (a custom output validator)."""
    if expected is None:
        return CheckResult(Verdict.JE, "no expected answer for this case")
    if actual == expected and problem.trusts_expected:
        return ACCEPTED
    try:
        return problem.check(input_text, expected, actual)
    except Exception as exc:  # a checker bug is the judge's failure, not the program's
        return CheckResult(
            Verdict.JE, f"checker failed: {type(exc).__name__}: {exc}"[:MESSAGE_CHARS]
        )
