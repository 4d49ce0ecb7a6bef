"""Several cases per process, where the problem's file format holds several.

Up to K cases are joined into one file and run in one process; the output is split back
per case. Where the batch ran to its end and its output splits into one part per case, the
parts its cases accept stand, as they do when all pass, and each other case (WA, a judge
error) runs again alone for its own honest verdict: a wrong program with one rejected case
in a batch of 50 costs two runs, not the dozen of a bisection. A batch over a limit
(time, memory, output) runs each case alone: a case that loops costs its limit once, not
once per level of a bisection, and no case costs more alone than in a half. A batch that
fails otherwise (a crash, an output that does not split, a judge error) is bisected down
to single cases. The whole batch runs under ONE case's time and memory
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
# a batch ended by one of these runs each of its cases alone (see the module's docstring)
LIMITS = frozenset({Verdict.TLE, Verdict.MLE, Verdict.OLE})


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
        """The runs of these cases: joined in one process, each case it does not accept
        run again alone; bisected where the batch crashed or did not split."""
        if len(texts) == 1:
            return [self.single.run(texts[0], expected[0])]
        got = self._once(texts, expected)
        if got is None:
            half = len(texts) // 2
            return self.run_group(texts[:half], expected[:half]) + self.run_group(
                texts[half:], expected[half:]
            )
        return [
            outcome if outcome is not None else self.single.run(text, want)
            for outcome, text, want in zip(got, texts, expected, strict=True)
        ]

    def _once(
        self, texts: list[str], expected: list[str | None]
    ) -> list[CaseOutcome | None] | None:
        """One run of the cases joined in one file: each case's outcome where it was
        accepted, else None for it (all None: the batch went over a limit); None
        instead of the list when the batch must be bisected."""
        problem, limits, n = self.single.problem, self.single.limits, len(texts)
        assert problem.join is not None and problem.split is not None
        try:
            joined = problem.join(texts)
        except Exception:
            return None
        whole = batch_limits(limits, n)
        result = self.single.execute(joined, whole)
        ended = decide(whole, result, lambda _: ACCEPTED).verdict
        if ended in LIMITS:
            return [None] * n
        if ended != Verdict.AC:  # crashed, or the judge failed
            return None
        try:
            parts = problem.split(result.output.decode("utf-8", "replace"), n)
        except Exception:
            return None
        if len(parts) != n:
            return None
        out: list[CaseOutcome | None] = []
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
            accepted = check.verdict == Verdict.AC
            out.append(CaseOutcome(per_case, check, batch_size=n) if accepted else None)
        return out
