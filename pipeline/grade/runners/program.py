"""One sandboxed process per case, through the one execution seam (program.execute):
forked from the submission's fork server where it can be, else spawned; the rows' `runner`
column says which and why.

The runner owns two sets of fork servers, both closed with it: the submission's, and
the judge-side programs' (a package's checkers) that judge this submission's outputs, so
that no checker server ever sees two submissions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from pipeline.grade import rows
from pipeline.grade.cases import Cases
from pipeline.grade.runners.base import Graded
from pipeline.grade.verdict import judge, judge_interaction
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.package.judged import interaction_of
from pipeline.problem.contract import CaseOutcome, InteractRequest, Problem
from pipeline.program import execute
from pipeline.program.submission import PreparedSubmission
from pipeline.program.transcript import NONE, SUMMARY


@dataclass
class ProgramRunner:
    problem: Problem
    submission: PreparedSubmission
    limits: Limits
    keep_outputs: bool = False
    fork_server: bool = True
    transcripts: bool = True  # GradeSettings.transcripts
    servers: execute.Servers = field(init=False, repr=False)
    judges: execute.Servers = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.servers = execute.Servers(fork=self.fork_server)
        self.judges = execute.Servers(fork=self.fork_server)

    def execute(self, text: str, limits: Limits | None = None) -> ExecutionResult:
        return self.submission.run(text, limits or self.limits, self.servers)

    def run(self, text: str, expected: str | None) -> CaseOutcome:
        interact = interaction_of(self.problem)
        if interact is not None:
            return interact(
                InteractRequest(
                    submission=self.submission,
                    servers=self.servers,
                    input_text=text,
                    expected=expected,
                    limits=self.limits,
                    judge=partial(judge_interaction, self.limits),
                    transcript=SUMMARY if self.transcripts else NONE,
                )
            )
        result = self.execute(text)
        return CaseOutcome(result, judge(self.problem, text, expected, result, self.limits))

    def graded(self, runs: list[CaseOutcome]) -> Graded:
        outputs = [r.result.output for r in runs] if self.keep_outputs else None
        return Graded(rows.from_runs(runs), outputs)

    def close(self) -> None:
        self.servers.close()
        self.judges.close()

    def grade(self, cases: Cases) -> Graded:
        expected = cases.expected.to_pylist()
        with execute.judging_with(self.judges):
            runs = [
                self.run(text or "", want)
                for text, want in zip(cases.inputs, expected, strict=True)
            ]
        return self.graded(runs)
