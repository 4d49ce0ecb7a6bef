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
from pipeline.grade.settings import GradeSettings
from pipeline.limits import Limits
from pipeline.problem.contract import Problem
from pipeline.program.submission import PreparedSubmission

__all__ = ["Graded", "Runner", "runner_for"]


def runner_for(
    problem: Problem,
    submission: PreparedSubmission,
    limits: Limits,
    *,
    settings: GradeSettings,
    keep_outputs: bool = False,
) -> Runner:
    """In-process reference solvers run in this process; programs run in the sandbox, K
    cases per process where the problem's format holds several and the settings' `batch`
    asks for it, else one process per case; each process forked from a fork server with
    the settings' `fork_server`, else spawned."""
    limits = limits.times(submission.time_multiplier)  # a language's, when set
    if submission.kind == "solver":
        return InProcessRunner(problem, submission, limits, keep_outputs)
    k = min(settings.batch, problem.multi_case) if problem.join and problem.split else 1
    single = ProgramRunner(
        problem, submission, limits, keep_outputs, settings.fork_server, settings.transcripts
    )
    return BatchRunner(single, k) if k > 1 else single
