"""problem.yaml's `constants` (2025-09): `{{name}}` and `{{name.variant}}` in a package's
validators, output validator, generators, generators.yaml's commands and test_group.yaml
stand for the constant's value (or its variant); a sequence naming no constant stays as
written, and test data and problem.yaml are never substituted. Example submissions are
left as written, as BAPCtools leaves them (its own `constants` problem expects a
submission printing a sequence to be wrong), though the format's text lists them.

A program is built from a substituted copy, made once per content and constants in the
build cache's folder (a program without a constant sequence is built where it is), so
its label, and every message naming it, stays the package's own path.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pipeline.private import private_dir
from pipeline.program.submission import SubmissionError

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
SEQUENCE = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z0-9_]+))?\}\}")
MAX_PROGRAM_BYTES = 64 << 20  # a program (its folder's files together) copied to substitute

Constants = Mapping[str, str]  # "name" and "name.variant" -> the text put in its place


def read_constants(
    problem_yaml: Mapping[str, Any], where: str, error: type[Exception]
) -> dict[str, str]:
    """problem.yaml's `constants` as the text of each `name` and `name.variant`; what the
    format does not allow raises `error`, one line."""
    value = problem_yaml.get("constants")
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise error(f"{where}: constants must be a mapping")
    out: dict[str, str] = {}
    for name, given in value.items():
        at = f"{where}: constants.{name}"
        if not isinstance(name, str) or not NAME.match(name):
            raise error(f"{at}: a name is letters, digits and _, not first a digit")
        variants = given if isinstance(given, dict) else {"value": given}
        if "value" not in variants:
            raise error(f"{at}: a map of variants needs `value`")
        for variant, text in variants.items():
            if not isinstance(variant, str) or not re.fullmatch(r"\w+", variant, re.ASCII):
                raise error(f"{at}: variant {variant!r} is not a plain word")
            if isinstance(text, bool) or not isinstance(text, int | float | str):
                raise error(f"{at}.{variant}: an integer, a float or a string")
            out[f"{name}.{variant}"] = str(text)
        out[name] = out[f"{name}.value"]
    return out


def substitute(text: str, constants: Constants) -> str:
    """`text` with every constant sequence naming a constant replaced by its text."""
    if not constants or "{{" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        name, variant = match.group(1), match.group(2)
        key = name if variant is None else f"{name}.{variant}"
        return constants.get(key, match.group(0))

    return SEQUENCE.sub(one, text)


def substitute_values(value: Any, constants: Constants) -> Any:
    """A parsed settings file with its strings substituted (keys too)."""
    if not constants:
        return value
    if isinstance(value, str):
        return substitute(value, constants)
    if isinstance(value, dict):
        return {
            substitute_values(k, constants): substitute_values(v, constants)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [substitute_values(v, constants) for v in value]
    return value


def program_files(program: Path) -> list[Path]:
    """The program's regular files (a folder's, not following links), sorted."""
    if program.is_file():
        return [program]
    found = []
    for folder, dirs, names in os.walk(program, followlinks=False):
        dirs.sort()
        found += [Path(folder) / n for n in sorted(names) if (Path(folder) / n).is_file()]
    return found


def substituted(program: Path, constants: Constants, cache: Path) -> Path:
    """`program` (a file or a program folder), or when a file of it holds a sequence of
    one of `constants`, its substituted copy under `cache` (made once: the same content
    and constants give the same copy)."""
    if not constants:
        return program
    files = program_files(program)
    if sum(f.stat().st_size for f in files) > MAX_PROGRAM_BYTES:
        raise SubmissionError(f"{program}: over {MAX_PROGRAM_BYTES >> 20} MB to substitute")
    contents = {f: f.read_bytes() for f in files}
    changed = {f: _changed(raw, constants) for f, raw in contents.items()}
    if all(new is None for new in changed.values()):
        return program
    digest = hashlib.sha256(json.dumps(sorted(constants.items())).encode())
    base = program.parent if program.is_file() else program
    for f, raw in contents.items():
        digest.update(f.relative_to(base).as_posix().encode() + b"\0" + raw + b"\0")
    target = private_dir(cache / "constants") / digest.hexdigest()[:32]
    copy = target / program.name
    if copy.exists():
        return copy
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=".staging-"))
    try:
        top = staging / program.name
        for f, raw in contents.items():
            out = top / f.relative_to(base) if program.is_dir() else top
            out.parent.mkdir(parents=True, exist_ok=True)
            new = changed[f]
            out.write_bytes(raw if new is None else new)
            shutil.copymode(f, out)
        with contextlib.suppress(OSError):  # another process made it first: the same
            staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return copy


def _changed(raw: bytes, constants: Constants) -> bytes | None:
    """The substituted bytes of a text file, or None (no sequence, or not UTF-8 text)."""
    if b"{{" not in raw:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    new = substitute(text, constants)
    return None if new == text else new.encode("utf-8")
