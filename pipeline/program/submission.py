"""What a submission is (DESIGN §4): a source file, an executable, `cmd:<shell command>`
or `solver:<problem>[@<version>]` (the in-process reference). `parse_spec` reads the
user's string; `prepare` builds it once per content hash and returns a picklable
PreparedSubmission whose `run()` executes one input (sandboxed, or in-process)."""

from __future__ import annotations

import hashlib
import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import GridjudgeError
from pipeline.limits import Limits
from pipeline.problem.contract import IOMode, Problem
from pipeline.program.build import EXTENSIONS, LANGUAGES, Language, build, default_cache_dir
from pipeline.program.execution import ExecutionResult

__all__ = [
    "EXTENSIONS",
    "LANGUAGES",
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


def _languages() -> str:
    return ", ".join(LANGUAGES)


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
    if sep and prefix in LANGUAGES:
        path = _existing_file(raw, rest)
        return SubmissionSpec(label=raw, kind="source", path=str(path), language=prefix)
    if sep and "/" not in prefix and not Path(text).exists():
        raise SubmissionError(
            f"submission {raw!r}: unknown language {prefix!r} (languages: {_languages()})"
        )
    path = _existing_file(raw, text)
    language = EXTENSIONS.get(path.suffix.lower())
    if language is not None:
        return SubmissionSpec(label=raw, kind="source", path=str(path), language=language)
    if os.access(path, os.X_OK):
        return SubmissionSpec(label=raw, kind="executable", path=str(path))
    raise SubmissionError(
        f"submission {raw!r}: cannot tell the language of {path.name!r}; "
        f"name it as LANG:PATH (languages: {_languages()}) or make it executable"
    )


def _existing_file(raw: str, text: str) -> Path:
    path = Path(text.strip()).expanduser()
    if not path.is_file():
        raise SubmissionError(f"submission {raw!r}: no such file {str(path)!r}")
    return path.resolve()


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
    source: bytes | None = None  # carried so another node can rebuild
    source_name: str = ""
    program: str | None = None  # built binary / script / executable on this node
    command: str | None = None
    version: str | None = None

    def _program_path(self) -> Path:
        """The built program, rebuilt into the local cache when missing on this node."""
        path = Path(self.program) if self.program else None
        if path is not None and path.exists():
            return path
        if self.kind == "source" and self.language and self.source is not None:
            built = build(self.language, self.source, default_cache_dir(), self.source_name)
            if built.program is None:
                raise RuntimeError(f"rebuild failed on this node: {built.error}")
            self.program = str(built.program)
            return built.program
        raise RuntimeError(f"program {self.program!r} is missing on this node")

    def command_line(self) -> tuple[list[str], dict[str, Path]]:
        """argv (relative to the scratch dir) and the files to place there."""
        if self.kind == "cmd":
            assert self.command is not None
            return ["/bin/sh", "-c", self.command], {}
        path = self._program_path()
        if self.kind == "executable":
            return ["./prog"], {"prog": path}
        assert self.language is not None
        lang = LANGUAGES[self.language]
        name = "prog" if lang.compile else lang.source_name
        return [a.format(prog=name) for a in lang.run], {name: path}

    def run(self, input_text: str, limits: Limits) -> ExecutionResult:
        """One run on one input; never raises for anything the program does."""
        if self.compile_error is not None:
            return ExecutionResult(judge_error="run() of a submission that did not compile")
        if self.kind == "solver":  # grade.runners.inprocess calls solvers in the judge itself
            return ExecutionResult(judge_error="run() of an in-process solver")
        from pipeline.program.sandbox import get_sandbox

        try:
            argv, files = self.command_line()
            stdin = input_text.encode()
            placed: dict[str, bytes | str | Path] = dict(files)
            if self.io.input_file:
                placed[self.io.input_file] = stdin
            return get_sandbox().run(
                argv, limits=limits, stdin=stdin, files=placed, output_file=self.io.output_file
            )
        except Exception as exc:  # the judge's own failure: JE, never the program's fault
            return ExecutionResult(judge_error=f"{type(exc).__name__}: {exc}")


def prepare(
    spec: SubmissionSpec, problem: Problem, cache_dir: Path | None = None
) -> PreparedSubmission:
    """Builds `spec` for `problem` (once per content hash into `cache_dir`). A compile
    failure does not raise: `compile_error` holds the compiler's message."""

    def new(**fields: Any) -> PreparedSubmission:
        return PreparedSubmission(
            label=spec.label, kind=spec.kind, problem=problem.name, io=problem.io, **fields
        )

    if spec.kind == "solver":
        if spec.problem != problem.name:
            raise SubmissionError(
                f"submission {spec.label!r} is a solver of {spec.problem!r}, not {problem.name!r}"
            )
        version = spec.version or problem.default_solver
        if version not in problem.solvers:
            known = ", ".join(problem.solvers)
            raise SubmissionError(
                f"submission {spec.label!r}: {problem.name} has no solver {version!r} "
                f"(versions: {known})"
            )
        sha = _sha(b"solver", f"{problem.name}@{version}".encode())
        return new(sha=sha, version=version)
    if spec.kind == "cmd":
        assert spec.command is not None
        try:
            shlex.split(spec.command)
        except ValueError as exc:
            raise SubmissionError(f"submission {spec.label!r}: bad command: {exc}") from None
        sha = _sha(b"cmd", spec.command.encode())
        return new(sha=sha, command=spec.command)
    assert spec.path is not None
    try:
        data = Path(spec.path).read_bytes()
    except OSError as exc:
        raise SubmissionError(f"submission {spec.label!r}: cannot read: {exc}") from None
    if spec.kind == "executable":
        sha = _sha(b"exe", data)
        return new(sha=sha, program=spec.path)
    assert spec.language is not None
    cache = cache_dir if cache_dir is not None else default_cache_dir()
    name = Path(spec.path).name
    built = build(spec.language, data, cache, name)
    return new(
        sha=_sha(b"src", spec.language.encode(), data),
        compile_error=built.error,
        language=spec.language,
        source=data,
        source_name=name,
        program=str(built.program) if built.program else None,
    )
