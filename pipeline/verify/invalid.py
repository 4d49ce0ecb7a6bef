"""The package's validators tried on what the package says is wrong or right, as
BAPCtools validates its `data/invalid_*` and `data/valid_output` (the 2025-09 format
defines `invalid_input`, `invalid_output` and `valid_output`; `invalid_answer` is
BAPCtools'). Each case gets the validator arguments of its folder's settings file, or of
its own `NAME.yaml` (case_config.py).

- `data/invalid_input/NAME.in`: rejected by at least one input validator.
- `data/invalid_answer/NAME.in` + `.ans`: the input valid, and the answer rejected by
  an answer validator, or by the output validator reading it as an output in strict
  mode (flags `case_sensitive space_change_sensitive`; not on an interactive or
  multi-pass problem, which has no single output).
- `data/invalid_output/NAME.in` + `.ans` + `.out`: the input valid, and the output
  rejected by the output validator (a non-interactive, single-pass problem only, as the
  format says).
- `data/valid_output/NAME.in` + `.ans` + `.out`, and a case of data/sample or
  data/secret with a `.out`: the input valid, and the output accepted by the output
  validator (the same problems only).

A case that gets through (or a valid output that is rejected) is a failed check, named
by its file: the validators let through what they are there to stop, or stop what they
must let through. A validator that cannot judge (it does not
build, it crashes out of its limits) is one failed check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from pipeline.package.case_config import case_settings
from pipeline.package.case_files import case_name
from pipeline.package.problem import PackageJudge, judge_of
from pipeline.package.spec import GRADED_FOLDERS, FolderSettings, Package, folder_settings
from pipeline.problem.contract import Problem, ValidatorUnavailable
from pipeline.program import execute
from pipeline.schemas import Verdict
from pipeline.verify.expect import INPUTS, Check

INVALID_INPUT, INVALID_ANSWER, INVALID_OUTPUT = "invalid_input", "invalid_answer", "invalid_output"
VALID_OUTPUT = "valid_output"
STRICT = ("case_sensitive", "space_change_sensitive")  # an answer read as an output
OUTPUT_SUFFIX = ".out"


class InvalidCase(NamedTuple):
    rel: str  # the .in file, from the package's root
    path: Path
    settings: FolderSettings

    def text(self, suffix: str = ".in") -> str | None:
        """The case's file with `suffix` (.in, .ans, .out), or None without one."""
        path = self.path.with_name(case_name(self.path) + suffix)
        return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None


# one case -> why it is a failure (None: rejected as it must be); raises ValidatorUnavailable
Judged = Callable[[PackageJudge, InvalidCase], str | None]


@contextmanager
def judging(fork: bool) -> Iterator[None]:
    """The judge's programs run from fork servers (`fork`), else spawned."""
    servers = execute.Servers(fork=fork)
    try:
        with execute.judging_with(servers):
            yield
    finally:
        servers.close()


def invalid_cases(package: Package, kind: str) -> list[InvalidCase]:
    """Every case of data/`kind` in name order, with its settings; for valid_output, first
    every case of data/sample and data/secret with a `.out` (the 2025-09 format asks that
    those pass the output validator too, and bt checks them so)."""
    tops = (*GRADED_FOLDERS, kind) if kind == VALID_OUTPUT else (kind,)
    settings = folder_settings(package, tops)
    out = []
    for top in tops:
        folder = package.data / top
        for path in sorted(p for p in folder.rglob("*.in") if p.is_file()):
            if top != kind and not path.with_name(case_name(path) + OUTPUT_SUFFIX).is_file():
                continue
            family = path.parent.relative_to(package.data).as_posix()
            mine = case_settings(package, path, settings.get(family, FolderSettings()))
            out.append(InvalidCase(path.relative_to(package.root).as_posix(), path, mine))
    return out


def invalid_checks(package: Package, problem: Problem, fork: bool = True) -> list[Check]:
    """The checks of data/invalid_input, invalid_answer, invalid_output and valid_output
    (none for a folder the package does not have)."""
    judge = judge_of(problem)
    if judge is None:
        return []
    with judging(fork):
        return [
            *_checked(judge, INVALID_INPUT, "invalid inputs", _input_got_through),
            *_checked(judge, INVALID_ANSWER, "invalid answers", _answer_got_through),
            *_checked(judge, INVALID_OUTPUT, "invalid outputs", _output_got_through),
            *_checked(judge, VALID_OUTPUT, "valid outputs", _output_rejected),
        ]


def _checked(judge: PackageJudge, kind: str, what: str, got_through: Judged) -> list[Check]:
    """One failed check per case of data/`kind` that gets through; else one passing
    check, or none without the folder."""
    cases = invalid_cases(judge.package, kind)
    if not cases:
        return []
    skipped = _not_checkable(judge, kind)
    if skipped is not None:
        return [Check(INPUTS, what, True, f"{len(cases)} {what} not checked: {skipped}", True)]
    checks: list[Check] = []
    for case in cases:
        try:
            why = got_through(judge, case)
        except ValidatorUnavailable as exc:
            return [*checks, Check(INPUTS, what, False, f"cannot judge: {exc}")]
        if why is not None:
            checks.append(Check(INPUTS, f"{what[:-1]} {case.rel}", False, why))
    if not checks:
        as_it_must = "accepted" if kind == VALID_OUTPUT else "rejected"
        checks.append(Check(INPUTS, what, True, f"each of {len(cases)} {what} is {as_it_must}"))
    return checks


def _not_checkable(judge: PackageJudge, kind: str) -> str | None:
    package = judge.package
    if kind == INVALID_INPUT and not judge.validators:
        return "the package has no input validator"
    if kind in (INVALID_OUTPUT, VALID_OUTPUT) and (package.interactive or package.passes > 1):
        return "an interactive or multi-pass problem has no single output to judge"
    return None


def _input_got_through(judge: PackageJudge, case: InvalidCase) -> str | None:
    rejected = judge.validate_with(case.text() or "", case.settings.input_flags)
    return None if rejected else "accepted by every input validator: it must be rejected"


def _valid_input(judge: PackageJudge, case: InvalidCase) -> tuple[str, str | None]:
    """The input, and why it is a failure (no answer, an input the validators reject)."""
    text, answer = case.text() or "", case.text(".ans")
    if answer is None:
        return text, "no .ans beside it"
    why = judge.validate_with(text, case.settings.input_flags)
    return text, None if not why else f"its input must be valid: {why[0]}"


def _answer_got_through(judge: PackageJudge, case: InvalidCase) -> str | None:
    text, why = _valid_input(judge, case)
    if why is not None:
        return why
    answer, flags = case.text(".ans") or "", case.settings.output_flags
    if judge.validate_answer(text, answer, case.settings.answer_flags):
        return None
    package = judge.package
    if package.interactive or package.passes > 1:
        return "accepted by every answer validator: it must be rejected"
    try:
        got = judge.check_with(text, answer, answer, (*flags, *STRICT), case.settings.accept_score)
    except ValueError as exc:  # a flag the default output validator does not know
        return f"default output validator: {exc}"
    if got.verdict == Verdict.JE:
        raise ValidatorUnavailable(got.message)
    if got.verdict != Verdict.AC:
        return None
    return "accepted by every answer validator and by the output validator: it must be rejected"


def _output_verdict(judge: PackageJudge, case: InvalidCase) -> tuple[Verdict | None, str | None]:
    """The output validator's verdict on the case's `.out`, or None and why the case
    cannot be judged (no .ans or .out, an input the input validators reject)."""
    if case.text(OUTPUT_SUFFIX) is None:
        return None, "needs its .ans and .out beside it"
    text, why = _valid_input(judge, case)
    if why is not None:
        return None, why
    answer, output = case.text(".ans") or "", case.text(OUTPUT_SUFFIX) or ""
    flags, unit = case.settings.output_flags, case.settings.accept_score
    try:
        got = judge.check_with(text, answer, output, flags, unit)
    except ValueError as exc:
        return None, f"default output validator: {exc}"
    if got.verdict == Verdict.JE:
        raise ValidatorUnavailable(got.message)
    return got.verdict, got.message


def _output_got_through(judge: PackageJudge, case: InvalidCase) -> str | None:
    verdict, why = _output_verdict(judge, case)
    if verdict is None:
        return why
    if verdict != Verdict.AC:
        return None
    return "its .out is accepted by the output validator: it must be rejected"


def _output_rejected(judge: PackageJudge, case: InvalidCase) -> str | None:
    verdict, why = _output_verdict(judge, case)
    if verdict is None:
        return why
    if verdict == Verdict.AC:
        return None
    first = (why or "").strip().splitlines()[:1]
    said = f" ({first[0][:120]})" if first else ""
    got = Verdict(verdict).value
    return f"its .out is {got} by the output validator{said}: it must be accepted"
