"""`stress`: random cases until the submission fails one, then shrink it.

Pure library (no Ray): `shrink` is a greedy loop over a predicate, hypothesis-style;
`stress` generates seeded cases, runs the submission, judges it against a reference (a
solver version of the problem, or a second submission: "compare two programs") and, at
the first failure, shrinks the case while the submission keeps the same verdict.
"""

from __future__ import annotations

import functools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from pipeline.errors import GridjudgeError
from pipeline.grade.engine import grade_cases
from pipeline.grade.rows import RowContext
from pipeline.grade.verdict import decide
from pipeline.limits import Limits
from pipeline.problem.checkers import ACCEPTED
from pipeline.problem.contract import Problem
from pipeline.program.submission import PreparedSubmission
from pipeline.schemas import Verdict
from pipeline.stress.shrink import DEFAULT_MAX_STEPS, shrink_trace

HEAD_CHARS = 2000


DEFAULT_SEED = 0
DEFAULT_MAX_CASES = 1000
DEFAULT_TIME_BUDGET_S = 60.0

# (verdict, checker message, expected answer, the submission's output head)
Outcome = tuple[Verdict, str, str, str]


class StressError(GridjudgeError):
    """A stress run that cannot start (bad family, solver, submission); one line."""


@dataclass(frozen=True)
class Failure:
    """The first failing case and its shrunk form, with the verdict on both."""

    index: int  # 0-based number of the case in the run
    family: str
    original: str
    shrunk: str
    verdict: Verdict
    message: str  # the checker's message on the shrunk case
    expected: str  # reference answer on the shrunk case (whole)
    actual: str  # the submission's output on the shrunk case (head)
    original_expected: str
    original_actual: str
    shrink_steps: int
    shrink_tries: int
    shrink_error: str | None = None  # the problem's shrinker raised: shrinking stopped there


@dataclass
class StressResult:
    problem: str
    submission: str
    reference: str  # "solver:<problem>@<version>" or the other submission's label
    seed: int
    cases: int = 0  # cases run (generated, valid, judged)
    verdicts: Counter[str] = field(default_factory=Counter)
    invalid: int = 0  # generated inputs the validator rejected (a generator bug)
    reference_failed: int = 0  # cases where the reference gave no answer
    failure: Failure | None = None
    elapsed_s: float = 0.0
    stopped_by: str = ""  # "failure" | "max_cases" | "time_budget"


def _head(data: bytes | str) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return text[:HEAD_CHARS]


class _Reference:
    """The expected answer of a case: a solver version or another program's output."""

    def __init__(
        self,
        problem: Problem,
        limits: Limits,
        version: str | None,
        other: PreparedSubmission | None,
    ) -> None:
        self.problem, self.limits, self.version, self.other = problem, limits, version, other
        if other is not None:
            self.label = other.label
        else:
            self.label = f"solver:{problem.name}@{version or problem.default_solver}"

    def answer(self, input_text: str) -> str | None:
        if self.other is None:
            try:
                if self.version is not None and not self.problem.version_accepts(
                    self.version, self.problem.parse(input_text)
                ):
                    return None  # a version for small inputs only: no answer for this one
                return self.problem.solve(input_text, self.version)
            except Exception:
                return None
        result = self.other.run(input_text, self.limits)
        if decide(self.limits, result, lambda _: ACCEPTED).verdict != Verdict.AC:
            return None  # it crashed or went over a limit: no answer to compare with
        return result.output.decode("utf-8", "replace")


def _graded(
    problem: Problem, submission: PreparedSubmission, text: str, expected: str, limits: Limits
) -> Outcome:
    """The submission's verdict on one case, by the grading engine."""
    case = {"case_id": "stress", "family": "", "input": text, "expected": expected}
    outcome = grade_cases(
        problem,
        [submission],
        [case],
        limits,
        RowContext("stress", problem.name, 1, ""),
        validate=False,
        keep_outputs=True,
    )
    row = outcome.table.to_pylist()[0]
    output = (outcome.outputs or [None])[0] or b""
    return Verdict(row["verdict"]), row["checker_msg"] or "", expected, _head(output)


def _shrunk_failure(
    problem: Problem,
    verdict_on: Callable[[str], Outcome | None],
    *,
    index: int,
    family: str,
    text: str,
    first: Outcome,
    max_steps: int,
    deadline: float,
) -> Failure:
    """Shrinks `text` while the submission keeps the verdict `first[0]` on it."""
    target = first[0]
    details = {text: first[1:]}

    def still_fails(candidate: str) -> bool:
        got = verdict_on(candidate)
        if got is None or got[0] != target:
            return False
        details[candidate] = got[1:]
        return True

    errors: list[str] = []

    def candidates(current: str) -> Iterator[str]:
        if problem.shrink is None:
            return
        try:
            yield from problem.shrink(current)
        except Exception as exc:  # a shrinker bug: keep the smallest case found so far
            errors.append(f"{type(exc).__name__}: {exc}"[:300])

    shrunk = shrink_trace(
        text,
        still_fails,
        candidates,
        problem.validate,
        max_steps=max_steps,
        deadline=deadline,
    )
    message, expected, actual = details[shrunk.text]
    return Failure(
        index=index,
        family=family,
        original=text,
        shrunk=shrunk.text,
        verdict=target,
        message=message,
        expected=expected,
        actual=actual,
        original_expected=_head(first[2]),
        original_actual=first[3],
        shrink_steps=shrunk.steps,
        shrink_tries=shrunk.tries,
        shrink_error=errors[0] if errors else None,
    )


def _check_setup(
    problem: Problem,
    submission: PreparedSubmission,
    families: Sequence[str],
    version: str | None,
    against: PreparedSubmission | None,
) -> None:
    if problem.generate is None:
        raise StressError(f"problem {problem.name} has no generator: there is nothing to stress")
    unknown = [f for f in families if f not in problem.families]
    if unknown:
        raise StressError(
            f"{problem.name} has no family {unknown[0]!r} (has: {', '.join(problem.families)})"
        )
    if version is not None and version not in problem.solvers:
        raise StressError(
            f"{problem.name} has no solver {version!r} (has: {', '.join(problem.solvers)})"
        )
    if version is not None and against is not None:
        raise StressError("give a reference solver version or a second submission, not both")
    for sub in (submission, against):
        if sub is not None and sub.compile_error is not None:
            first = (sub.compile_error.strip().splitlines() or ["?"])[0]
            raise StressError(f"submission {sub.label!r} did not compile: {first[:200]}")


def stress(
    problem: Problem,
    submission: PreparedSubmission,
    *,
    seed: int = DEFAULT_SEED,
    families: Sequence[str] = (),
    max_cases: int = DEFAULT_MAX_CASES,
    time_budget_s: float = DEFAULT_TIME_BUDGET_S,
    solver: str | None = None,
    against: PreparedSubmission | None = None,
    max_shrink_steps: int = DEFAULT_MAX_STEPS,
    shrink_time_s: float | None = None,
    progress: Callable[[StressResult], None] | None = None,
) -> StressResult:
    """Random cases (case i of family families[i % len]: problem.generate with
    random.Random(f"{seed}:{i}")) until the submission's verdict against the reference is
    not AC, then shrink that case while the submission keeps that same verdict. A JE (the
    judge failed) is counted and never shrunk. `shrink_time_s` defaults to the budget."""
    chosen = list(families) or list(problem.families)
    _check_setup(problem, submission, chosen, solver, against)
    reference = _Reference(problem, problem.limits, solver, against)
    result = StressResult(problem.name, submission.label, reference.label, seed)
    start = last_report = time.monotonic()

    verdict_on = functools.partial(_verdict_on, problem, submission, reference)
    result.stopped_by = "max_cases"
    for index, family, text in _generated(problem, chosen, seed, max_cases):
        if time.monotonic() - start > time_budget_s:
            result.stopped_by = "time_budget"
            break
        if problem.validate(text):
            result.invalid += 1
            continue
        outcome = verdict_on(text)
        if outcome is None:
            result.reference_failed += 1
            continue
        result.cases += 1
        result.verdicts[str(outcome[0])] += 1
        if progress is not None and time.monotonic() - last_report >= 1.0:
            last_report = time.monotonic()
            result.elapsed_s = last_report - start
            progress(result)
        if outcome[0] in (Verdict.AC, Verdict.JE):
            continue
        budget = time_budget_s if shrink_time_s is None else shrink_time_s
        result.failure = _shrunk_failure(
            problem,
            verdict_on,
            index=index,
            family=family,
            text=text,
            first=outcome,
            max_steps=max_shrink_steps,
            deadline=time.monotonic() + budget,
        )
        result.stopped_by = "failure"
        break
    result.elapsed_s = time.monotonic() - start
    return result


def _verdict_on(
    problem: Problem, submission: PreparedSubmission, reference: _Reference, text: str
) -> Outcome | None:
    """The submission's outcome on `text` against the reference's answer (None: the
    reference has no answer for it)."""
    expected = reference.answer(text)
    if expected is None:
        return None
    return _graded(problem, submission, text, expected, problem.limits)


def _generated(
    problem: Problem, families: Sequence[str], seed: int, count: int
) -> Iterator[tuple[int, str, str]]:
    """(index, family, input) of the seeded cases: case i of family families[i % len],
    from random.Random(f"{seed}:{i}")."""
    assert problem.generate is not None  # _check_setup refused a problem without one
    for index in range(count):
        family = families[index % len(families)]
        yield index, family, problem.generate(random.Random(f"{seed}:{index}"), family)
