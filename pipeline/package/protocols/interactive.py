"""Interactors: the judge program that talks with the submission (interact.interact) on
an interactive problem, under the checker contract (contract.CheckerProtocol: how it is
called on a case, what its own run means); `Case.output` is unused, its input is the
submission's output as it comes.

- `KattisInteractor` (the Kattis / ICPC format): the output validator runs as the
  interactor, `validator input answer feedback_dir [flags]`, exit 42 accepted, 43 wrong
  answer, anything else JE, its feedback files as a validator's (kattis.py). On a
  multi-pass problem it may write `nextpass.in` (the next pass's input) to the feedback
  dir; every other file there persists to the next pass.
- `TestlibInteractor` (Polygon): `interactor input tout`, testlib's exit codes (testlib.py);
  what it writes to `tout` is then judged by the package's testlib checker, if it has
  one (`checker input tout answer`).

How the interactor's verdict and the submission's run make the case's verdict is decided
in one place for every protocol (grade.verdict.judge_interaction, as problemtools and the
format rule it): an interactor that fails is JE; one that ended first with a rejection
stands (the submission lost its input and may then crash or hang); else the submission's
time, memory, output and crash; else the interactor's verdict. An interactor that writes
more than the exchange's output limit to the submission is JE.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.outcome import ExecutionResult
from pipeline.package.protocols.contract import ANSWER, INPUT, Case, Invocation, judge_error
from pipeline.package.protocols.kattis import JUDGE_MESSAGE, SCORE, TEAM_MESSAGE, KattisValidator
from pipeline.package.protocols.testlib import TestlibChecker
from pipeline.problem.checkers import CheckResult

NEXT_PASS = "nextpass.in"
# every file the interactor leaves in its feedback dir is read back (multi-pass: they
# persist to the next pass)
EVERY_FILE = "*"
TESTLIB_OUTPUT = "tout"


def flooded(what: str) -> CheckResult:
    """An interactor that wrote more to the submission than the exchange carries (its
    stream was cut, interact.interact): the judge's fault."""
    return judge_error(f"{what} wrote more than the output limit to the submission")


@dataclass(frozen=True)
class KattisInteractor:
    scoring: bool = False
    bounded: bool = True
    name: str = "kattis-interactive"
    what: str = "interactor"

    def invocation(self, case: Case) -> Invocation:
        return Invocation(
            files={INPUT: case.input_text.encode(), ANSWER: case.answer.encode()},
            args=[INPUT, ANSWER, "./", *case.flags],
            read_back=(JUDGE_MESSAGE, TEAM_MESSAGE, SCORE, NEXT_PASS, EVERY_FILE),
        )

    def verdict(self, result: ExecutionResult, case: Case) -> CheckResult:
        if result.output_exceeded:
            return flooded(self.what)
        said = KattisValidator(self.scoring, self.bounded, what=self.what).verdict(result, case)
        if NEXT_PASS in result.files and result.exit_code != 42:
            return judge_error(f"{self.what} wrote {NEXT_PASS} and exited {result.exit_code}")
        return said


@dataclass(frozen=True)
class TestlibInteractor:
    name: str = "testlib-interactive"
    what: str = "interactor"

    def invocation(self, case: Case) -> Invocation:
        return Invocation(
            files={INPUT: case.input_text.encode()},
            args=[INPUT, TESTLIB_OUTPUT],
            read_back=(TESTLIB_OUTPUT,),
        )

    def verdict(self, result: ExecutionResult, case: Case) -> CheckResult:
        if result.output_exceeded:
            return flooded(self.what)
        return TestlibChecker(what=self.what).verdict(result, case)
