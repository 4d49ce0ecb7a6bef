"""The package's output validator fed junk, as problemtools checks it before grading: an
output no submission should get accepted with, on a few cases. A Kattis output validator
that crashes, exits with a code the format does not define, runs out of its limits, or
writes `score.txt` with a WA (which problemtools counts as a judge error: a score on a
rejection) fails the check: a real submission's output can be as broken as the junk.
One that accepts junk that should not pass (an empty output, random bytes, printable
noise) on every case tried is a warning, as in problemtools; junk that could be a real
answer (a bare -1, a long line of digits) is only checked for the crash.

On a 2025-09 package, whose format's tool is BAPCtools (which feeds no junk), a crash or
a score on a rejection is a warning (`verify --strict` fails it), as gridjudge's other
findings stricter than the format's tool.

Only a Kattis output validator of a pass-fail or scoring package is fed: gridjudge's own
default validator is tested with gridjudge, an interactor reads a conversation, not an
output, and a testlib checker has no score.txt.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass, replace
from typing import NamedTuple

from pipeline.outcome import ExecutionResult
from pipeline.package.problem import PackageJudge, judge_of, test_files
from pipeline.package.programs import run_checker
from pipeline.package.protocols.contract import Case, Invocation
from pipeline.package.protocols.kattis import SCORE, KattisValidator
from pipeline.package.spec import Package
from pipeline.package.versions import V2025
from pipeline.problem.checkers import CheckResult
from pipeline.problem.contract import Problem
from pipeline.program import execute
from pipeline.schemas import Verdict
from pipeline.verify.expect import Check

JUNK_CASES = 3  # the first cases, in the format's order, each junk output is tried on
_NOISE = random.Random(36)
# outputs no submission may be accepted with: a validator accepting one on every case
# tried is lenient (a warning)
REJECT = (
    ("an empty output", b""),
    ("1 KiB of random bytes", _NOISE.randbytes(1024)),
    ("printable noise", "".join(_NOISE.choices(string.printable, k=300)).encode()),
)
# outputs a careless validator crashes on, which may still be right answers
NO_CRASH = (
    ("a bare -1", b"-1\n"),
    ("a line of a million digits", b"9" * 1_000_000 + b"\n"),
    ("a NaN", b"NaN\n"),
    ("a NUL byte", b"\x00"),
)
NAME = KIND = "output validator"
NOT_BT = " (a warning on a 2025-09 package: BAPCtools feeds no junk)"


class _Case(NamedTuple):
    case_id: str
    text: str
    answer: str
    flags: tuple[str, ...]
    unit: float


@dataclass
class _Watched:
    """The package's Kattis protocol, noting whether a run wrote score.txt."""

    inner: KattisValidator
    wrote_score: bool = False

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def what(self) -> str:
        return self.inner.what

    def invocation(self, case: Case) -> Invocation:
        return self.inner.invocation(case)

    def verdict(self, result: ExecutionResult, case: Case) -> CheckResult:
        self.wrote_score = SCORE in result.files
        return self.inner.verdict(result, case)


def _judge_of(package: Package, problem: Problem) -> PackageJudge | None:
    """The package's judge where its checker is a Kattis output validator to feed."""
    judge = judge_of(problem)
    if judge is None or judge.checker is None:
        return None
    if package.interactive or package.passes > 1:
        return None
    if judge.checker.failure() is not None:
        return None  # a validator that does not build: every graded case says so (JE)
    return judge


def junk_check(package: Package, problem: Problem, fork: bool = True) -> list[Check]:
    """One check of the output validator on junk outputs (none where there is no Kattis
    output validator to feed)."""
    judge = _judge_of(package, problem)
    protocol = None if judge is None else judge.protocol
    if judge is None or not isinstance(protocol, KattisValidator):
        return []
    cases = []
    for _, path, ans in test_files(package)[:JUNK_CASES]:
        if ans is not None:
            text, answer = path.read_text(errors="replace"), ans.read_text(errors="replace")
            case_id = path.relative_to(package.data).with_suffix("").as_posix()
            cases.append(_Case(case_id, text, answer, *judge.case_flags(text, answer)))
    servers = execute.Servers(fork=fork)
    try:
        with execute.judging_with(servers):
            found = _fed(judge, protocol, cases)
    finally:
        servers.close()
    if package.version == V2025 and not found.ok:
        return [replace(found, ok=True, warning=True, detail=f"{found.detail}{NOT_BT}")]
    return [found]


def _fed(judge: PackageJudge, protocol: KattisValidator, cases: list[_Case]) -> Check:
    """The first junk output the validator fails on, else a pass (a warning for junk it
    accepted on every case)."""
    assert judge.checker is not None
    watched = _Watched(protocol)
    program = judge.checker.prepared()
    lenient = []
    for desc, output in REJECT + NO_CRASH:
        accepted = 0
        for c in cases:
            case = Case(c.text, c.answer, output.decode("utf-8", "replace"), c.flags, c.unit)
            got = run_checker(program, watched, case)
            where = f"{desc} on {c.case_id}"
            if got.verdict == Verdict.JE:
                return Check(KIND, NAME, False, f"{where}: judge error: {got.message}")
            if got.verdict == Verdict.WA and watched.wrote_score:
                why = f"{where}: WA with a {SCORE} (a score on a rejection: a judge error)"
                return Check(KIND, NAME, False, why)
            accepted += got.verdict == Verdict.AC
        if cases and accepted == len(cases) and (desc, output) in REJECT:
            lenient.append(desc)
    n, k = len(REJECT + NO_CRASH), len(cases)
    detail = f"{n} junk outputs on {k} case{'' if k == 1 else 's'}: no crash, no {SCORE} on a WA"
    if lenient:
        detail += f"; accepted on every case: {', '.join(lenient)}"
    return Check(KIND, NAME, True, detail, warning=bool(lenient))
