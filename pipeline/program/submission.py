"""What a submission is: a source file or a folder of sources of one language
(languages are plugins: pipeline.program.languages), an executable, `cmd:<shell command>`
or `solver:<problem>[@<version>]` (the in-process reference). `parse_spec` reads the
user's string; `prepare` builds it once per content hash and returns a picklable
PreparedSubmission whose `run()` executes one input (sandboxed, or in-process)."""

from __future__ import annotations

import hashlib
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import GridjudgeError
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.contract import IOMode, Problem
from pipeline.program import execute
from pipeline.program.build import Source, build, default_cache_dir
from pipeline.program.included import Included, included_for, with_included
from pipeline.program.languages import (
    Language,
    all_languages,
    for_extension,
    get_language,
    is_language,
    missing,
)
from pipeline.program.languages.multipliers import multiplier

__all__ = [
    "Language",
    "PreparedSubmission",
    "SubmissionError",
    "SubmissionSpec",
    "parse_spec",
    "prepare",
]

KINDS = ("source", "executable", "cmd", "solver")


class SubmissionError(GridjudgeError):
    """A submission spec that cannot be used; one line for the user."""


@dataclass(frozen=True)
class SubmissionSpec:
    label: str  # the raw spec as given: the `submission` column of results
    kind: str  # source | executable | cmd | solver
    path: str | None = None  # absolute (source, executable)
    language: str | None = None  # source
    command: str | None = None  # cmd
    problem: str | None = None  # solver
    version: str | None = None  # solver; None = the problem's default
    entry: str | None = None  # source: the entry point a package names (submissions.yaml)


def _languages() -> str:
    return ", ".join(all_languages())


def in_listing(path: Path) -> bool:
    """Whether a folder's entry is one of its programs or their files: hidden files are
    not, nor Python's byte-code caches (`__pycache__`), which running a Python program
    in place leaves beside it."""
    return not path.name.startswith(".") and path.name != "__pycache__"


def parse_spec(raw: str) -> SubmissionSpec:
    """`PATH`, `LANG:PATH`, `cmd:<command>` or `solver:<problem>[@<version>]`."""
    text = raw.strip()
    if not text:
        raise SubmissionError("empty submission spec")
    prefix, sep, rest = text.partition(":")
    if sep and prefix == "cmd":
        if not rest.strip():
            raise SubmissionError(f"submission {raw!r}: empty command after 'cmd:'")
        return SubmissionSpec(label=raw, kind="cmd", command=rest.strip())
    if sep and prefix == "solver":
        name, at, version = rest.strip().partition("@")
        if not name or (at and not version):
            raise SubmissionError(f"submission {raw!r}: expected solver:<problem>[@<version>]")
        return SubmissionSpec(label=raw, kind="solver", problem=name, version=version or None)
    if sep and is_language(prefix):
        path = _existing_source(raw, rest)
        language = get_language(prefix).name
        return SubmissionSpec(label=raw, kind="source", path=str(path), language=language)
    if sep and "/" not in prefix and not Path(text).exists():
        raise SubmissionError(
            f"submission {raw!r}: unknown language {prefix!r} (languages: {_languages()})"
        )
    path = _existing_source(raw, text)
    lang = _folder_language(raw, path) if path.is_dir() else for_extension(path.suffix)
    if lang is not None:
        return SubmissionSpec(label=raw, kind="source", path=str(path), language=lang.name)
    if os.access(path, os.X_OK):
        return SubmissionSpec(label=raw, kind="executable", path=str(path))
    raise SubmissionError(
        f"submission {raw!r}: cannot tell the language of {path.name!r}; "
        f"name it as LANG:PATH (languages: {_languages()}) or make it executable"
    )


def _existing_source(raw: str, text: str) -> Path:
    """A file, or a folder (of sources of one language)."""
    path = Path(text.strip()).expanduser()
    if not (path.is_file() or path.is_dir()):
        raise SubmissionError(f"submission {raw!r}: no such file {str(path)!r}")
    return path.resolve()


def _folder_language(raw: str, folder: Path) -> Language:
    """The one language whose sources a folder holds."""
    found = {lang.title: lang for p in folder.iterdir() if (lang := for_extension(p.suffix))}
    if len(found) != 1:
        what = ", ".join(sorted(found)) or "no source file of a known language"
        raise SubmissionError(
            f"submission {raw!r}: a folder must hold sources of one language (found {what}); "
            f"name it as LANG:FOLDER (languages: {_languages()})"
        )
    return next(iter(found.values()))


def read_sources(raw: str, path: Path, lang: Language) -> list[Source]:
    """The source file, or the folder's files with one of the language's extensions (and
    its headers, staged beside them)."""
    try:
        if path.is_file():
            return [(path.name, path.read_bytes())]
        files = sorted(
            p for p in path.iterdir() if p.is_file() and in_listing(p) and lang.takes(p.name)
        )
        sources = [(p.name, p.read_bytes()) for p in files]
    except OSError as exc:
        raise SubmissionError(f"submission {raw!r}: cannot read: {exc}") from None
    if not lang.compiled([name for name, _ in sources]):
        raise SubmissionError(f"submission {raw!r}: no {lang.title} source in {str(path)!r}")
    return sources


def _sha(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part)
        h.update(b"\0")
    return h.hexdigest()


@dataclass
class PreparedSubmission:
    """A built submission, ready to run cases; picklable (shipped to Ray workers)."""

    label: str
    sha: str
    kind: str
    problem: str
    io: IOMode
    compile_error: str | None = None
    language: str | None = None
    sources: tuple[Source, ...] = ()  # carried so another node can rebuild
    program: str | None = None  # built folder (sources) or executable, on this node
    entry: str = ""  # what the language's run command starts
    unavailable: str | None = None  # the language's toolchain is missing here: JE
    time_multiplier: float = 1.0  # see languages.multipliers
    command: str | None = None
    version: str | None = None
    entrypoint: str | None = None  # the entry point given, for a rebuild on another node

    def _program_path(self) -> Path:
        """The built program, rebuilt into the local cache when missing on this node."""
        path = Path(self.program) if self.program else None
        if path is not None and path.exists():
            return path
        if self.kind == "source" and self.language and self.sources:
            built = build(self.language, self.sources, default_cache_dir(), self.entrypoint)
            if built.program is None:
                raise RuntimeError(f"rebuild failed on this node: {built.error}")
            self.program, self.entry = str(built.program), built.entry
            return built.program
        raise RuntimeError(f"program {self.program!r} is missing on this node")

    def command_line(self, memory_mb: int = 256) -> tuple[list[str], dict[str, Path]]:
        """argv (relative to the scratch dir) and the files to place there."""
        if self.kind == "cmd":
            assert self.command is not None
            return ["/bin/sh", "-c", self.command], {}
        path = self._program_path()
        if self.kind == "executable":
            return ["./prog"], {"prog": path}
        assert self.language is not None
        lang = get_language(self.language)
        files = {p.name: p for p in sorted(path.iterdir()) if in_listing(p)}
        argv = lang.run_command(list(files), self.entry, self.entry, memory_mb)
        return argv, files

    def run(
        self, input_text: str, limits: Limits, servers: execute.Servers | None = None
    ) -> ExecutionResult:
        """One run on one input (the problem's input and output files placed and read
        back), forked from its server in `servers` where it can be, else spawned; never
        raises for anything the program does."""
        stdin = input_text.encode()
        files = {self.io.input_file: stdin} if self.io.input_file else None
        return execute.run(
            self,
            stdin,
            limits=limits,
            files=files,
            output_file=self.io.output_file,
            servers=servers,
        )


def prepare(
    spec: SubmissionSpec,
    problem: Problem,
    cache_dir: Path | None = None,
    time_multipliers: Mapping[str, float] | None = None,
) -> PreparedSubmission:
    """Builds `spec` for `problem` (once per content hash into `cache_dir`). A compile
    failure does not raise: `compile_error` holds the compiler's message.
    `time_multipliers` (language -> factor) scale the limits of those languages."""
    if spec.kind != "solver":
        return prepare_program(
            spec, problem.name, problem.io, cache_dir, time_multipliers, problem.includes
        )
    if spec.problem != problem.name:
        raise SubmissionError(
            f"submission {spec.label!r} is a solver of {spec.problem!r}, not {problem.name!r}"
        )
    version = spec.version or problem.default_solver
    if version not in problem.solvers:
        known = ", ".join(problem.solvers) or "none"
        raise SubmissionError(
            f"submission {spec.label!r}: {problem.name} has no solver {version!r} "
            f"(versions: {known})"
        )
    sha = _sha(b"solver", f"{problem.name}@{version}".encode())
    return PreparedSubmission(
        label=spec.label, kind=spec.kind, problem=problem.name, io=problem.io, sha=sha,
        version=version,
    )  # fmt: skip


def prepare_program(
    spec: SubmissionSpec,
    problem: str,
    io: IOMode,
    cache_dir: Path | None = None,
    time_multipliers: Mapping[str, float] | None = None,
    included: Included | None = None,
) -> PreparedSubmission:
    """A program (source, executable or command) built once per content hash, with the
    problem's `included` code where it has some for the program's language; also what a
    problem package's validators and checkers are prepared as (without it)."""

    def new(**fields: Any) -> PreparedSubmission:
        return PreparedSubmission(
            label=spec.label, kind=spec.kind, problem=problem, io=io, **fields
        )

    if spec.kind == "cmd":
        assert spec.command is not None
        try:
            shlex.split(spec.command)
        except ValueError as exc:
            raise SubmissionError(f"submission {spec.label!r}: bad command: {exc}") from None
        sha = _sha(b"cmd", spec.command.encode())
        return new(sha=sha, command=spec.command)
    assert spec.path is not None
    if spec.kind == "executable":
        try:
            data = Path(spec.path).read_bytes()
        except OSError as exc:
            raise SubmissionError(f"submission {spec.label!r}: cannot read: {exc}") from None
        return new(sha=_sha(b"exe", data), program=spec.path)
    return new(**_source_fields(spec, cache_dir, time_multipliers, included or {}))


def _source_fields(
    spec: SubmissionSpec,
    cache_dir: Path | None,
    time_multipliers: Mapping[str, float] | None,
    included: Included,
) -> dict[str, Any]:
    """What a source submission's PreparedSubmission holds, built (or not: a missing
    toolchain is not the submission's fault, and every run of it is a JE saying so)."""
    assert spec.language is not None and spec.path is not None
    lang = get_language(spec.language)
    own = read_sources(spec.label, Path(spec.path), lang)
    sources, entry = with_included(lang, own, included_for(included, lang), spec.entry)
    # a single file is known by its content alone; a folder's names are part of it
    parts = [sources[0][1]] if len(sources) == 1 else [n.encode() + b"\0" + d for n, d in sources]
    if entry is not None:  # another entry point is another program
        parts.append(b"entry\0" + entry.encode())
    fields: dict[str, Any] = {
        "sha": _sha(b"src", lang.name.encode(), *parts),
        "entrypoint": entry,
        "language": lang.name,
        "sources": tuple(sources),
        "time_multiplier": multiplier(time_multipliers, lang.name),
    }
    reason = missing(lang)
    if reason is not None:
        return {**fields, "unavailable": reason}
    cache = cache_dir if cache_dir is not None else default_cache_dir()
    try:
        built = build(lang, sources, cache, entry)
    except ValueError as exc:
        raise SubmissionError(f"submission {spec.label!r}: {exc}") from None
    program = str(built.program) if built.program else None
    return {**fields, "compile_error": built.error, "program": program, "entry": built.entry}
