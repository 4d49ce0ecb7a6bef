"""The Kattis / ICPC output validator: `validator input answer feedback_dir [flags] <
team_output`; exit 42 accepted, 43 wrong answer, anything else JE. The feedback dir is the
run's scratch dir: `judgemessage.txt` is the verdict's message, `teammessage.txt` is kept
after it (`team: ...`), and on a scoring problem an accepted case's `score.txt` is its
score. The 2023-07 format and later read score.txt as a multiplier of the case's maximum
score, in [0, 1]; the legacy format as the case's score itself, in place of its
`accept_score` (so score / accept_score of its full score).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pipeline.outcome import ExecutionResult
from pipeline.package.protocols.contract import (
    ANSWER,
    INPUT,
    Case,
    Invocation,
    abnormal,
    judge_error,
    one_line,
    undefined_exit,
)
from pipeline.problem.checkers import ACCEPTED, CheckResult
from pipeline.schemas import Verdict

ACCEPT_EXIT, REJECT_EXIT = 42, 43
JUDGE_MESSAGE, TEAM_MESSAGE, SCORE = "judgemessage.txt", "teammessage.txt", "score.txt"


@dataclass(frozen=True)
class KattisValidator:
    scoring: bool = False  # score.txt is read (type: scoring)
    bounded: bool = True  # 2023-07 and later: score.txt is a multiplier in [0, 1]
    name: str = "kattis"
    what: str = "output validator"

    def invocation(self, case: Case) -> Invocation:
        return Invocation(
            files={INPUT: case.input_text.encode(), ANSWER: case.answer.encode()},
            args=[INPUT, ANSWER, "./", *case.flags],
            stdin=case.output.encode(),
            read_back=(JUDGE_MESSAGE, TEAM_MESSAGE, SCORE),
        )

    def verdict(self, result: ExecutionResult, case: Case) -> CheckResult:
        broken = abnormal(result, self.what)
        if broken is not None:
            return judge_error(broken)
        message = _message(result)
        if result.exit_code == REJECT_EXIT:
            return CheckResult(Verdict.WA, message)
        if result.exit_code != ACCEPT_EXIT:
            return undefined_exit(self.what, result)
        written = result.files.get(SCORE)
        if not self.scoring or written is None:
            return CheckResult(Verdict.AC, message) if message else ACCEPTED
        return self._scored(written, message, case)

    def _scored(self, written: bytes, message: str, case: Case) -> CheckResult:
        try:
            value = float(written.split()[0])
        except (ValueError, IndexError):
            return judge_error(f"{self.what} wrote {SCORE} without a number: {one_line(written)}")
        top = 1.0 if self.bounded else math.inf
        if not 0.0 <= value <= top:
            within = "[0, 1]" if self.bounded else "[0, inf)"
            return judge_error(f"{self.what} wrote {SCORE} {value:g}, outside {within}")
        fraction = value / case.score_unit if case.score_unit > 0 else 1.0
        return CheckResult(Verdict.AC, message, fraction)


def _message(result: ExecutionResult) -> str:
    judge = one_line(result.files.get(JUDGE_MESSAGE, b""))
    team = one_line(result.files.get(TEAM_MESSAGE, b""))
    return (
        f"{judge} | team: {team}"
        if team and judge
        else (judge or (f"team: {team}" if team else ""))
    )
