"""A built-in interactive problem's judge program (`Problem.judge_program`) as its
`interact`: the program is built once per process like a package's validator, and each
case runs the submission against it through the seam's `interact` under the Kattis
interactor protocol, with the rules of an interactive package (interactive.CaseRun)."""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path

from pipeline.outcome import ExecutionResult
from pipeline.package.interactive import CaseRun
from pipeline.package.programs import PackageProgram
from pipeline.package.protocols.contract import Case
from pipeline.package.protocols.interactive import KattisInteractor
from pipeline.problem.checkers import CheckResult
from pipeline.problem.contract import CaseOutcome, Interact, InteractRequest, Problem
from pipeline.schemas import Verdict


@cache
def _program(path: str) -> PackageProgram:
    return PackageProgram(Path(path))


def interaction_of(problem: Problem) -> Interact | None:
    """How a submission runs on one case of `problem`: its own `interact`, else against
    its judge program, else None (it runs on the input and `check` judges its output)."""
    if problem.interact is not None:
        return problem.interact
    if problem.judge_program is None:
        return None
    return partial(_interact, str(problem.judge_program))


def _interact(path: str, request: InteractRequest) -> CaseOutcome:
    program = _program(path)
    why = program.failure()  # the judge's own program failed to build: the judge's fault
    if why is not None:
        return CaseOutcome(ExecutionResult(), CheckResult(Verdict.JE, why))
    run = CaseRun(program.prepared(), KattisInteractor(), interactive=True)
    return run.run(request, Case(request.input_text, request.expected or "", ""))


__all__ = ["interaction_of"]
