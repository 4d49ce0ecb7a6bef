"""A test case's files: `NAME.in` and its answer `NAME.ans`, paired by the whole name
before the suffix. The package format allows dots, dashes and any unicode in a case's
name (`1.5`, `sample.1`, `a.b.c`, `ü-grid`), so the name is never cut at its first or
last dot: `1.5.in` is answered by `1.5.ans`, not `1.ans`. Every reader of case files
(the corpus importers, a package's data) pairs them here."""

from __future__ import annotations

from pathlib import Path

INPUT_SUFFIX = ".in"
ANSWER_SUFFIX = ".ans"


def case_name(path: Path) -> str:
    """The case's name: the file's name without its final suffix (`.in` or `.ans`)."""
    name = path.name
    for suffix in (INPUT_SUFFIX, ANSWER_SUFFIX):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    raise ValueError(f"{path}: not a case file ({INPUT_SUFFIX} or {ANSWER_SUFFIX})")


def case_path(path: Path) -> Path:
    """The case's path without the suffix (`secret/1.5.in` -> `secret/1.5`)."""
    return path.with_name(case_name(path))


def answer_of(input_path: Path) -> Path:
    """Where the answer of the input file `NAME.in` is: `NAME.ans` beside it."""
    return input_path.with_name(case_name(input_path) + ANSWER_SUFFIX)
