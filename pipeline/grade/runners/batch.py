"""Several cases per process, where the problem's file format holds several.

Up to K cases are joined into one file and run in one process; the output is split back
per case. A batch that fails in any way (a crash, a limit, a split that does not give one
part per case, a case not AC, a judge error) is bisected down to single cases, so each case
still gets its own honest verdict. The whole batch runs under ONE case's time and memory
limit: a case that would exceed the limit alone makes its batch exceed it too, so batching
never turns a TLE into an AC. The time of a passing batch is divided among its cases
(the batch_size column says so), a fork server's start-up CPU too.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.grade.cases import Cases
from pipeline.grade.runners.base import Graded
from pipeline.grade.runners.program import ProgramRunner
from pipeline.grade.verdict import decide, judge
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.checkers import ACCEPTED
from pipeline.problem.contract import CaseOutcome
from pipeline.program import execute
from pipeline.schemas import Verdict

BATCH_OUTPUT_CAP_KB = 256 * 1024


def batch_limits(limits: Limits, k: int) -> Limits:
    """A batch of k cases runs under one case's CPU and memory limit but may print k
    cases' worth of output (capped: a batch over the cap is bisected)."""
    return limits.with_output_kb(
        max(limits.output_kb, min(limits.output_kb * k, BATCH_OUTPUT_CAP_KB))
    )


@dataclass
class BatchRunner:
    single: ProgramRunner
    k: int

    @property
    def limits(self) -> Limits:
        return self.single.limits

    def close(self) -> None:
        self.single.close()

    def grade(self, cases: Cases) -> Graded:
        texts = [t or "" for t in cases.inputs]
        expected = cases.expected.to_pylist()
        runs: list[CaseOutcome] = []
        with execute.judging_with(self.single.judges):
            for start in range(0, len(texts), self.k):
                stop = min(start + self.k, len(texts))
                runs += self.run_group(texts[start:stop], expected[start:stop])
        return self.single.graded(runs)

    def run_group(self, texts: list[str], expected: list[str | None]) -> list[CaseOutcome]:
        """The runs of these cases: joined in one process where they pass together, else
        bisected down to single cases."""
        if len(texts) == 1:
            return [self.single.run(texts[0], expected[0])]
        got = self._once(texts, expected)
        if got is not None:
            return got
        half = len(texts) // 2
        return self.run_group(texts[:half], expected[:half]) + self.run_group(
            texts[half:], expected[half:]
        )

    def _once(self, texts: list[str], expected: list[str | None]) -> list[CaseOutcome] | None:
        """One run of the cases joined in one file; None when it must be bisected."""
        problem, limits, n = self.single.problem, self.single.limits, len(texts)
        assert problem.join is not None and problem.split is not None
        try:
            joined = problem.join(texts)
        except Exception:
            return None
        whole = batch_limits(limits, n)
        result = self.single.execute(joined, whole)
        if decide(whole, result, lambda _: ACCEPTED).verdict != Verdict.AC:  # crashed, or a limit
            return None
        try:
            parts = problem.split(result.output.decode("utf-8", "replace"), n)
        except Exception:
            return None
        if len(parts) != n:
            return None
        out: list[CaseOutcome] = []
        for text, want, part in zip(texts, expected, parts, strict=True):
            # a shallow copy; copy.copy and dataclasses.replace cost several us per case
            per_case = ExecutionResult.__new__(ExecutionResult)
            per_case.__dict__.update(result.__dict__)
            per_case.output = part.encode()
            per_case.cpu_ms = result.cpu_ms / n
            per_case.wall_ms = result.wall_ms / n
            # a fork server's start-up was charged once to the whole batch: shared out as
            # its CPU time is (a spawned batch's start-up is inside cpu_ms, divided above)
            per_case.start_cpu_ms = result.start_cpu_ms / n
            check = judge(problem, text, want, per_case, limits)
            if check.verdict != Verdict.AC:
                return None
            out.append(CaseOutcome(per_case, check, batch_size=n))
        return out
