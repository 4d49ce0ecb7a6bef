"""Runners: how the outputs of one submission on a group of cases are produced.

A runner is the only thing that varies between ways of grading: it runs a submission on
cases and judges each run (grade.verdict), giving the graded rows (grade.rows). The engine
(grade.engine) picks one per submission with `runner_for`; a new way of running programs
(a fork server, interactive problems, checker programs) is a new runner here.
"""

from __future__ import annotations

from pipeline.grade.runners.base import Graded, Runner
from pipeline.grade.runners.batch import BatchRunner
from pipeline.grade.runners.inprocess import InProcessRunner
from pipeline.grade.runners.program import ProgramRunner
from pipeline.limits import Limits
from pipeline.problem.contract import Problem
from pipeline.program.submission import PreparedSubmission

__all__ = ["FORK_SERVER", "Graded", "Runner", "runner_for"]

# Programs run from a fork server unless asked not to (docs/sandbox.md has the figures
# behind this default).
FORK_SERVER = True


def runner_for(
    problem: Problem,
    submission: PreparedSubmission,
    limits: Limits,
    *,
    batch_k: int = 1,
    keep_outputs: bool = False,
    fork_server: bool = FORK_SERVER,
) -> Runner:
    """In-process reference solvers run in this process; programs run in the sandbox, K
    cases per process where the problem's format holds several and `batch_k` asks for it,
    else one process per case; each process forked from a fork server with
    `fork_server`, else spawned."""
    limits = submission.limits_for(limits)  # a language's time multiplier, when set
    if submission.kind == "solver":
        return InProcessRunner(problem, submission, limits, keep_outputs)
    k = min(batch_k, problem.multi_case) if problem.join and problem.split else 1
    single = ProgramRunner(problem, submission, limits, keep_outputs, fork_server)
    return BatchRunner(single, k) if k > 1 else single
