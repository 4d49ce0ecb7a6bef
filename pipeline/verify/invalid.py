"""`data/invalid_input`: inputs the package says are wrong, each of which its input
validators must reject (with the flags of its folder's settings file), or the validators
let through what they are there to stop. (The answer validators' `invalid_answer` cases
are not checked yet.)"""

from __future__ import annotations

from pipeline.package.problem import judge_of
from pipeline.package.programs import Program, run_input_validator
from pipeline.package.spec import Package, folder_settings
from pipeline.problem.contract import Problem, ValidatorUnavailable
from pipeline.verify.expect import INPUTS, Check

INVALID_INPUT = "invalid_input"


def invalid_input_checks(package: Package, problem: Problem) -> list[Check]:
    """One failed check per invalid input that every input validator accepts; else one
    passing check, or none without data/invalid_input."""
    folder = package.data / INVALID_INPUT
    cases = sorted(folder.rglob("*.in")) if folder.is_dir() else []
    judge = judge_of(problem)
    if not cases or judge is None:
        return []
    if not judge.validators:
        why = f"{len(cases)} invalid inputs not checked: the package has no input validator"
        return [Check(INPUTS, "invalid inputs", True, why, skipped=True)]
    settings = folder_settings(package, (INVALID_INPUT,))
    checks: list[Check] = []
    for path in cases:
        rel = path.relative_to(package.root).as_posix()
        family = path.parent.relative_to(package.data).as_posix()
        flags = settings[family].input_flags if family in settings else ()
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            rejected = _rejected(judge.validators, text, flags)
        except ValidatorUnavailable as exc:
            return [*checks, Check(INPUTS, "invalid inputs", False, f"cannot judge: {exc}")]
        if not rejected:
            detail = "accepted by every input validator: it must be rejected"
            checks.append(Check(INPUTS, f"invalid input {rel}", False, detail))
    if not checks:
        detail = f"each of {len(cases)} invalid inputs is rejected"
        checks.append(Check(INPUTS, "invalid inputs", True, detail))
    return checks


def _rejected(validators: list[Program], text: str, flags: tuple[str, ...]) -> bool:
    for program in validators:
        failure = program.failure()
        if failure is not None:
            raise ValidatorUnavailable(failure)
        if run_input_validator(program.prepared(), text, flags) is not None:
            return True
    return False
