"""The execution seam's rules (pipeline/program/execute.py), on a scripted sandbox: a
judge error of a spawned run is tried again, a program that cannot be served is spawned
and says why, judge-side programs use the servers of the enclosing block."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from pipeline import sandbox
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.contract import STDIO
from pipeline.program import execute
from pipeline.program.submission import PreparedSubmission
from pipeline.sandbox.fake import FakeCall, FakeSandbox

LIMITS = Limits.from_seconds(1.0)


@dataclass
class Failing:
    """Answers with a judge error `fails` times, then echoes."""

    fails: int

    def __call__(self, call: FakeCall) -> ExecutionResult:
        if self.fails:
            self.fails -= 1
            return ExecutionResult(judge_error="sandbox setup failed")
        return ExecutionResult(exit_code=0, output=call.stdin)


@pytest.fixture
def fake() -> Iterator[FakeSandbox]:
    box = FakeSandbox()
    sandbox.use(box)
    yield box
    sandbox.use(None)


def command(text: str = "cat") -> PreparedSubmission:
    return PreparedSubmission(label="cmd", sha="c" * 64, kind="cmd", problem="p", io=STDIO,
                              command=text)  # fmt: skip


def test_a_judge_error_is_tried_again_before_it_stands(fake: FakeSandbox) -> None:
    fake.respond = Failing(execute.JE_RETRIES)
    result = execute.run(command(), b"7\n", limits=LIMITS)
    assert result.judge_error is None and result.output == b"7\n"
    assert len(fake.calls) == 1 + execute.JE_RETRIES
    fake.respond = Failing(execute.JE_RETRIES + 1)
    assert execute.run(command(), b"7\n", limits=LIMITS).judge_error == "sandbox setup failed"


def test_a_program_that_cannot_be_served_is_spawned_saying_why(fake: FakeSandbox) -> None:
    servers = execute.Servers()
    result = execute.run(command(), b"1\n", limits=LIMITS, servers=servers)
    assert result.extra["runner"] == "spawn (cmd submission)"
    assert servers.started == 0
    plain = execute.run(command(), b"1\n", limits=LIMITS)
    assert plain.extra["runner"] == "spawn"


def test_a_program_that_did_not_compile_never_runs(fake: FakeSandbox) -> None:
    broken = command()
    broken.compile_error = "error: expected ';'"
    assert execute.run(broken, limits=LIMITS).judge_error
    assert fake.calls == []


def test_judge_programs_use_the_servers_of_the_enclosing_block() -> None:
    outer, inner = execute.Servers(), execute.Servers()
    assert execute.current_judge_servers() is None
    with execute.judging_with(outer):
        assert execute.current_judge_servers() is outer
        with execute.judging_with(inner):
            assert execute.current_judge_servers() is inner
        assert execute.current_judge_servers() is outer
    assert execute.current_judge_servers() is None
