"""BAPCtools' answer validators (`answer_validators/`): each one checks every `.ans` of
data/sample and data/secret, run as `validator testcase.in [answer_validator_args] <
testcase.ans` (exit 42: valid; the arguments of the case's folder or NAME.yaml, as
BAPCtools gives them: not the output validator's). An answer one of them rejects is a
failed check named by its file; the case is still graded. A validator that cannot judge
is one failed check.
(data/invalid_answer: verify.invalid.)"""

from __future__ import annotations

from pipeline.package.case_config import case_file_findings, case_settings
from pipeline.package.checktestdata import unsupported
from pipeline.package.problem import answer_validator_paths, judge_of, test_files
from pipeline.package.spec import FolderSettings, Package
from pipeline.problem.contract import Problem, ValidatorUnavailable
from pipeline.verify.expect import INPUTS, Check
from pipeline.verify.invalid import judging

WHAT = "answers"


def answer_checks(package: Package, problem: Problem, fork: bool = True) -> list[Check]:
    """One failed check per answer an answer validator rejects, else one passing check;
    none where the package has no answer validator."""
    judge = judge_of(problem)
    skipped = [why for why in map(unsupported, answer_validator_paths(package.root)) if why]
    notes = [Check(INPUTS, "answer validator", True, why, skipped=True) for why in skipped]
    if judge is None or not judge.answer_validators:
        return notes
    cases = [(f, path, ans) for f, path, ans in test_files(package) if ans is not None]
    checks: list[Check] = []
    with judging(fork):
        for family, path, ans in cases:
            text = path.read_text(encoding="utf-8", errors="replace")
            answer = ans.read_text(encoding="utf-8", errors="replace")
            folder = package.folders.get(family, FolderSettings())
            flags = case_settings(package, path, folder).answer_flags
            try:
                why = judge.validate_answer(text, answer, flags)
            except ValidatorUnavailable as exc:
                return [*checks, Check(INPUTS, WHAT, False, f"cannot judge: {exc}")]
            if why:
                rel = ans.relative_to(package.root).as_posix()
                checks.append(Check(INPUTS, f"answer {rel}", False, f"rejected: {why[0]}"))
    if not checks:
        n = len(judge.answer_validators)
        detail = f"{len(cases)} answers, {n} answer validator{'' if n == 1 else 's'}"
        checks.append(Check(INPUTS, WHAT, True, f"every answer is valid: {detail}"))
    return checks + notes


def case_file_checks(package: Package) -> list[Check]:
    """One warning per key of a case's NAME.yaml the format does not define (or of the
    wrong type, where no verdict depends on it): the format asks for an error, BAPCtools
    warns; `verify --strict` fails it."""
    found = case_file_findings(package)
    return [Check(INPUTS, "test case file", True, why, warning=True) for why in found]
