"""In-process reference solvers (`solver:` submissions): every case of a group called in
one tight loop (runners.timing), judged column by column.

A call that returned an answer within the limits is judged by the checker alone (an answer
equal to the expected one is AC without calling it, as grade.verdict.check_output does).
Any other call (it raised, returned no text, or went over a limit) becomes an
ExecutionResult and goes through grade.verdict.decide like a program's run. No case is
called again for its verdict.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.grade import rows
from pipeline.grade.cases import Cases
from pipeline.grade.runners.base import Graded
from pipeline.grade.runners.timing import timed_calls
from pipeline.grade.verdict import check_output, judge
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.contract import CaseOutcome, Problem
from pipeline.program.submission import PreparedSubmission
from pipeline.schemas import Verdict

STDERR_HEAD_BYTES = 4096


def _strings(outs: list[Any]) -> pa.StringArray:
    """The answers as an Arrow column, null where the solver raised (or returned no str)."""
    try:
        return pa.array(outs, type=pa.string())
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError):
        return pa.array([o if type(o) is str else None for o in outs], type=pa.string())


def execution_result(out: Any, cpu_ms: float, wall_ms: float, limits: Limits) -> ExecutionResult:
    """What a call that did not give a clean answer amounts to, as a program's run."""
    result = ExecutionResult(cpu_ms=float(cpu_ms), wall_ms=float(wall_ms))
    result.extra["runner"] = "in-process"
    if isinstance(out, str):
        data = out.encode()
        result.exit_code = 0
        result.output_exceeded = limits.output_over(len(data))
        result.output = data[: limits.output_bytes]
    else:
        error = out if isinstance(out, BaseException) else TypeError(f"solver returned {out!r}")
        result.exit_code = 1
        text = "".join(traceback.format_exception_only(type(error), error))
        result.stderr_head = text.encode()[:STDERR_HEAD_BYTES]
    return result


@dataclass
class InProcessRunner:
    problem: Problem
    submission: PreparedSubmission
    limits: Limits
    keep_outputs: bool = False

    def close(self) -> None:
        return None

    def grade(self, cases: Cases) -> Graded:
        texts: list[str] = [t or "" for t in cases.inputs]
        outs, cpu, wall = timed_calls(self.problem.answerer(self.submission.version), texts)
        outputs = _strings(outs)
        sizes = pc.binary_length(outputs).fill_null(0).to_numpy()
        clean = (
            pc.is_valid(outputs).to_numpy(zero_copy_only=False)
            & ~self.limits.cpu_over(cpu)
            & ~self.limits.wall_over(wall)
            & ~self.limits.output_over(sizes)
        )
        kept = [o.encode() if type(o) is str else b"" for o in outs] if self.keep_outputs else None
        if clean.all():
            return Graded(self._judged(texts, cases.expected, outputs, cpu, wall), kept)
        good = np.flatnonzero(clean)
        bad = np.flatnonzero(~clean).tolist()
        at = pa.array(good)
        judged = self._judged(
            [texts[i] for i in good.tolist()],
            cases.expected.take(at),
            outputs.take(at),
            cpu[good],
            wall[good],
        )
        expected = cases.expected.to_pylist()
        failed = []
        for i in bad:
            result = execution_result(outs[i], cpu[i], wall[i], self.limits)
            failed.append(
                CaseOutcome(result, judge(self.problem, texts[i], expected[i], result, self.limits))
            )
        table = rows.scatter([(good, judged), (bad, rows.from_runs(failed))], len(texts))
        return Graded(table, kept)

    def _judged(
        self,
        texts: list[str],
        expected: pa.Array,
        outputs: pa.StringArray,
        cpu: np.ndarray,
        wall: np.ndarray,
    ) -> pa.Table:
        """Rows of calls that answered within every limit: AC where the answer is the
        expected one, else the checker's verdict."""
        same = pc.fill_null(pc.equal(outputs, expected), False).to_numpy(zero_copy_only=False)
        verdicts = np.full(len(texts), str(Verdict.AC), dtype=object)
        messages: list[str | None] = [None] * len(texts)
        for j in np.flatnonzero(~same).tolist():
            check = check_output(self.problem, texts[j], expected[j].as_py(), outputs[j].as_py())
            verdicts[j] = str(check.verdict)
            messages[j] = rows.message(check)
        return rows.from_outputs(outputs, verdicts, messages, cpu, wall)
