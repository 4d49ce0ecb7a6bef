"""What every checker protocol of a package is: how a checker program is called on one
case (the files it gets, its arguments, its stdin, the files read back) and what its run
means (`verdict`). `pipeline.package.programs.run_checker` runs it; nothing else needs to
know which protocol it is.

A run that is no answer at all (the judge failed, the checker crashed, ran out of time
or memory) is JE under every protocol: the judge failed, not the submission.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from pipeline.outcome import ExecutionResult
from pipeline.problem.checkers import CheckResult
from pipeline.schemas import Verdict

MESSAGE_CHARS = 500
# the names of the files a checker is given, in its scratch dir
INPUT, ANSWER, OUTPUT = "testcase.in", "testcase.ans", "team.out"


@dataclass(frozen=True)
class Case:
    """One case as a checker sees it. `score_unit`: what a score the checker writes is
    worth as a fraction of the case's full score is score / score_unit (the legacy
    Kattis format's `accept_score`; 1 where the checker writes the fraction itself)."""

    input_text: str
    answer: str
    output: str
    flags: tuple[str, ...] = ()
    score_unit: float = 1.0


@dataclass(frozen=True)
class Invocation:
    """How a checker program runs on one case."""

    files: dict[str, bytes]
    args: list[str]
    stdin: bytes = b""
    read_back: tuple[str, ...] = ()


class CheckerProtocol(Protocol):
    """One checker protocol (Kattis output validator, testlib checker...)."""

    @property
    def name(self) -> str: ...

    @property
    def what(self) -> str:
        """How its program is named in a message: "output validator", "checker"."""
        ...

    def invocation(self, case: Case) -> Invocation: ...

    def verdict(self, result: ExecutionResult, case: Case) -> CheckResult: ...


def one_line(data: bytes) -> str:
    return " ".join(data.decode("utf-8", "replace").split())[:MESSAGE_CHARS]


def abnormal(result: ExecutionResult, what: str) -> str | None:
    """Why a run of a judge program is no answer at all, or None."""
    if result.judge_error:
        return f"{what}: {result.judge_error}"
    if result.cpu_exceeded or result.wall_exceeded:
        return f"{what} ran out of time"
    if result.memory_exceeded:
        return f"{what} ran out of memory"
    if result.signal:
        return f"{what} was killed by signal {result.signal}: {one_line(result.stderr_head)}"
    return None


def judge_error(message: str) -> CheckResult:
    return CheckResult(Verdict.JE, message[:MESSAGE_CHARS])


def undefined_exit(what: str, result: ExecutionResult, says: str | None = None) -> CheckResult:
    """JE for an exit code the protocol does not define (or `says` what it means)."""
    said = says or f"exit code {result.exit_code}"
    return judge_error(f"{what} {said}: {one_line(result.stderr_head)}")
