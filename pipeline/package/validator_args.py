"""Validator arguments as each format version gives them, read to one shape.

An output validator gets one sequence of arguments. Input validators may each get their
own: the legacy `input_validator_flags` is a string or a mapping `{name: V, flags: F}`
(V gets F, the others nothing); 2023-07 and 2025-09 `input_validator_args` is a
sequence, or a mapping from a validator's name to its sequence (a validator the mapping
does not name gets none). A program's name is its file's or folder's name, with or
without the extension (`validate.py` is also `validate`). A string is split as a shell
would split it, where gridjudge always read one so.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.package.versions import LEGACY, VersionError

ScalarArg = str | int | float


@dataclass(frozen=True)
class InputArgs:
    """What each input validator of a case is given: `common` to every one, or, where
    `named` is given, each validator its own (hashable: a case's settings are compared)."""

    common: tuple[str, ...] = ()
    named: tuple[tuple[str, tuple[str, ...]], ...] | None = None

    def of(self, program: Path | str) -> tuple[str, ...]:
        """The arguments of the input validator at `program`."""
        if self.named is None:
            return self.common
        path = Path(program)
        given = dict(self.named)
        return given.get(path.name, given.get(path.stem, ()))


NO_INPUT_ARGS = InputArgs()


def arguments(value: Any, where: str, key: str) -> tuple[str, ...]:
    """A sequence of arguments: a list of strings (numbers are their text), or a string
    split as a shell would; anything else is a one-line error naming `where` and `key`."""
    if value is None:
        return ()
    if isinstance(value, str):
        try:
            return tuple(shlex.split(value))
        except ValueError as exc:
            raise VersionError(f"{where}: {key}: {exc}") from None
    if isinstance(value, list) and all(
        isinstance(v, ScalarArg) and not isinstance(v, bool) for v in value
    ):
        return tuple(str(v) for v in value)
    raise VersionError(f"{where}: {key} must be a sequence of strings, not {value!r}"[:300])


def input_args(value: Any, where: str, key: str, version: str) -> InputArgs:
    """`value` of `key` (input_validator_flags / input_validator_args) as `version` defines it."""
    if not isinstance(value, Mapping):
        return InputArgs(arguments(value, where, key))
    if version == LEGACY:
        if set(value) != {"name", "flags"} or not isinstance(value["name"], str):
            raise VersionError(f"{where}: {key}: a mapping must have a name and flags only")
        return InputArgs(named=((value["name"], arguments(value["flags"], where, key)),))
    named = []
    for name, args in value.items():
        if not isinstance(name, str):
            raise VersionError(f"{where}: {key}: {name!r} is not a validator's name")
        named.append((name, arguments(args, where, f"{key}.{name}")))
    return InputArgs(named=tuple(sorted(named)))
