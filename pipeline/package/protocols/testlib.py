"""The testlib checker (Codeforces / Polygon): `checker input output answer`; its message
is what it wrote on stderr. Exit 0 OK, 1 WA, 2 PE (and testlib's other wrong-format
codes, 4 and 8), 3 FAIL (JE: the checker says the judge's data is wrong).

Points: `quitp(p, ...)` exits 7 with `points p ...` on stderr; `quitf(_pc(k), ...)` exits
16 + k (testlib's default base), a partially correct answer. gridjudge reads p as the
case's score as a fraction of its full score (so 0 <= p <= 1) and k as a percentage
(0 <= k <= 100); a case with full points is AC, any less is WA with that score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.outcome import ExecutionResult
from pipeline.package.protocols.contract import (
    ANSWER,
    INPUT,
    OUTPUT,
    Case,
    Invocation,
    abnormal,
    judge_error,
    one_line,
    undefined_exit,
)
from pipeline.problem.checkers import ACCEPTED, CheckResult
from pipeline.schemas import Verdict

EXITS = {0: Verdict.AC, 1: Verdict.WA, 2: Verdict.PE, 4: Verdict.PE, 8: Verdict.PE}
FAIL, POINTS, PARTIALLY = 3, 7, 16
_POINTS = re.compile(r"^\s*(?:points\s+)?([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")


@dataclass(frozen=True)
class TestlibChecker:
    name: str = "testlib"
    what: str = "checker"

    def invocation(self, case: Case) -> Invocation:
        files = {INPUT: case.input_text.encode(), ANSWER: case.answer.encode()}
        files[OUTPUT] = case.output.encode()
        return Invocation(files=files, args=[INPUT, OUTPUT, ANSWER])

    def verdict(self, result: ExecutionResult, case: Case) -> CheckResult:
        broken = abnormal(result, self.what)
        if broken is not None:
            return judge_error(broken)
        code, message = result.exit_code, one_line(result.stderr_head)
        if code in EXITS:
            verdict = EXITS[code]
            return ACCEPTED if verdict == Verdict.AC else CheckResult(verdict, message)
        if code == FAIL:
            return undefined_exit(self.what, result, "FAIL")
        if code == POINTS:
            found = _POINTS.match(message)
            if found is None:
                return judge_error(f"{self.what} gave points without a number: {message}")
            return self._partial(float(found.group(1)), message)
        if code is not None and PARTIALLY <= code <= PARTIALLY + 100:
            return self._partial((code - PARTIALLY) / 100.0, message)
        return undefined_exit(self.what, result)

    def _partial(self, fraction: float, message: str) -> CheckResult:
        if not 0.0 <= fraction <= 1.0:
            return judge_error(f"{self.what} gave points {fraction:g}, outside [0, 1]: {message}")
        verdict = Verdict.AC if fraction == 1.0 else Verdict.WA
        return CheckResult(verdict, f"partial points: {message}", fraction)
