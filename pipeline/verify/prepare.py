"""What `verify` grades, made ready: the package's inputs through its input validators
into a corpus, and each author submission as a spec in the language problemtools would
run it with."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pipeline.corpus.store import CorpusWriter, validator_fingerprint
from pipeline.errors import GridjudgeError
from pipeline.package.case_files import case_path
from pipeline.package.checktestdata import unsupported
from pipeline.package.constants import program_files
from pipeline.package.includes import DEFAULT, language_folders, unknown_codes
from pipeline.package.problem import input_validator_paths, test_files
from pipeline.package.spec import Package
from pipeline.package.submissions import SUBMISSIONS, ExpectedSubmission
from pipeline.package.versions import V2025
from pipeline.problem.contract import Problem, ValidatorUnavailable
from pipeline.program.build import entry_source
from pipeline.program.languages.problemtools import problemtools_language
from pipeline.program.languages.registry import get_language, missing
from pipeline.program.submission import (
    SubmissionError,
    SubmissionSpec,
    parse_spec,
    read_sources,
)
from pipeline.verify.expect import INPUTS, SUBMISSION, Check

# a file under submissions/ that is a program but no source (a build left in an archive:
# KTH Challenge's `x.cc.bin`, `x.exe`): the format's submissions are sources of a
# language told by the extension, and problemtools passes over such a file
PREBUILT = "a prebuilt executable, no source: not run (problemtools passes over it too)"
# BAPCtools' way to keep a submission out of every run (bt passes over such files)
SET_ASIDE = (".disabled", ".template")
DISABLED = "set aside by its name (.disabled, .template): not run (bt passes over it too)"
PYTHON = frozenset({"py3", "pypy3"})  # what --python replaces


class VerifyError(GridjudgeError):
    """The package cannot be verified at all; one line for the user."""


def label_of(package: Package, sub: ExpectedSubmission) -> str:
    return sub.path.relative_to(package.root / SUBMISSIONS).as_posix()


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise VerifyError(f"{path}: cannot read ({exc})") from None


def validate_inputs(package: Package, problem: Problem, out: Path) -> list[Check]:
    """Every input through the input validators; those accepted (all of them, when the
    validators cannot judge: that is one failed check) written to the corpus `out`."""
    cases = test_files(package)
    if not cases:
        raise VerifyError(f"{package.data}: no test cases in data/sample or data/secret")
    checks: list[Check] = []
    judge = True
    vouch = validator_fingerprint(problem)
    with CorpusWriter(out, problem.name, source=str(package.root), validated_with=vouch) as w:
        for family, path, ans in cases:
            text, rel = _read(path), path.relative_to(package.root).as_posix()
            try:
                why = problem.validate(text) if judge else []
            except ValidatorUnavailable as exc:
                checks.append(Check(INPUTS, "input validators", False, f"cannot judge: {exc}"))
                why, judge = [], False
            if why:
                checks.append(Check(INPUTS, f"input {rel}", False, f"rejected: {why[0]}"))
                continue
            case_id = case_path(path.relative_to(package.data)).as_posix()
            w.add(case_id, family, text, None if ans is None else _read(ans))
    paths = input_validator_paths(package.root)
    skipped = [why for why in map(unsupported, paths) if why is not None]
    if not checks:
        n = len(paths) - len(skipped)
        detail = f"{len(cases)} inputs, {n} input validator{'' if n == 1 else 's'}"
        checks.append(Check(INPUTS, "inputs", True, f"every input is valid: {detail}"))
    checks += [Check(INPUTS, "input validator", True, why, skipped=True) for why in skipped]
    return checks


def include_checks(package: Package) -> list[Check]:
    """One line on a package with included code: what reaches which submissions; a
    legacy package's `include/default` fails (the legacy format has none: problemtools
    errs), a folder naming no language gridjudge runs is a warning."""
    folders = language_folders(package.root)
    if not folders:
        return []
    if package.legacy and DEFAULT in folders:
        why = "include/default: the legacy format has no default includes (2023-07 on)"
        return [Check(SUBMISSION, "included code", False, why)]
    unknown = unknown_codes(package.root)
    names = ", ".join(f"include/{name}" for name in folders)
    if unknown:
        why = f"{names}; {', '.join(unknown)}: no language gridjudge runs, not included"
        return [Check(SUBMISSION, "included code", True, why, warning=True)]
    return [Check(SUBMISSION, "included code", True, f"built with every submission: {names}")]


def specs_of(
    package: Package,
    subs: list[ExpectedSubmission],
    checks: list[Check],
    python: str | None = None,
) -> dict[str, SubmissionSpec]:
    """label -> spec of each submission gridjudge can run (the others are failed checks,
    a prebuilt executable or a set-aside file a skipped one), in the language version
    problemtools would run a single source file with."""
    out = {}
    for sub in subs:
        label = label_of(package, sub)
        if sub.path.suffix in SET_ASIDE:
            checks.append(Check(SUBMISSION, label, True, DISABLED, skipped=True))
            continue
        try:
            spec = _spec(sub, label)
        except SubmissionError as exc:
            checks.append(Check(SUBMISSION, label, False, f"cannot run: {exc}"))
            continue
        if spec.kind == "executable" and sub.path.is_file():
            checks.append(Check(SUBMISSION, label, True, PREBUILT, skipped=True))
            continue
        over = code_check(package, sub.path, label)
        if over is not None:
            checks.append(over)
            if not over.ok:
                continue
        language = problemtools_language(sub.path.suffix) if sub.path.is_file() else None
        if language is not None and spec.language is not None and not _same(language, spec):
            language = None  # submissions.yaml names another language than the extension
        if python is not None and spec.language in PYTHON:
            language = python
        out[label] = spec if language is None else replace(spec, language=language)
    return out


def code_size(path: Path) -> int:
    """A submission's bytes: its file, or every file of its folder (links not followed)."""
    return sum(f.lstat().st_size for f in program_files(path))


def code_check(package: Package, path: Path, label: str) -> Check | None:
    """A submission over `limits.code`: in the legacy and 2023-07 formats a failure, and
    it is not run, as problemtools judges it; in 2025-09 a warning, as BAPCtools gives."""
    kib = code_size(path) / 1024
    if kib <= package.code_kb:
        return None
    why = f"{kib:.1f} KiB of source, over limits.code ({package.code_kb:g} KiB)"
    if package.version == V2025:
        return Check(SUBMISSION, f"code size {label}", True, why, warning=True)
    return Check(SUBMISSION, label, False, f"{why}: not run (as problemtools)")


def _same(language: str, spec: SubmissionSpec) -> bool:
    assert spec.language is not None
    return get_language(language).title == get_language(spec.language).title


def _spec(sub: ExpectedSubmission, label: str) -> SubmissionSpec:
    """How submissions.yaml says to build it: in its `language` (a code of the
    format's table: gridjudge's names and aliases), else the one its extension tells,
    started at its `entrypoint`, else where the language's rule starts it."""
    raw = str(sub.path) if sub.language is None else f"{sub.language}:{sub.path}"
    spec = replace(parse_spec(raw), label=label)
    if sub.entrypoint is None:
        return spec
    if spec.kind != "source" or spec.language is None:
        raise SubmissionError(f"entrypoint {sub.entrypoint!r}: {label} is not a source")
    if sub.path.is_dir():
        sources = read_sources(label, sub.path, get_language(spec.language))
        try:
            entry_source([name for name, _ in sources], sub.entrypoint)
        except ValueError as exc:
            raise SubmissionError(f"{label}: {exc}") from None
    return replace(spec, entry=sub.entrypoint)


def python_for(package: Package, asked: str | None) -> str | None:
    """The language version of the package's `.py` submissions (None: gridjudge's
    default, CPython): `asked` (--python), else the package's gridjudge.python, else
    PyPy 3 where installed, as problemtools runs them."""
    if asked is not None:
        return asked
    if package.python is not None:
        return package.python
    return "pypy3" if missing(get_language("pypy3")) is None else None
