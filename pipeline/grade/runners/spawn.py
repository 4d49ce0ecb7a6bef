"""One sandboxed process per case."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.grade import rows
from pipeline.grade.cases import Cases
from pipeline.grade.runners.base import Graded
from pipeline.grade.verdict import judge
from pipeline.limits import Limits
from pipeline.problem.contract import Problem
from pipeline.program.execution import ExecutionResult
from pipeline.program.submission import PreparedSubmission

JE_RETRIES = 2


@dataclass
class SpawnRunner:
    problem: Problem
    submission: PreparedSubmission
    limits: Limits
    keep_outputs: bool = False

    def execute(self, text: str, limits: Limits | None = None) -> ExecutionResult:
        """One run; a judge error (the infrastructure's fault, not the program's) is
        retried before it is accepted as JE."""
        limits = limits or self.limits
        result = self.submission.run(text, limits)
        for _ in range(JE_RETRIES):
            if not result.judge_error:
                break
            result = self.submission.run(text, limits)
        result.extra.setdefault("runner", "spawn")
        return result

    def run(self, text: str, expected: str | None) -> rows.Run:
        result = self.execute(text)
        return rows.Run(result, judge(self.problem, text, expected, result, self.limits))

    def graded(self, runs: list[rows.Run]) -> Graded:
        outputs = [r.result.output for r in runs] if self.keep_outputs else None
        return Graded(rows.from_runs(runs), outputs)

    def close(self) -> None:
        return None

    def grade(self, cases: Cases) -> Graded:
        expected = cases.expected.to_pylist()
        runs = [
            self.run(text or "", want) for text, want in zip(cases.inputs, expected, strict=True)
        ]
        return self.graded(runs)
