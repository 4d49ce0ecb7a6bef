"""A test case's own settings (2023-07 and later): `NAME.yaml` beside `NAME.in` may give
`input_validator_args`, `output_validator_args` (and BAPCtools' `answer_validator_args`),
which replace its folder's for that case (the output validator's after problem.yaml's,
as a folder's are); a value of the wrong type is a one-line error naming the file. The
legacy format has no such file.

The format's other keys change no verdict gridjudge gives, except `args` (command-line
arguments of the submission), which gridjudge cannot pass: a case that gives any is a
one-line error, not verdicts that would differ from a judge's. The format asks that an
unknown key be an error; BAPCtools warns, and so does `verify` (a finding that
`--strict` fails), as for a known key of the wrong type that changes no verdict."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from pipeline.package.case_files import case_name
from pipeline.package.spec import FolderSettings, Package, PackageError, load_yaml
from pipeline.package.validator_args import arguments, input_args
from pipeline.package.versions import VersionError, refuse_submission_args

CASE_SUFFIX = ".yaml"
INPUT_KEY, OUTPUT_KEY = "input_validator_args", "output_validator_args"
ANSWER_KEY = "answer_validator_args"  # BAPCtools': its answer validators' arguments
# the 2025-09 text's keys (also 2023-07's, whose text it replaced) that change no verdict
# gridjudge gives, with their type
OTHER_KEYS: dict[str, type | tuple[type, ...]] = {
    "input_visualizer_args": list,
    "output_visualizer_args": list,
    "full_feedback": bool,
    "hint": str,
    "description": str,
}
KNOWN_KEYS = frozenset({"args", INPUT_KEY, OUTPUT_KEY, ANSWER_KEY, *OTHER_KEYS})


def case_file(input_path: Path) -> Path:
    """Where the settings of the case whose input is `input_path` are."""
    return input_path.with_name(case_name(input_path) + CASE_SUFFIX)


def case_settings(package: Package, input_path: Path, folder: FolderSettings) -> FolderSettings:
    """The settings of the case whose input is `input_path`, in a folder with `folder`'s."""
    file = case_file(input_path)
    if package.legacy or not file.is_file():
        return folder
    given = load_yaml(file)
    where = str(file)
    out = folder
    try:
        refuse_submission_args(given, where)
        if INPUT_KEY in given:
            mine = input_args(given[INPUT_KEY], where, INPUT_KEY, package.version)
            out = replace(out, input_flags=mine)
        if ANSWER_KEY in given:
            mine = input_args(given[ANSWER_KEY], where, ANSWER_KEY, package.version)
            out = replace(out, answer_flags=mine)
        if OUTPUT_KEY in given:
            args = arguments(given[OUTPUT_KEY], where, OUTPUT_KEY)
            out = replace(out, output_flags=package.validator_flags + args)
    except VersionError as exc:
        raise PackageError(str(exc)) from None
    return out


def case_file_findings(package: Package) -> list[str]:
    """What the case files of data/ give that the format does not define, or of the wrong
    type where gridjudge does not read it (`data/secret/1.yaml: unknown key 'x'`)."""
    if package.legacy or not package.data.is_dir():
        return []
    out = []
    for path in sorted(p for p in package.data.rglob("*.in") if p.is_file()):
        file = case_file(path)
        if file.is_file():
            rel = file.relative_to(package.root).as_posix()
            out += [f"{rel}: {finding}" for finding in _findings(load_yaml(file))]
    return out


def _findings(given: dict[Any, Any]) -> list[str]:
    out = [f"unknown key {key!r}" for key in given if key not in KNOWN_KEYS]
    for key, kind in OTHER_KEYS.items():
        if key in given and not isinstance(given[key], kind):
            out.append(f"{key} must be a {_type_name(kind)}, not {given[key]!r}"[:200])
    return out


def _type_name(kind: type | tuple[type, ...]) -> str:
    names = {list: "sequence", dict: "mapping", bool: "boolean", str: "string"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names[k] for k in kinds)
