"""A problem package folder as a Problem: the problem source that the registry
(pipeline.problem.registry, entry-point group gridjudge.problem_sources) offers every
name that is no plugin's. The Problem's name is the package folder's absolute path: the
string a corpus manifest records and a Ray worker resolves again.

It has no reference solver (the expected answers are the package's .ans files) and no
generator. Its `validate` runs every input validator; its `check` is the default output
validator, or the package's own output validator or testlib checker (programs.py).
Validator flags are per test data folder; `check` and `validate` see only the texts of a
case, so where folders' flags differ a case's flags are found by the hash of its input
(and answer): the format itself holds cases with the same input, answer and flags to be
the same case.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pipeline.outcome import ExecutionResult
from pipeline.package.case_config import case_settings
from pipeline.package.case_files import answer_of
from pipeline.package.checktestdata import unsupported
from pipeline.package.default_validator import Options, compare, parse_flags
from pipeline.package.includes import read_includes
from pipeline.package.interactive import CaseRun
from pipeline.package.programs import (
    PackageProgram,
    is_program_folder,
    program_paths,
    run_answer_validator,
    run_checker,
    run_input_validator,
)
from pipeline.package.protocols import protocol_for
from pipeline.package.protocols.contract import Case, CheckerProtocol
from pipeline.package.spec import (
    GRADED_FOLDERS,
    FolderSettings,
    Package,
    PackageError,
    is_package,
    read_package,
)
from pipeline.package.validator_args import NO_INPUT_ARGS, InputArgs
from pipeline.problem.checkers import CheckResult
from pipeline.problem.contract import (
    CaseOutcome,
    InteractRequest,
    Problem,
    ValidatorUnavailable,
)
from pipeline.schemas import Verdict

INPUT_VALIDATOR_DIRS = ("input_validators", "input_format_validators", "input_validator")
ANSWER_VALIDATORS = "answer_validators"  # BAPCtools': each checks every .ans (verify only)
NEW_OUTPUT_VALIDATOR = "output_validator"  # 2023-07 and later: the folder is the program


def input_validator_paths(root: Path) -> list[Path]:
    """Every input validator of the package at `root`, those gridjudge cannot run too."""
    return [p for d in INPUT_VALIDATOR_DIRS for p in program_paths(root / d)]


def answer_validator_paths(root: Path) -> list[Path]:
    return program_paths(root / ANSWER_VALIDATORS)


def test_files(package: Package) -> list[tuple[str, Path, Path | None]]:
    """(family, .in, .ans or None) of every graded test case (data/sample, data/secret
    and their groups; symlinked files are followed)."""
    out = []
    for name in GRADED_FOLDERS:
        folder = package.data / name
        for path in sorted(folder.rglob("*.in")) if folder.is_dir() else []:
            if path.is_file():
                ans = answer_of(path)
                family = path.parent.relative_to(package.data).as_posix()
                out.append((family, path, ans if ans.is_file() else None))
    return out


def _digest(*texts: str) -> bytes:
    h = hashlib.sha256()
    for text in texts:
        h.update(text.encode() + b"\0")
    return h.digest()


def fingerprint(package: Package) -> str:
    """A hash of what defines the package's judging: its YAML files and its programs."""
    h = hashlib.sha256()
    roots = [package.root / d for d in INPUT_VALIDATOR_DIRS] + package.output_validator_dirs()
    files = [package.root / "problem.yaml", package.root / ".timelimit"]
    # the folders' settings files and the cases' own (case_config.py)
    files += sorted(package.data.rglob("*.yaml")) if package.data.is_dir() else []
    files += [p for r in roots if r.is_dir() for p in sorted(r.rglob("*")) if p.is_file()]
    for path in files:
        if path.is_file():
            h.update(path.relative_to(package.root).as_posix().encode() + b"\0")
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return " package " + h.hexdigest()[:16]


@dataclass
class PackageJudge:
    """What `validate` and `check` of a package Problem call."""

    package: Package
    validators: list[PackageProgram]
    checker: PackageProgram | None
    protocol: CheckerProtocol
    options: dict[tuple[str, ...], Options] = field(default_factory=dict)
    input_flags: dict[bytes, InputArgs] = field(default_factory=dict)
    output_flags: dict[bytes, tuple[str, ...]] = field(default_factory=dict)
    # the flags of a case not in the maps above (every case, where all folders agree)
    default_input: InputArgs = NO_INPUT_ARGS
    default_output: tuple[str, ...] = ()
    # legacy scoring: a case's accept_score (what its checker's score.txt is worth)
    score_units: dict[bytes, float] = field(default_factory=dict)
    default_unit: float = 1.0
    # a testlib interactive problem's checker, run on what the interactor wrote
    testlib_checker: PackageProgram | None = None
    answer_validators: list[PackageProgram] = field(default_factory=list)

    def validate(self, text: str) -> list[str]:
        flags = self.default_input
        if self.input_flags:  # folders' flags differ: this input's
            flags = self.input_flags.get(_digest(text), flags)
        return self.validate_with(text, flags)

    def validate_with(self, text: str, flags: InputArgs) -> list[str]:
        """Why the input validators reject `text` given `flags` (the first that does),
        or nothing."""
        for program in self.validators:
            failure = program.failure()
            if failure is not None:
                raise ValidatorUnavailable(failure)
            why = run_input_validator(program.prepared(), text, flags.of(program.path))
            if why is not None:
                return [why]
        return []

    def validate_answer(self, input_text: str, answer: str, flags: InputArgs) -> list[str]:
        """Why the answer validators reject `answer` to `input_text` (the first that
        does; `flags`: each one's arguments, the case's `answer_validator_args` as
        BAPCtools gives them), or nothing."""
        for program in self.answer_validators:
            failure = program.failure()
            if failure is not None:
                raise ValidatorUnavailable(failure)
            args = flags.of(program.path)
            why = run_answer_validator(program.prepared(), input_text, answer, args)
            if why is not None:
                return [why]
        return []

    def interact(self, request: InteractRequest) -> CaseOutcome:
        """One case of an interactive or multi-pass package (the Problem's `interact`)."""
        assert self.checker is not None  # such a package has its own validator (spec.py)
        expected = request.expected or ""
        flags, unit = self.case_flags(request.input_text, expected)
        case = Case(request.input_text, expected, "", flags, unit)
        for program in (self.checker, self.testlib_checker):
            why = None if program is None else program.failure()
            if why is not None:
                return CaseOutcome(ExecutionResult(), CheckResult(Verdict.JE, why))
        after = self.testlib_checker.prepared() if self.testlib_checker else None
        run = CaseRun(
            self.checker.prepared(),
            self.protocol,
            self.package.interactive,
            self.package.passes,
            checker=after,
        )
        return run.run(request, case)

    def case_flags(self, input_text: str, expected: str) -> tuple[tuple[str, ...], float]:
        """The output validator's flags and the accept score of the case with these texts
        (its folder's, where folders differ)."""
        flags, unit = self.default_output, self.default_unit
        if self.output_flags or self.score_units:  # folders differ: this case's, by its texts
            digest = _digest(input_text, expected)
            flags = self.output_flags.get(digest, flags)
            unit = self.score_units.get(digest, unit)
        return flags, unit

    def check(self, input_text: str, expected: str, actual: str) -> CheckResult:
        flags, unit = self.case_flags(input_text, expected)
        return self.check_with(input_text, expected, actual, flags, unit)

    def check_with(
        self, input_text: str, expected: str, actual: str, flags: tuple[str, ...], unit: float
    ) -> CheckResult:
        """`actual` judged by the output validator given `flags` (raises ValueError for
        a flag the default validator does not know)."""
        if self.checker is None:
            options = self.options[flags] if flags in self.options else parse_flags(flags)
            return compare(expected, actual, options)
        why = self.checker.failure()
        if why is not None:
            return CheckResult(Verdict.JE, why)
        case = Case(input_text, expected, actual, flags, unit)
        return run_checker(self.checker.prepared(), self.protocol, case)


def _checker(package: Package) -> tuple[PackageProgram | None, PackageProgram | None]:
    """The output validator (the interactor of an interactive problem) and, on a testlib
    interactive problem, the checker beside its interactor (named `checker*`), if any."""
    if not package.custom:
        return None, None
    found = output_programs(package)
    if package.interactive and package.protocol == "testlib" and len(found) == 2:
        checkers = [p for p in found if p.name.startswith("checker")]
        if len(checkers) == 1:
            interactor = next(p for p in found if p != checkers[0])
            constants = package.constants
            return PackageProgram(interactor, constants), PackageProgram(checkers[0], constants)
    if len(found) != 1:
        dirs = package.output_validator_dirs()
        where = next((d for d in dirs if d.is_dir()), dirs[0])
        raise PackageError(
            f"{where}: validation is custom: expected one output validator, found {len(found)}"
        )
    return PackageProgram(found[0], package.constants), None


def output_programs(package: Package) -> list[Path]:
    """The programs of the output validator folders: legacy `output_validators/` holds
    programs (each file or folder); 2023-07's `output_validator/` is one program, the
    folder itself, all its sources compiled together (a `validate.cc` with its
    `validate.h`), unless it holds only folders (then each is one, as before)."""
    # a testlib interactor and its checker are two programs, wherever they are
    pair = package.interactive and package.protocol == "testlib"
    found: list[Path] = []
    for folder in package.output_validator_dirs():
        if folder.name == NEW_OUTPUT_VALIDATOR and is_program_folder(folder) and not pair:
            found.append(folder)
        else:
            found += program_paths(folder)
    return found


def _per_case_flags(judge: PackageJudge) -> None:
    """Where test data folders' flags differ, each case's flags by the hash of its texts;
    every set of default validator flags parsed (an unknown flag fails here)."""
    package = judge.package
    folders = package.folders
    cases = [(p, a, case_settings(package, p, folders[f])) for f, p, a in test_files(package)]
    settings: list[FolderSettings] = [s for _, _, s in cases] or list(folders.values())
    sets = {s.output_flags for s in settings} | {package.validator_flags}
    if judge.checker is None:
        for flags in sets:
            try:
                judge.options[flags] = parse_flags(flags)
            except ValueError as exc:
                raise PackageError(f"{package.root}: default output validator: {exc}") from None
    outputs = {s.output_flags for s in settings} or {package.validator_flags}
    inputs = {s.input_flags for s in settings} or {NO_INPUT_ARGS}
    units = {s.accept_score for s in settings} if package.legacy else {1.0}
    judge.default_output = next(iter(outputs)) if len(outputs) == 1 else package.validator_flags
    judge.default_input = next(iter(inputs)) if len(inputs) == 1 else NO_INPUT_ARGS
    judge.default_unit = next(iter(units)) if len(units) == 1 else 1.0
    if len(outputs) == 1 and len(inputs) == 1 and len(units) <= 1:
        return
    for path, ans, case in cases:
        text = path.read_text(encoding="utf-8", errors="replace")
        judge.input_flags[_digest(text)] = case.input_flags
        if ans is not None:
            answer = ans.read_text(encoding="utf-8", errors="replace")
            judge.output_flags[_digest(text, answer)] = case.output_flags
            if len(units) > 1:
                judge.score_units[_digest(text, answer)] = case.accept_score


def judge_of(problem: Problem) -> PackageJudge | None:
    """The judge of a problem package_problem made (its `check` is the judge's bound
    method), else None: verify feeds that judge's output validator directly."""
    judge = getattr(problem.check, "__self__", None)
    return judge if isinstance(judge, PackageJudge) else None


def package_problem(root: Path) -> Problem:
    """The Problem of the package at `root` (an absolute path)."""
    package = read_package(root)
    programs = [
        [PackageProgram(p, package.constants) for p in paths(root) if unsupported(p) is None]
        for paths in (input_validator_paths, answer_validator_paths)
    ]
    validators, answers = programs
    checker, after = _checker(package)
    for program in [*validators, *answers, *(p for p in (checker, after) if p is not None)]:
        program.check_spec()
    if package.passes > 1 and package.protocol == "testlib":
        raise PackageError(f"{root}: a multi-pass problem with a testlib checker is not supported")
    protocol = protocol_for(
        package.protocol,
        scoring=package.scoring,
        bounded=not package.legacy,
        interactive=package.interactive,
    )
    judge = PackageJudge(
        package, validators, checker, protocol, testlib_checker=after, answer_validators=answers
    )
    _per_case_flags(judge)
    special = package.interactive or package.passes > 1
    return Problem(
        name=str(root),
        title=package.title,
        limits=package.limits,
        validate=judge.validate,
        check=judge.check,
        trusts_expected=checker is None,
        validate_on_import=True,
        fingerprint=fingerprint(package),
        io=package.io,
        interact=judge.interact if special else None,
        includes=read_includes(package),
    )


@cache
def _cached(root: str) -> Problem:
    return package_problem(Path(root))


def load(name: str) -> Problem | None:
    """The problem source of the registry: the package at path `name`, or None when
    `name` is no package folder."""
    path = Path(name).expanduser()
    if not is_package(path):
        return None
    return _cached(str(path.resolve()))
