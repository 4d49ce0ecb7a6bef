"""A test case's own settings (2023-07 and later): `NAME.yaml` beside `NAME.in` may give
`input_validator_args` and `output_validator_args`, which replace its folder's for that
case (the output validator's after problem.yaml's, as a folder's are). Its other keys
(`args`, `hint`, `description`, ...) are not read; a value of the wrong type is a
one-line error naming the file. The legacy format has no such file."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pipeline.package.case_files import case_name
from pipeline.package.spec import FolderSettings, Package, PackageError, load_yaml
from pipeline.package.validator_args import arguments, input_args
from pipeline.package.versions import VersionError

CASE_SUFFIX = ".yaml"
INPUT_KEY, OUTPUT_KEY = "input_validator_args", "output_validator_args"


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
        if INPUT_KEY in given:
            mine = input_args(given[INPUT_KEY], where, INPUT_KEY, package.version)
            out = replace(out, input_flags=mine)
        if OUTPUT_KEY in given:
            args = arguments(given[OUTPUT_KEY], where, OUTPUT_KEY)
            out = replace(out, output_flags=package.validator_flags + args)
    except VersionError as exc:
        raise PackageError(str(exc)) from None
    return out
