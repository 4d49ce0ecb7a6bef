"""Reading a Kattis / ICPC problem package folder: `problem.yaml` (the legacy format and
2023-07 and later), the `testdata.yaml` settings of each test data folder, and where the
validators are. Nothing here runs a program.

What fails loudly (PackageError, one line naming the file): a symbolic link whose target
is not inside the package (links.py), a missing or unreadable problem.yaml or
testdata.yaml, a value of the wrong type, a problem type or validation gridjudge does not
grade (submit-answer), an interactive or multi-pass problem without a custom output
validator, `validation: custom` without exactly one output validator (a testlib
interactive problem: its interactor, and a checker beside it if it has one). Everything
else the formats hold (statements, attachments, generators, author, license, uuid,
keywords, ...) is ignored.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pipeline.errors import GridjudgeError
from pipeline.limits import Limits
from pipeline.package.constants import read_constants, substitute_values
from pipeline.package.links import link_out_of
from pipeline.package.validator_args import NO_INPUT_ARGS, InputArgs, arguments, input_args
from pipeline.package.versions import (
    LEGACY,
    SETTINGS_FILE,
    VersionError,
    folder_keys,
    format_version,
)
from pipeline.problem.contract import STDIO, IOMode
from pipeline.yamlfile import read_yaml, unknown_key

PROBLEM_YAML = "problem.yaml"
TESTDATA_YAML = "testdata.yaml"
GRADED_FOLDERS = ("sample", "secret")  # of data/; invalid_* and the rest are not graded
PROTOCOLS = ("kattis", "testlib")
TYPES = ("pass-fail", "scoring", "interactive", "multi-pass")
DEFAULT_PASSES = 2  # 2023-07 and later: limits.validation_passes of a multi-pass problem
GRIDJUDGE_KEYS = ("checker", "input_file", "output_file", "python")  # problem.yaml's `gridjudge:`
# gridjudge.python: the language version the package's `.py` submissions were written for
# (`verify` runs them in it); gridjudge's exports say py3 (CPython 3.10 or later)
PYTHONS = ("py3", "pypy3")
FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
# the spec's defaults: memory and output in MiB; the time multipliers (slowest accepted
# -> time limit, time limit -> slowest TLE) of the legacy format and of 2023-07 and later
DEFAULT_MEMORY_MB = 2048
DEFAULT_OUTPUT_MB = 8
DEFAULT_CODE_KB = 128  # limits.code: a submission's files together
LEGACY_MULTIPLIERS = (5.0, 2.0)
MULTIPLIERS = (2.0, 1.5)
DEFAULT_TIME_RESOLUTION = 1.0  # s: a derived time limit is a multiple of it


class PackageError(GridjudgeError):
    """A problem package gridjudge cannot use; one line naming the file."""


@dataclass(frozen=True)
class FolderSettings:
    """The testdata.yaml settings that apply to one test data folder (a folder inherits
    its parent's, key by key, and overrides what its own testdata.yaml gives)."""

    input_flags: InputArgs = NO_INPUT_ARGS  # each input validator's (validator_args.py)
    answer_flags: InputArgs = NO_INPUT_ARGS  # each answer validator's (BAPCtools')
    output_flags: tuple[str, ...] = ()
    aggregation: str = "sum"  # sum | min | pass-fail: how a scoring group adds up its cases
    score: float | None = None  # a scoring group's points, where given
    accept_score: float = 1.0  # legacy: the points of one accepted case


@dataclass(frozen=True)
class Package:
    root: Path
    title: str
    limits: Limits
    time_multiplier: float  # slowest accepted x this = the time limit (for verify)
    time_safety_margin: float  # a TLE submission must exceed limit x this (for verify)
    time_resolution: float  # a derived time limit is the smallest multiple of this (s)
    time_limit_given: bool  # False: the time limit is Limits' default until verify derives it
    scoring: bool  # `type: scoring`: the test groups carry points
    version: str  # versions.LEGACY, V2023 or V2025: each key is read as it defines it
    custom: bool  # a custom output validator decides, else the default validator
    protocol: str  # kattis | testlib (the custom validator's)
    validator_flags: tuple[str, ...]  # problem.yaml's, before any testdata.yaml's
    io: IOMode = STDIO  # gridjudge.input_file / output_file
    folders: dict[str, FolderSettings] = field(default_factory=dict)  # family -> settings
    interactive: bool = False  # the output validator runs as the interactor
    passes: int = 1  # multi-pass: at most this many runs of the submission per case
    python: str | None = None  # gridjudge.python: py3 or pypy3, where the package says
    constants: dict[str, str] = field(default_factory=dict)  # 2025-09: see constants.py
    code_kb: float = DEFAULT_CODE_KB  # limits.code (verify: verify.prepare.code_check)

    @property
    def legacy(self) -> bool:
        return self.version == LEGACY

    @property
    def data(self) -> Path:
        return self.root / "data"

    def output_validator_dirs(self) -> list[Path]:
        """Legacy `output_validators/`, 2023-07 `output_validator/`."""
        return [self.root / n for n in ("output_validators", "output_validator")]


def is_package(path: Path) -> bool:
    return (Path(path) / PROBLEM_YAML).is_file()


def load_yaml(path: Path) -> dict[str, Any]:
    data = read_yaml(path, PackageError)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise PackageError(f"{path}: expected a mapping")
    return data


def flags(value: Any, where: str) -> tuple[str, ...]:
    """Validator flags: a string split as a shell would, or a list."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(shlex.split(value))
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    raise PackageError(f"{where}: validator flags must be a string or a list")


def _number(data: Mapping[str, Any], key: str, where: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PackageError(f"{where}: {key} must be a number, not {value!r}")
    if value <= 0:
        raise PackageError(f"{where}: {key} must be positive")
    return float(value)


def _types(data: Mapping[str, Any], where: str) -> set[str]:
    kind = data.get("type", "pass-fail")
    kinds = set(kind if isinstance(kind, list) else str(kind).split())
    unsupported = kinds - set(TYPES)
    if unsupported:
        raise PackageError(f"{where}: problem type {sorted(unsupported)[0]!r} is not supported")
    return kinds


def _validation(data: Mapping[str, Any], root: Path, where: str) -> tuple[bool, set[str]]:
    """(custom output validator?, the words after `custom`: the legacy `score` and
    `interactive`, and `multi-pass` as some packages write it)."""
    words = str(data.get("validation", "default")).split()
    if not words or words[0] not in ("default", "custom"):
        raise PackageError(f"{where}: validation {data.get('validation')!r} is not supported")
    extra = set(words[1:]) - {"score", "interactive", "multi-pass"}
    if extra:
        raise PackageError(f"{where}: validation 'custom {sorted(extra)[0]}' is not supported")
    custom = words[0] == "custom" or (root / "output_validator").is_dir()
    return custom, set(words[1:])


def _passes(limits: Mapping[str, Any], multi_pass: bool, where: str) -> int:
    """A multi-pass problem's limits.validation_passes (an integer >= 2), else 1."""
    if not multi_pass:
        return 1
    value = limits.get("validation_passes", DEFAULT_PASSES)
    if isinstance(value, bool) or not isinstance(value, int) or value < 2:
        raise PackageError(f"{where}: limits.validation_passes must be an integer >= 2")
    return value


def _title(data: Mapping[str, Any], root: Path) -> str:
    name = data.get("name")
    if isinstance(name, dict):  # 2023-07: one per language
        name = name.get("en") or next(iter(name.values()), None)
    return str(name) if name else root.name


def _time_limit(limits: Mapping[str, Any], root: Path, where: str) -> float | None:
    """problem.yaml's limits.time_limit (2023-07), else a `.timelimit` file (the
    convention of problemtools and DOMjudge), else none."""
    given = _number(limits, "time_limit", where)
    file = root / ".timelimit"
    if given is None and file.is_file():
        try:
            given = float(file.read_text().split()[0])
        except (ValueError, IndexError, OSError):
            raise PackageError(f"{file}: expected a number of seconds") from None
    return given


def _ours(data: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    """problem.yaml's `gridjudge:` mapping: what only gridjudge reads (other tools ignore it)."""
    ours = data.get("gridjudge") or {}
    if not isinstance(ours, dict):
        raise PackageError(f"{where}: gridjudge: expected a mapping")
    unknown = sorted(set(ours) - set(GRIDJUDGE_KEYS))
    if unknown:
        raise PackageError(f"{where}: {unknown_key(unknown[0], GRIDJUDGE_KEYS, 'gridjudge')}")
    return ours


def _protocol(ours: Mapping[str, Any], where: str) -> str:
    protocol = str(ours.get("checker", PROTOCOLS[0]))
    if protocol not in PROTOCOLS:
        raise PackageError(f"{where}: gridjudge.checker must be one of {', '.join(PROTOCOLS)}")
    return protocol


def _python(ours: Mapping[str, Any], where: str) -> str | None:
    value = ours.get("python")
    if value is not None and value not in PYTHONS:
        raise PackageError(f"{where}: gridjudge.python must be one of {', '.join(PYTHONS)}")
    return None if value is None else str(value)


def _io(ours: Mapping[str, Any], where: str) -> IOMode:
    """`input_file` / `output_file`: the named files a program may use besides stdin and
    stdout (pipeline.problem.contract.IOMode), for a problem exported from a plugin that
    reads and writes them."""
    names = {}
    for key in ("input_file", "output_file"):
        value = ours.get(key)
        if value is not None and (not isinstance(value, str) or not FILE_NAME.match(value)):
            raise PackageError(f"{where}: gridjudge.{key} must be a plain file name")
        names[key] = value
    return IOMode(**names)


def read_package(root: Path) -> Package:
    """The package at `root` (a folder holding problem.yaml)."""
    root = Path(root)
    escaping = link_out_of(root)
    if escaping is not None:
        raise PackageError(escaping)
    try:
        return _read_package(root)
    except VersionError as exc:
        raise PackageError(str(exc)) from None


def _multipliers(
    version: str, limits: Mapping[str, Any], where: str
) -> tuple[float | None, float | None]:
    """(ac_to_time_limit, time_limit_to_tle) as problem.yaml's version names them."""
    if version == LEGACY:
        return _number(limits, "time_multiplier", where), _number(
            limits, "time_safety_margin", where
        )
    multipliers = limits.get("time_multipliers") or {}
    if not isinstance(multipliers, dict):
        raise PackageError(f"{where}: limits.time_multipliers must be a mapping")
    return _number(multipliers, "ac_to_time_limit", where), _number(
        multipliers, "time_limit_to_tle", where
    )


def _read_package(root: Path) -> Package:
    where = str(root / PROBLEM_YAML)
    data = load_yaml(root / PROBLEM_YAML)
    version = format_version(data, where)
    limits = data.get("limits") or {}
    if not isinstance(limits, dict):
        raise PackageError(f"{where}: limits must be a mapping")
    ac_to_limit, limit_to_tle = _multipliers(version, limits, where)
    time_s = _time_limit(limits, root, where)
    memory = _number(limits, "memory", where) or DEFAULT_MEMORY_MB
    output = _number(limits, "output", where) or DEFAULT_OUTPUT_MB
    base = Limits() if time_s is None else Limits.from_seconds(time_s)
    custom, said = _validation(data, root, where)
    kinds = _types(data, where)
    interactive = "interactive" in kinds or "interactive" in said
    multi_pass = "multi-pass" in kinds or "multi-pass" in said
    if (interactive or multi_pass) and not custom:
        what = "interactive" if interactive else "multi-pass"
        raise PackageError(f"{where}: a problem of type {what} needs a custom output validator")
    default_multipliers = LEGACY_MULTIPLIERS if version == LEGACY else MULTIPLIERS
    ours = _ours(data, where)
    package = Package(
        root=root,
        title=_title(data, root),
        limits=replace(base, memory_mb=int(memory), output_kb=int(output * 1024)),
        time_multiplier=ac_to_limit or default_multipliers[0],
        time_safety_margin=limit_to_tle or default_multipliers[1],
        time_resolution=_number(limits, "time_resolution", where) or DEFAULT_TIME_RESOLUTION,
        time_limit_given=time_s is not None,
        scoring="scoring" in kinds or "score" in said,
        version=version,
        custom=custom,
        protocol=_protocol(ours, where),
        io=_io(ours, where),
        # legacy: flags of the output validator for every case (later: per folder)
        validator_flags=flags(data.get("validator_flags") if version == LEGACY else None, where),
        interactive=interactive,
        passes=_passes(limits, multi_pass, where),
        python=_python(ours, where),
        constants={} if version == LEGACY else read_constants(data, where, PackageError),
        code_kb=_number(limits, "code", where) or DEFAULT_CODE_KB,
    )
    return replace(package, folders=folder_settings(package))


def _settings(
    parent: FolderSettings, given: Mapping[str, Any], where: str, package: Package
) -> FolderSettings:
    """A folder's settings: its parent's, with what its settings file gives
    (versions.folder_keys; output validator flags come after problem.yaml's
    `validator_flags`). Points are the folder's own, never inherited."""
    out = replace(parent, score=given.get("score"))
    kind = "flags" if package.legacy else "args"
    if "input" in given:
        key = f"input_validator_{kind}"
        out = replace(out, input_flags=input_args(given["input"], where, key, package.version))
    if "answer" in given:
        mine = input_args(given["answer"], where, "answer_validator_args", package.version)
        out = replace(out, answer_flags=mine)
    if "output" in given:
        given_flags = arguments(given["output"], where, f"output_validator_{kind}")
        out = replace(out, output_flags=package.validator_flags + given_flags)
    if "aggregation" in given:
        out = replace(out, aggregation=given["aggregation"])
    if "accept_score" in given:
        out = replace(out, accept_score=given["accept_score"])
    return out


def _read_settings(package: Package, folder: Path) -> dict[str, Any] | None:
    """What the folder's settings file (testdata.yaml; 2025-09: test_group.yaml) gives,
    or None without one."""
    file = folder / SETTINGS_FILE[package.version]
    if not file.is_file():
        return None
    given = substitute_values(load_yaml(file), package.constants)
    return folder_keys(package.version, given, str(file))


def _infer_points(package: Package, out: dict[str, FolderSettings], direct: int) -> None:
    """2023-07 and later: data/secret is worth its score (100 by default); each group in
    it without a score of its own gets an even share of what the others leave, counting
    each case directly in data/secret as one share (which group `secret` then holds)."""
    secret = out.get("secret")
    if package.version == LEGACY or secret is None:
        return
    total = 100.0 if secret.score is None else secret.score
    groups = [f for f in out if f.count("/") == 1 and f.startswith("secret/")]
    given = sum(out[g].score or 0.0 for g in groups)
    unscored = [g for g in groups if out[g].score is None]
    if given > total:
        where = package.data / "secret"
        raise PackageError(f"{where}: its groups' scores sum to {given:g}, over {total:g}")
    share = (total - given) / (len(unscored) + direct) if unscored or direct else 0.0
    for family in unscored:
        out[family] = replace(out[family], score=share)
    out["secret"] = replace(secret, score=share * direct)


def folder_settings(
    package: Package, tops: Sequence[str] = GRADED_FOLDERS
) -> dict[str, FolderSettings]:
    """family (a folder of data/ under `tops`, e.g. secret/group1) -> its settings."""
    try:
        return _folder_settings(package, tops)
    except VersionError as exc:
        raise PackageError(str(exc)) from None


def _folder_settings(package: Package, tops: Sequence[str]) -> dict[str, FolderSettings]:
    top = FolderSettings(output_flags=package.validator_flags)
    data = package.data
    where = str(data / SETTINGS_FILE[package.version])
    given = _read_settings(package, data) if data.is_dir() else None
    if given is not None:
        top = replace(_settings(top, given, where, package), score=None)
    out: dict[str, FolderSettings] = {}

    def walk(folder: Path, family: str, parent: FolderSettings) -> None:
        mine = _read_settings(package, folder)
        where = str(folder / SETTINGS_FILE[package.version])
        settings = _settings(parent, mine or {}, where, package)
        out[family] = settings
        # a link to a folder is not a group (test_files does not enter one either): one
        # up the tree would make the walk endless (two: exponential), each path deeper
        for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink()):
            walk(sub, f"{family}/{sub.name}", settings)

    for name in tops:
        if (data / name).is_dir():
            walk(data / name, name, top)
    direct = len(list((data / "secret").glob("*.in"))) if (data / "secret").is_dir() else 0
    _infer_points(package, out, direct)
    return out
