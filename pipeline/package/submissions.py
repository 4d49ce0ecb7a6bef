"""A package's author submissions, `submissions/<expected>/`, with what each is expected
to get: the verdict folder's defaults, overridden by `submissions.yaml` (2023-07 and
later) where it names the submission, and built as it says (2025-09: `language`, a
language code of the format's table, and `entrypoint`, the file or class that starts a
submission of several sources). Read only; `verify` judges them.

A folder's defaults (verdicts as gridjudge names them: RTE is RE): `permitted` are the
verdicts its cases may get, `required` those at least one case must get (empty: none).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pipeline.package.spec import PackageError, load_yaml
from pipeline.program.submission import in_listing
from pipeline.schemas import VERDICTS

SUBMISSIONS = "submissions"
SUBMISSIONS_YAML = "submissions.yaml"
BUILD_KEYS = ("language", "entrypoint")  # how a submission is built, not judged
SPEC_NAMES = {"RTE": "RE"}  # the format's verdict names that gridjudge spells otherwise
FOLDERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # folder: (permitted, required)
    "accepted": (frozenset({"AC"}), frozenset({"AC"})),
    "wrong_answer": (frozenset({"AC", "WA"}), frozenset({"WA"})),
    "time_limit_exceeded": (frozenset({"AC", "TLE"}), frozenset({"TLE"})),
    "run_time_error": (frozenset({"AC", "RE"}), frozenset({"RE"})),
    "brute_force": (frozenset({"AC", "TLE", "RE"}), frozenset({"TLE", "RE"})),
    "rejected": (frozenset({"AC", "WA", "TLE", "RE"}), frozenset({"WA", "TLE", "RE"})),
    "partially_accepted": (frozenset({"AC", "WA", "TLE", "RE"}), frozenset()),
}


@dataclass(frozen=True)
class ExpectedSubmission:
    path: Path  # a source file or a folder of sources
    folder: str  # the verdict folder it is in
    permitted: frozenset[str]
    required: frozenset[str]
    score: tuple[float, float] | None = None  # (low, high), where an expectation gives one
    message: str = ""
    listed: bool = False  # submissions.yaml names it (its expectations are that file's)
    language: str | None = None  # submissions.yaml's, else told by the extension
    entrypoint: str | None = None  # submissions.yaml's, else the language's rule


def _verdicts(value: Any, where: str) -> frozenset[str]:
    names = value if isinstance(value, list) else str(value).split()
    out = frozenset(SPEC_NAMES.get(str(n), str(n)) for n in names)
    unknown = sorted(out - set(VERDICTS))
    if unknown:
        raise PackageError(f"{where}: unknown verdict {unknown[0]!r}")
    return out


def _score(value: Any, where: str) -> tuple[float, float]:
    parts = value if isinstance(value, list) else str(value).replace("-", " ").split()
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise PackageError(f"{where}: score must be a number or a range") from None
    if len(numbers) not in (1, 2):
        raise PackageError(f"{where}: score must be a number or a range")
    return numbers[0], numbers[-1]


def _apply(sub: ExpectedSubmission, rules: dict[str, Any], where: str) -> ExpectedSubmission:
    """The expectations of submissions.yaml whose pattern matches the submission."""
    rel = sub.path.relative_to(sub.path.parents[1]).as_posix()
    for pattern, rule in rules.items():
        if not (fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel, f"{pattern}/*")):
            continue
        if not isinstance(rule, dict):
            raise PackageError(f"{where}: {pattern}: expected a mapping")
        if set(rule) - set(BUILD_KEYS):  # an expectation, not only how it is built
            sub = replace(sub, listed=True)
        if "permitted" in rule:
            sub = replace(sub, permitted=_verdicts(rule["permitted"], where))
        if "required" in rule:
            sub = replace(sub, required=_verdicts(rule["required"], where))
        if "score" in rule:
            sub = replace(sub, score=_score(rule["score"], where))
        if "message" in rule:
            sub = replace(sub, message=str(rule["message"]))
        for key in BUILD_KEYS:
            if key in rule and not isinstance(rule[key], str):
                raise PackageError(f"{where}: {pattern}: {key} must be a string")
        if "language" in rule:
            sub = replace(sub, language=rule["language"])
        if "entrypoint" in rule:
            sub = replace(sub, entrypoint=rule["entrypoint"])
    return sub


def read_submissions(root: Path) -> list[ExpectedSubmission]:
    """Every submission in the package's verdict folders (other folders are ignored)."""
    folder = Path(root) / SUBMISSIONS
    if not folder.is_dir():
        return []
    rules_file = folder / SUBMISSIONS_YAML
    rules = load_yaml(rules_file) if rules_file.is_file() else {}
    out = []
    for name, (permitted, required) in FOLDERS.items():
        for path in sorted((folder / name).iterdir()) if (folder / name).is_dir() else []:
            if not in_listing(path):
                continue
            sub = ExpectedSubmission(path, name, permitted, required)
            out.append(_apply(sub, rules, str(rules_file)))
    return out
