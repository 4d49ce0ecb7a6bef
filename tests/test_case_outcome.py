"""One case's outcome (problem.contract.CaseOutcome) through a multi-pass case, and the
interactive contract's request as the package side takes it (interactive.entrant).
Pure code: the passes are given, nothing runs."""

from __future__ import annotations

from functools import partial

import pytest

from pipeline.grade.verdict import judge_interaction
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.package.interactive import PASS_MARK, CaseRun, entrant
from pipeline.package.protocols.kattis import KattisValidator
from pipeline.problem.checkers import ACCEPTED, CheckResult
from pipeline.problem.contract import STDIO, CaseOutcome, InteractRequest
from pipeline.program import execute
from pipeline.program.submission import PreparedSubmission
from pipeline.schemas import Verdict

LIMITS = Limits(cpu_ms=1000)


def _program() -> PreparedSubmission:
    return PreparedSubmission(label="v.py", sha="v" * 64, kind="cmd", problem="p", io=STDIO)


def _request(submission: object, servers: object = None) -> InteractRequest:
    return InteractRequest(
        submission=submission,  # type: ignore[arg-type]
        servers=servers,  # type: ignore[arg-type]
        input_text="1\n",
        expected="1\n",
        limits=LIMITS,
        judge=partial(judge_interaction, LIMITS),
    )


def _pass(cpu: float, wall: float, rss: int, exit_code: int, text: str) -> CaseOutcome:
    result = ExecutionResult(exit_code=exit_code, cpu_ms=cpu, wall_ms=wall, peak_rss_kb=rss)
    return CaseOutcome(result, ACCEPTED, text)


def test_a_multi_pass_outcome_keeps_each_pass_beside_their_combination() -> None:
    run = CaseRun(_program(), KattisValidator(), interactive=False, passes=3)
    passes = [_pass(10, 20, 300, 0, "a"), _pass(30, 5, 100, 1, "b")]
    done = run._done(passes, CheckResult(Verdict.WA, "no"))
    assert done.passes == tuple(passes)
    assert (done.result.cpu_ms, done.result.wall_ms, done.result.peak_rss_kb) == (30, 25, 300)
    assert done.result.exit_code == 1 and done.result.extra["passes"] == "2"
    assert done.check == CheckResult(Verdict.WA, "pass 2: no")
    assert done.transcript == f"a\n{PASS_MARK}\nb"
    assert passes[1].result.extra == {}  # the pass's own run is not the combination's


def test_a_single_pass_outcome_has_no_pass_list() -> None:
    run = CaseRun(_program(), KattisValidator(), interactive=True)
    done = run._done([_pass(1, 2, 3, 0, "t")], ACCEPTED)
    assert done.passes == () and done.check == ACCEPTED and done.transcript == "t"
    assert "passes" not in done.result.extra


def test_the_request_gives_the_seam_its_submission_and_servers() -> None:
    program, servers = _program(), execute.Servers(fork=False)
    assert entrant(_request(program, servers)) == (program, servers)
    assert entrant(_request(program)) == (program, None)


@pytest.mark.parametrize(
    ("submission", "servers"),
    [("v.py", None), (_program(), "servers")],
    ids=["submission-not-prepared", "servers-not-execute-servers"],
)
def test_a_request_the_seam_cannot_run_is_the_callers_bug(
    submission: object, servers: object
) -> None:
    with pytest.raises(TypeError, match="an interaction"):
        entrant(_request(submission, servers))
