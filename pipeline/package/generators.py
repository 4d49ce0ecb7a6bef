"""A package's `generators/generators.yaml` (the format BAPCtools' `bt generate` reads),
read into a plan: each test case of `data/` with what makes it (a generator command with
its seed, a copied file, inline text) and the solution that answers it, and each test
data folder's `test_group.yaml`/`testdata.yaml`. Nothing runs here (generation.py runs
the plan): a package whose secret data only this file makes can then be verified.

The seed of a command is the format's: sha512 of random_salt, `:{count-1}` for a counted
case other than the first, and the command (its `{count}` filled in, stripped) as a
number, modulo 2^31; so a case keeps its data whatever else the file holds.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from pipeline.package.constants import substitute
from pipeline.package.spec import PackageError
from pipeline.yamlfile import read_yaml

GENERATORS_YAML = Path("generators") / "generators.yaml"
# the files a case may give inline (`in: 1 2`), each written as data/<case>.<ext>
INLINE = (
    "in", "ans", "out", "in.statement", "ans.statement", "in.download", "ans.download",
    "interaction", "yaml",
)  # fmt: skip
CASE_KEYS = ("generate", "copy", "count", "match", *INLINE)  # what makes a value a case
GROUP_FILES = ("test_group.yaml", "testdata.yaml")  # a folder's settings, written as given
# the top folders in the order the format generates them (others follow, by name)
ROOT_ORDER = ("sample", "secret", "invalid_output", "invalid_answer", "invalid_input")
SEED = re.compile(r"\{seed(:[0-9]+)?\}")
NAME = "{name}"
COUNT = "{count}"
MAX_COUNT = 100  # cases one `count: N` makes, as the format bounds it
RANGE = re.compile(r"^(-?\d+)\.\.=(-?\d+)$")
# a case's or folder's name: a file name in data/, never a path (`../x` would write
# outside the package)
NAME_OF_CASE = re.compile(r"^[A-Za-z0-9_+-][A-Za-z0-9_.+-]*$")


class GeneratorsError(PackageError):
    """generators.yaml cannot be read or run; one line naming the file and the case."""


@dataclass(frozen=True)
class Case:
    """One test case of the plan: data/`path`.<ext> for each file it makes."""

    path: str  # relative to data/, no extension: "secret/03-random"
    key: str  # its key in generators.yaml (what an `include` names)
    command: str | None = None  # `generate`, its {count} filled in ({seed}, {name} not)
    seed: int = 0
    retries: int = 1
    copy: str | None = None  # relative to generators/, no extension
    files: tuple[tuple[str, str], ...] = ()  # (ext, text) given inline
    solution: str | None = None  # package-rooted ("/submissions/accepted/a.py"); None: none

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0] if "/" in self.path else ""

    @property
    def invalid_input(self) -> bool:
        """An invalid input has no answer to make."""
        return self.path.split("/", 1)[0] == "invalid_input"

    def argv(self) -> list[str]:
        """The generator and its arguments: split as a shell splits words (BAPCtools
        takes quotes off too), {seed} the seed, {name} the case's file name in its
        scratch dir."""
        assert self.command is not None
        try:
            words = shlex.split(self.command)
        except ValueError as exc:
            raise GeneratorsError(f"data/{self.path}: {self.command}: {exc}") from None
        return [SEED.sub(str(self.seed), a).replace(NAME, "testcase") for a in words]


@dataclass
class Plan:
    cases: list[Case] = field(default_factory=list)
    groups: dict[str, tuple[str, Any]] = field(default_factory=dict)  # folder -> (file, yaml)
    generators: dict[str, list[str]] = field(default_factory=dict)  # name -> its files
    notes: list[str] = field(default_factory=list)  # what is read but not done


def seed_of(salt: str, command: str, count: int | None) -> int:
    value = salt + (f":{count - 1}" if count is not None and count != 1 else "")
    digest = hashlib.sha512((value + command.strip()).encode()).hexdigest()
    return int(digest, 16) % 2**31


def has_generators(root: Path) -> bool:
    return (Path(root) / GENERATORS_YAML).is_file()


def is_case(value: Any) -> bool:
    return (
        value is None
        or isinstance(value, str)
        or (isinstance(value, dict) and any(k in value for k in CASE_KEYS))
    )


def counts(value: Any, where: str) -> list[int] | None:
    """The values of a case's `count` (N: 1..N, a list, or `a..=b`), or None."""
    if not isinstance(value, dict) or "count" not in value:
        return None
    raw = value["count"]
    if isinstance(raw, bool):
        raise GeneratorsError(f"{where}: count: {raw!r} is not a count")
    if isinstance(raw, int):
        if not 1 <= raw <= MAX_COUNT:
            raise GeneratorsError(f"{where}: count {raw}: must be 1 to {MAX_COUNT}")
        return list(range(1, raw + 1))
    if isinstance(raw, list) and raw and all(isinstance(v, int) for v in raw):
        if len(set(raw)) != len(raw):
            raise GeneratorsError(f"{where}: count list {raw}: has a value twice")
        return list(raw)
    found = RANGE.match(raw) if isinstance(raw, str) else None
    if found is not None and int(found[1]) <= int(found[2]):
        return list(range(int(found[1]), int(found[2]) + 1))
    raise GeneratorsError(f"{where}: count {raw!r}: an int, a list of ints, or `a..=b`")


def _numbered_cases(folder: Any) -> int:
    """How many numbered cases `folder` and the folders under it hold (one counter
    numbers them all, across the file, as the format does)."""
    data = folder.get("data") if isinstance(folder, dict) else None
    entries = data if isinstance(data, list) else [data] if isinstance(data, dict) else []
    total = 0
    for entry in entries:
        for value in entry.values() if isinstance(entry, dict) else ():
            if is_case(value):
                total += len(counts(value, "") or [0]) if isinstance(data, list) else 0
            else:
                total += _numbered_cases(value)
    return total


@dataclass(frozen=True)
class _Inherited:
    """What a folder passes down to its folders and cases."""

    salt: str
    solution: str | None
    retries: int


def _inherit(node: dict[str, Any], up: _Inherited, where: str) -> _Inherited:
    salt, solution, retries = up.salt, up.solution, up.retries
    if "random_salt" in node:
        salt = "" if node["random_salt"] is None else str(node["random_salt"])
    if "solution" in node:
        solution = node["solution"] or None  # set empty: no answers made
        if solution is not None and not str(solution).startswith("/"):
            raise GeneratorsError(f"{where}: solution {solution}: a path from the package root")
    if "retries" in node:
        retries = node["retries"]
        if not isinstance(retries, int) or isinstance(retries, bool) or retries < 1:
            raise GeneratorsError(f"{where}: retries {retries!r}: a positive int")
    return _Inherited(salt, solution, retries)


def _inline(node: dict[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    """The files a case gives inline, a newline added where the text has none; a
    `{link: EXT}` value is the text of that other file of the case."""
    given: dict[str, str] = {}
    for ext in INLINE:
        text = node.get(ext)
        if text is None or (isinstance(text, dict) and set(text) == {"link"}):
            continue
        if ext == "yaml" and not isinstance(text, str):  # YAML, written back as YAML
            text = yaml.safe_dump(text, sort_keys=False)
        given[ext] = str(text) if str(text).endswith("\n") else f"{text}\n"
    for ext in INLINE:
        text = node.get(ext)
        if isinstance(text, dict) and set(text) == {"link"}:
            if text["link"] not in given:
                raise GeneratorsError(f"{where}: {ext}: link to {text['link']}: not given inline")
            given[ext] = given[text["link"]]
    return tuple((ext, given[ext]) for ext in INLINE if ext in given)


class _Reader:
    """The walk over the `data:` tree, in the format's order."""

    def __init__(self, path: Path, root: dict[str, Any], default_solution: str | None) -> None:
        self.file = path
        self.plan = Plan()
        self.width = len(str(_numbered_cases(root)))
        self.numbers: Iterator[int] = itertools.count(1)
        self.includes: list[tuple[str, str]] = []  # (folder, key)
        self.keys: dict[str, list[Case] | str] = {}  # key -> its cases, or its folder
        top = _Inherited("", default_solution, 1)
        self.folder("", root, _inherit(root, top, self.where("")))

    def where(self, path: str) -> str:
        return f"{self.file}: data/{path}" if path else str(self.file)

    def folder(self, path: str, node: dict[str, Any], up: _Inherited) -> None:
        for name in GROUP_FILES:
            if name in node:
                self.plan.groups[path] = (name, node[name])
        if "visualizer" in node:
            self.plan.notes.append(f"{self.where(path)}: visualizer not run (gridjudge skips it)")
        for key in node.get("include") or []:
            self.includes.append((path, str(key)))
        data = node.get("data")
        if data is None:
            return
        numbered = isinstance(data, list)
        if numbered and not path:
            raise GeneratorsError(f"{self.file}: data: the top folder cannot be numbered")
        entries = data if numbered else [data]
        if not all(isinstance(e, dict) for e in entries):
            raise GeneratorsError(f"{self.where(path)}: data: a mapping or a list of mappings")
        groups = sum(1 for e in entries for v in e.values() if not is_case(v))
        group_numbers = itertools.count(1)
        for entry in entries:
            if numbered and len(entry) != 1:
                raise GeneratorsError(f"{self.where(path)}: a numbered entry has one key")
            items = [("" if k is None else str(k), v) for k, v in entry.items()]
            order = {k: i for i, k in enumerate(ROOT_ORDER)}
            items.sort(key=lambda kv: (order.get(kv[0], len(order)) if not path else 0, kv[0]))
            for key, value in items:
                self.child(path, key, value, up, numbered, (groups, group_numbers))

    def child(
        self,
        path: str,
        key: str,
        value: Any,
        up: _Inherited,
        numbered: bool,
        groups: tuple[int, Iterator[int]],
    ) -> None:
        if key and not NAME_OF_CASE.match(key):
            raise GeneratorsError(
                f"{self.where(path)}: {key!r}: not a name (letters, digits, _.+-)"
            )
        if is_case(value):
            if not key and not numbered:
                raise GeneratorsError(f"{self.where(path)}: a case needs a name")
            self.cases(path, key, value, up, numbered)
            return
        if not key:
            raise GeneratorsError(f"{self.where(path)}: a folder needs a name")
        name = f"{next(groups[1]):0{len(str(groups[0]))}}-{key}" if numbered else key
        sub = f"{path}/{name}" if path else name
        self.keys.setdefault(key, sub)
        self.folder(sub, value, _inherit(value, up, self.where(sub)))

    def cases(self, folder: str, key: str, value: Any, up: _Inherited, numbered: bool) -> None:
        """The case(s) of `key`: each counted one numbered on its own, as the format does."""
        node: dict[str, Any] = {"generate": value} if isinstance(value, str) else value or {}
        where = self.where(f"{folder}/{key}" if folder else key)
        up = _inherit(node, up, where)
        values = counts(node, where)
        made = []
        every: list[int | None] = list(values) if values is not None else [None]
        for count in every:
            name = key
            if numbered:
                number = f"{next(self.numbers):0{self.width}}"
                name = f"{number}-{key}" if key else number
            path = f"{folder}/{name}" if folder else name
            made.append(self.case(path, key, node, up, count, values))
        self.keys.setdefault(key, made)
        self.plan.cases.extend(made)

    def case(
        self,
        path: str,
        key: str,
        node: dict[str, Any],
        up: _Inherited,
        count: int | None,
        values: list[int] | None,
    ) -> Case:
        where = self.where(path)
        if values is not None:
            consecutive = max(values) - min(values) == len(values) - 1
            pad = max(len(str(v)) for v in values) if consecutive else 0
            path = f"{path}-{count:0{pad}}"
        files = _inline(node, where)
        command = node.get("generate")
        if command is not None and (not isinstance(command, str) or not command.strip()):
            raise GeneratorsError(f"{where}: generate: a command line")
        if command is not None and count is not None:
            command = command.replace(COUNT, str(count))
        if command is not None and len(SEED.findall(command)) > 1:
            raise GeneratorsError(f"{where}: {{seed}} may appear once in a command")
        copy = node.get("copy")
        if command is None and copy is None and not {"in", "in.statement"} & dict(files).keys():
            raise GeneratorsError(f"{where}: a case needs generate, copy or in")
        seed = seed_of(up.salt, command, count) if command is not None else 0
        return Case(path, key, command, seed, up.retries, copy, tuple(files), up.solution)

    def resolve_includes(self) -> None:
        """Each `include` as copies of the cases it names (a folder's: all of them, from
        every folder under it) directly in the including folder, by their names."""
        for folder, key in self.includes:
            named = self.keys.get(key)
            if named is None:
                raise GeneratorsError(f"{self.where(folder)}: include {key}: no such case or group")
            if isinstance(named, str):  # a folder: every case under it, side by side
                named = [c for c in self.plan.cases if c.path.startswith(f"{named}/")]
            for case in named:
                name = case.path.rsplit("/", 1)[-1]
                self.plan.cases.append(replace(case, path=f"{folder}/{name}"))


def read_plan(
    root: Path, default_solution: str | None, constants: Mapping[str, str] | None = None
) -> Plan:
    """The plan of the package at `root` (`default_solution`: the package-rooted path of
    the submission that answers cases where the file names no `solution`; `constants`:
    problem.yaml's, substituted in the commands, not in the cases' literal files)."""
    path = Path(root) / GENERATORS_YAML
    content = read_yaml(path, GeneratorsError)
    if content is None:
        content = {}
    if not isinstance(content, dict):
        raise GeneratorsError(f"{path}: not a mapping")
    generators = content.get("generators") or {}
    if not isinstance(generators, dict) or not all(
        isinstance(v, list) and v and all(isinstance(f, str) for f in v)
        for v in generators.values()
    ):
        raise GeneratorsError(f"{path}: generators: each name a list of files in generators/")
    for name in generators:
        if not NAME_OF_CASE.match(str(name)):
            raise GeneratorsError(
                f"{path}: generators: {name!r}: not a name (letters, digits, _.+-)"
            )
    reader = _Reader(path, content, default_solution)
    reader.resolve_includes()
    reader.plan.generators = {str(k): list(v) for k, v in generators.items()}
    seen: dict[str, Case] = {}
    for case in reader.plan.cases:
        if case.path in seen and seen[case.path] != case:
            raise GeneratorsError(f"{path}: data/{case.path}: two cases of this name")
        seen[case.path] = case
    reader.plan.cases = [
        replace(c, command=substitute(c.command, constants or {})) if c.command else c
        for c in seen.values()
    ]
    return reader.plan
