"""The Problem plugin contract (docs/decisions.md#d4).

A problem is data plus pure functions: no I/O, no global randomness. Randomness arrives
as a `random.Random`; a generator that wants numpy derives a Generator from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pipeline.errors import GridjudgeError
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult, TranscriptKind
from pipeline.problem.checkers import CheckResult, token_check

Solver = Callable[[Any], Any]
Checker = Callable[[str, str, str], CheckResult]
Generator = Callable[..., str]  # (rng: random.Random, family: str, **params) -> input text


@dataclass(frozen=True)
class IOMode:
    """How a program receives a case. The input is always piped to stdin as well;
    `input_file` is also written into the scratch dir, and `output_file`, if the program
    wrote it, is taken instead of stdout (the classic USACO convention)."""

    input_file: str | None = None
    output_file: str | None = None

    def describe(self) -> str:
        if self.input_file is None and self.output_file is None:
            return "stdin/stdout"
        return f"{self.input_file or 'stdin'} -> {self.output_file or 'stdout'}"


STDIO = IOMode()


# judge(submission's result, the judge program's check, whether the interactor ended
# first) -> the case's verdict: the grading's rule (grade.verdict.judge_interaction)
Judge = Callable[[ExecutionResult, CheckResult, bool], CheckResult]


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    """What one case gives, whatever ran it: the submission's run, its verdict and, of an
    interactive case, what passed between the submission and the judge program (the
    transcript's text: pipeline.program.transcript.Transcript.render). Over several
    passes `result` has the slowest CPU, the largest peak, the summed wall time and the
    last exit, and `passes` holds each pass's own outcome; `batch_size` is how many
    cases the run held (a batch runner's joined run)."""

    result: ExecutionResult
    check: CheckResult
    transcript: str | None = None
    batch_size: int = 1
    passes: tuple[CaseOutcome, ...] = ()


class Submission(Protocol):
    """The submission a request runs, as this floor can name it: a
    pipeline.program.submission.PreparedSubmission, run through the seam by the
    implementer (problems sit below the programs)."""

    @property
    def label(self) -> str: ...


class ForkServers(Protocol):
    """The fork servers the submission's runs are forked from: a
    pipeline.program.execute.Servers, owned (and closed) by the caller."""

    def close(self) -> None: ...


@dataclass(frozen=True)
class InteractRequest:
    """One case of an interactive or multi-pass problem to run and judge: the submission
    with its fork servers, the case's input and expected answer, the submission's limits
    (of each pass), the grading's verdict rule and what transcript to keep ("none"
    joins the two programs' pipes)."""

    submission: Submission
    servers: ForkServers | None
    input_text: str
    expected: str | None
    limits: Limits
    judge: Judge
    transcript: TranscriptKind = "summary"


# how a submission runs on one case of an interactive or multi-pass problem and is judged
Interact = Callable[[InteractRequest], CaseOutcome]


class InvalidInput(ValueError):
    """Raised by `parse` for text that is not a valid input; the message names the rule."""


class ValidatorUnavailable(GridjudgeError):
    """Raised by `validate` when the validator itself could not judge the input (a
    validator program that cannot be built or run): the judge's failure, JE, never IE."""


class NoReferenceSolver(GridjudgeError):
    """The problem has no reference solver: its expected answers must come from the corpus."""


def _unchanged(text: str) -> str:
    return text


def _no_rules(text: str) -> list[str]:
    return []


@dataclass(frozen=True)
class Problem:
    name: str
    title: str
    limits: Limits  # of one case, from the statement
    parse: Callable[[str], Any] = _unchanged
    validate: Callable[[str], list[str]] = _no_rules  # [] = valid; else one message per rule
    # No solvers (a problem package): the expected answers come from the corpus alone.
    solvers: Mapping[str, Solver] = field(default_factory=dict)
    default_solver: str | None = None
    format: Callable[[Any], str] = str
    generate: Generator | None = None  # None: no generator (no `generate`, no `stress`)
    families: Sequence[str] = ()
    # Must accept the reference answer itself (self_test checks it): the grader accepts an
    # output identical to the expected one without calling it, unless trusts_expected is
    # False (a custom output validator may reject the answer file's own text).
    check: Checker = token_check
    trusts_expected: bool = True
    io: IOMode = STDIO
    # How many cases one judge-format file may hold (1 = exactly one).
    multi_case: int = 1
    # Where multi_case > 1: one-case inputs -> one file, and that file's output -> per case.
    join: Callable[[list[str]], str] | None = None
    split: Callable[[str, int], list[str]] | None = None
    # A multi-case input file -> one-case inputs (for `import` of one big file).
    split_input: Callable[[str], list[str]] | None = None
    # Versions that only accept small inputs say so: (parsed input) -> bool.
    accepts: Mapping[str, Callable[[Any], bool]] = field(default_factory=dict)
    # Versions that deliberately read the rules differently (spot's "seed-reading"):
    # excluded from the agreement checks between versions.
    rule_variants: frozenset[str] = frozenset()
    # For `stress`: a one-case input -> smaller candidate inputs, the biggest reductions
    # first. Candidates should be valid; the shrink loop re-validates each anyway.
    shrink: Callable[[str], Iterable[str]] | None = None
    # `import` refuses a corpus with an input `validate` rejects (a package's own data).
    validate_on_import: bool = False
    # What defines the problem besides its Python code (a package's files, hashed): part
    # of the fingerprints of its checker and validator.
    fingerprint: str = ""
    # An interactive or multi-pass problem: how a submission runs on one case and is
    # judged (None: it runs on the input and `check` judges its output)
    interact: Interact | None = None
    # A built-in interactive problem: the source of its judge program, shipped with the
    # plugin and run in the sandbox beside each submission as a Kattis interactor
    # (`judge input answer feedback_dir`, exit 42 / 43). The grading runs a submission
    # against it through the seam (pipeline.package.judged); `interact` stays None.
    judge_program: Path | None = None
    # A problem package's included code (`include/`): language title ("C++") -> (file
    # name, content) pairs laid beside each submission in that language before its
    # build ("*": for a language without its own); see pipeline.program.included
    includes: Mapping[str, tuple[tuple[str, bytes], ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if (self.solvers or self.default_solver) and self.default_solver not in self.solvers:
            raise ValueError(f"{self.name}: default solver {self.default_solver!r} not in solvers")
        if self.multi_case > 1 and (self.join is None or self.split is None):
            raise ValueError(f"{self.name}: multi_case > 1 needs join and split")

    def solve(self, input_text: str, version: str | None = None) -> str:
        """Reference answer for a judge-format input, by solver `version` (default)."""
        return self.answerer(version)(input_text)

    def answerer(self, version: str | None = None) -> Callable[[str], str]:
        """input -> reference answer by solver `version` (default): parse, solve, format,
        with nothing looked up per call (the in-process grading loop calls it per case)."""
        if self.default_solver is None:
            raise NoReferenceSolver(
                f"problem {self.name} has no reference solver: its answers come from the corpus"
            )
        solver, parse, fmt = self.solvers[version or self.default_solver], self.parse, self.format
        return lambda input_text: fmt(solver(parse(input_text)))

    def cases_of(self, input_text: str) -> list[str]:
        """A judge-format file cut into one-case inputs."""
        return self.split_input(input_text) if self.split_input else [input_text]

    def version_accepts(self, version: str, parsed: Any) -> bool:
        test = self.accepts.get(version)
        return True if test is None else test(parsed)


def self_test(problem: Problem, seed: int = 0, per_family: int = 3) -> list[str]:
    """The plugin's self-test: generated inputs validate, every solver version agrees with the
    default, and the default's output passes the problem's own checker. Returns failures."""
    failures: list[str] = []
    rng = random.Random(seed)
    if problem.generate is None or problem.default_solver is None:
        return failures  # nothing to generate or solve (a problem package)
    for family in problem.families:
        for i in range(per_family):
            text = problem.generate(rng, family)
            where = f"{problem.name}/{family}#{i}"
            errors = problem.validate(text)
            if errors:
                failures.append(f"{where}: generated input invalid: {errors[0]}")
                continue
            parsed = problem.parse(text)
            expected = problem.format(problem.solvers[problem.default_solver](parsed))
            verdict = problem.check(text, expected, expected).verdict
            if verdict != "AC":
                failures.append(f"{where}: checker rejects the reference answer ({verdict})")
            for version, solver in problem.solvers.items():
                if version == problem.default_solver or version in problem.rule_variants:
                    continue
                if not problem.version_accepts(version, parsed):
                    continue
                got = problem.format(solver(parsed))
                if problem.check(text, expected, got).verdict != "AC":
                    failures.append(f"{where}: version {version} disagrees with the default")
    return failures
