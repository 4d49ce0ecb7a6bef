"""Pure grading: (problem, case, execution result) -> verdict -> one results row.

Verdict order (the first that applies wins): JE (the judge failed) > TLE > MLE > OLE >
RE > the checker's WA/PE/AC. Nothing here runs a program or touches a file.
"""

from __future__ import annotations

import hashlib
import signal as _signal
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pipeline.problem.checkers import ACCEPTED, CheckResult
from pipeline.problem.contract import Problem
from pipeline.program.execution import ExecutionResult, Limits
from pipeline.schemas import RESULTS_SCHEMA, Verdict

if TYPE_CHECKING:
    from pipeline.program.submission import PreparedSubmission

OUTPUT_HEAD_CHARS = 200
MESSAGE_CHARS = 500
RESULT_KEYS: tuple[str, ...] = tuple(RESULTS_SCHEMA.names)


def signal_name(number: int) -> str:
    try:
        return _signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _last_line(data: bytes) -> str:
    lines = [ln for ln in data.decode("utf-8", "replace").splitlines() if ln.strip()]
    return lines[-1][:200] if lines else ""


def _runtime_message(result: ExecutionResult) -> str:
    if result.signal:
        what = f"killed by signal {result.signal} ({signal_name(result.signal)})"
    else:
        what = f"exit code {result.exit_code}"
    tail = _last_line(result.stderr_head)
    return f"{what}: {tail}" if tail else what


def judge(
    problem: Problem,
    input_text: str,
    expected: str | None,
    result: ExecutionResult,
    limits: Limits,
) -> CheckResult:
    """The verdict of one run. `expected` must be known (the caller fills it)."""
    if result.judge_error:
        return CheckResult(Verdict.JE, result.judge_error[:MESSAGE_CHARS])
    if result.cpu_exceeded:
        return CheckResult(
            Verdict.TLE, f"cpu {result.cpu_ms:.0f} ms > limit {limits.time_s * 1000:.0f} ms"
        )
    if result.wall_exceeded:
        return CheckResult(
            Verdict.TLE, f"wall {result.wall_ms:.0f} ms > limit {limits.wall_limit_s * 1000:.0f} ms"
        )
    if result.memory_exceeded:
        return CheckResult(
            Verdict.MLE, f"peak {result.peak_rss_kb // 1024} MB, limit {limits.memory_mb} MB"
        )
    if result.output_exceeded:
        return CheckResult(Verdict.OLE, f"output over {limits.output_kb} KB")
    if result.signal or result.exit_code != 0:
        return CheckResult(Verdict.RE, _runtime_message(result))
    return check_output(problem, input_text, expected, result.output.decode("utf-8", "replace"))


def check_output(
    problem: Problem, input_text: str, expected: str | None, actual: str
) -> CheckResult:
    """The verdict of a run that ended normally within every limit: the checker's (what
    judge() ends with; the in-process fast path calls it directly)."""
    if expected is None:
        return CheckResult(Verdict.JE, "no expected answer for this case")
    if actual == expected:  # a checker accepts the reference answer (Problem contract,
        return ACCEPTED  # checked by problem.self_test); the in-process path relies on it
    try:
        return problem.check(input_text, expected, actual)
    except Exception as exc:  # a checker bug is the judge's failure, not the program's
        return CheckResult(Verdict.JE, f"checker failed: {type(exc).__name__}: {exc}"[:500])


def output_head(output: bytes) -> str:
    """The output_head column: the first OUTPUT_HEAD_CHARS characters of the output."""
    return output[: OUTPUT_HEAD_CHARS * 4].decode("utf-8", "replace")[:OUTPUT_HEAD_CHARS]


def _base_row(
    *,
    run_id: str,
    submission: PreparedSubmission,
    problem: Problem,
    case: Mapping[str, Any],
    attempt: int,
    node: str,
    batch_size: int,
) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(RESULT_KEYS)
    row.update(
        run_id=run_id,
        submission=submission.label,
        submission_sha=submission.sha,
        problem=problem.name,
        case_id=str(case["case_id"]),
        family=str(case.get("family") or ""),
        attempt=attempt,
        node=node,
        batch_size=batch_size,
    )
    return row


def result_row(
    *,
    run_id: str,
    submission: PreparedSubmission,
    problem: Problem,
    case: Mapping[str, Any],
    result: ExecutionResult,
    check: CheckResult,
    attempt: int,
    node: str,
    batch_size: int,
) -> dict[str, Any]:
    """One row of RESULTS_SCHEMA (exactly its keys) for one run of one case."""
    row = _base_row(
        run_id=run_id,
        submission=submission,
        problem=problem,
        case=case,
        attempt=attempt,
        node=node,
        batch_size=batch_size,
    )
    row.update(
        verdict=str(check.verdict),
        cpu_ms=float(result.cpu_ms),
        wall_ms=float(result.wall_ms),
        peak_rss_kb=int(result.peak_rss_kb),
        exit_code=result.exit_code,
        signal=result.signal,
        output_sha256=hashlib.sha256(result.output).hexdigest(),
        output_head=output_head(result.output),
        checker_msg=(check.message[:MESSAGE_CHARS] or None),
        cpu_ms_runs=[float(result.cpu_ms)],
        wall_ms_runs=[float(result.wall_ms)],
    )
    return row


def ie_row(
    *,
    run_id: str,
    submission: PreparedSubmission,
    problem: Problem,
    case: Mapping[str, Any],
    message: str,
    attempt: int = 0,
    node: str = "",
    batch_size: int = 1,
) -> dict[str, Any]:
    """Row of a case the validator rejected: IE with its first message; never run."""
    row = _base_row(
        run_id=run_id,
        submission=submission,
        problem=problem,
        case=case,
        attempt=attempt,
        node=node,
        batch_size=batch_size,
    )
    row.update(verdict=str(Verdict.IE), checker_msg=message[:MESSAGE_CHARS])
    return row


def ce_row(
    *,
    run_id: str,
    submission: PreparedSubmission,
    problem: Problem,
    case: Mapping[str, Any],
    attempt: int = 0,
    node: str = "",
    batch_size: int = 1,
) -> dict[str, Any]:
    """Row of a case of a submission that did not compile: CE with the compiler message."""
    row = _base_row(
        run_id=run_id,
        submission=submission,
        problem=problem,
        case=case,
        attempt=attempt,
        node=node,
        batch_size=batch_size,
    )
    # the compiler's message was already truncated by prepare(): keep all of it
    row.update(verdict=str(Verdict.CE), checker_msg=submission.compile_error or "")
    return row
