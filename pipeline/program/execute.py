"""The one way a program runs in the sandbox: submissions, a package's validators and
checkers, compile steps, the languages' self-tests, stress. Nothing else in the engine
starts a sandboxed process (an import-linter contract in pyproject.toml;
docs/decisions.md#d2).

`run(program, ...)` forks the run from the program's fork server in `servers` where the
program and the sandbox allow it, and spawns it otherwise; the result's
`extra["runner"]` says which, and why a run was spawned. The rule, stated once here:
- a server is started on a program's first run in a `Servers` (one per program,
  arguments, memory and process limits), and kept until the `Servers` is closed;
- a program that cannot be served (the sandbox cannot, the language is not forked, a
  statically linked binary) is spawned from then on, saying why;
- a server that fails before the run is over is started anew once for that run; if that
  fails too, the run is spawned;
- a spawned run that ends in a judge error is tried again (the infrastructure's fault, not
  the program's) before its judge error stands.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.program.languages import get_language
from pipeline.sandbox import FileSpec, get_sandbox
from pipeline.sandbox.base import RunRequest, Server, ServerRequest, close_fds
from pipeline.sandbox.forkserver import (
    LIBRARY,
    ZYGOTE,
    ForkServerUnavailable,
    inside,
    why_not_served,
    zygote_script,
)
from pipeline.sandbox.handle import Handle
from pipeline.sandbox.launched import UNSANDBOXED
from pipeline.sandbox.launcher import fork_server_library

__all__ = [
    "FileSpec",
    "Program",
    "RunRequest",
    "Servers",
    "conceal",
    "current_judge_servers",
    "judging_with",
    "run",
    "run_command",
]

FORK_SERVER = "fork-server"
SPAWN = "spawn"
# a server lost during a run is started anew this many times for that run
RESTARTS = 1
# a spawned run's judge error is tried again this many times
JE_RETRIES = 2
# servers one `Servers` keeps alive at once (each holds a sandbox and a cgroup slot)
KEEP = 8


class Program(Protocol):
    """What the seam needs of a program (pipeline.program.submission.PreparedSubmission)."""

    label: str
    sha: str
    kind: str
    language: str | None
    compile_error: str | None
    unavailable: str | None

    def command_line(self, memory_mb: int = 256) -> tuple[list[str], dict[str, Path]]: ...


def run_command(argv: Sequence[str], request: RunRequest) -> ExecutionResult:
    """`argv` spawned in the process-wide sandbox (a compile step, or a program no fork
    server serves); a judge error is tried again before it stands (not a run on
    `request.stdio`, fds the first try takes: interact tries the whole interaction
    again). A compile step's `request.view` shows of /etc, /var and /opt only its paths
    (sandbox/views.py)."""
    box = get_sandbox()
    if request.stdio is not None:
        return box.run(argv, request)
    request = replace(request, handle=None)  # a handle ends a run on an interaction's pipes
    for _ in range(JE_RETRIES):
        result = box.run(argv, request)
        if not result.judge_error:
            return result
    return box.run(argv, request)


def conceal(paths: Iterable[Path | str]) -> None:
    """Folders of judge data this process works with (corpora, a package, the run
    folder): hidden from the view of every program run from now on."""
    get_sandbox().conceal(paths)


def _server_request(program: Program, limits: Limits, args: Sequence[str]) -> ServerRequest:
    """`program args` as a fork server starts it (argv, files, environment, and whether
    the fork-server library is preloaded); ForkServerUnavailable with the reason it
    cannot be served."""
    if program.kind not in ("source", "executable"):
        raise ForkServerUnavailable(f"{program.kind} submission")
    mode = get_language(program.language).fork_server if program.language else "preload"
    if mode is None:
        raise ForkServerUnavailable(f"{program.language}: not forked")
    argv, paths = program.command_line(limits.memory_mb)
    files: dict[str, FileSpec] = dict(paths)
    env: dict[str, str] = {}
    if argv[0] == "env":  # the variables go to the server itself
        argv = argv[1:]
        while argv and "=" in argv[0]:
            name, _, value = argv.pop(0).partition("=")
            env[name] = value
    if mode == "zygote":
        files[ZYGOTE] = zygote_script()
        argv = [argv[0], inside(ZYGOTE), inside(LIBRARY), inside(argv[1]), *argv[2:]]
    elif why := why_not_served(
        Path(str(files.get(argv[0].removeprefix("./"), ""))), fork_server_library()
    ):
        raise ForkServerUnavailable(why)
    return ServerRequest([*argv, *args], files, limits, env, preload=mode != "zygote")


def start_server(program: Program, limits: Limits, args: Sequence[str] = ()) -> Server:
    """`program args` started as a fork server in the process-wide sandbox; raises
    ForkServerUnavailable with the reason it cannot be served."""
    return get_sandbox().start_server(_server_request(program, limits, args))


ServerKey = tuple[str, tuple[str, ...], int, int]


@dataclass
class Servers:
    """The fork servers of one owner (a submission's runner, a chunk's validators), never
    shared with another: a server holds what its cases sent it. `fork=False` spawns
    every run."""

    fork: bool = True
    started: int = 0  # servers started so far
    _live: OrderedDict[ServerKey, Server] = field(default_factory=OrderedDict)
    _unavailable: dict[ServerKey, str] = field(default_factory=dict)

    def _server(
        self, key: ServerKey, program: Program, limits: Limits, args: Sequence[str]
    ) -> Server | None:
        if key in self._unavailable:
            return None
        server = self._live.get(key)
        if server is not None and server.alive:
            self._live.move_to_end(key)
            return server
        try:
            server = start_server(program, limits, args)
        except ForkServerUnavailable as exc:
            self._unavailable[key] = f"{SPAWN} ({exc})"
            return None
        except Exception as exc:  # the judge's: spawning gives JE where the run fails too
            self._unavailable[key] = f"{SPAWN} (no fork server: {type(exc).__name__}: {exc})"
            return None
        self.started += 1
        self._live[key] = server
        self._live.move_to_end(key)
        while len(self._live) > KEEP:
            _, old = self._live.popitem(last=False)
            old.close()
        return server

    def ready(self, program: Program, limits: Limits, args: Sequence[str] = ()) -> None:
        """`program`'s server started now, if it is forked and not started yet (or the
        reason it is spawned learned): `interact` readies both sides before either one's
        clock runs, so that neither waits out the other's start."""
        if self.fork and refusal(program) is None:
            self._server((program.sha, tuple(args), limits.memory_mb, limits.processes),
                         program, limits, args)  # fmt: skip

    def serve(
        self, program: Program, args: Sequence[str], request: RunRequest
    ) -> tuple[ExecutionResult | None, str]:
        """The run forked from the program's server, or None and the reason to spawn
        (`request.stdio` is then still the caller's; else the run took it)."""
        limits, stdio = request.limits, request.stdio
        key = (program.sha, tuple(args), limits.memory_mb, limits.processes)
        for _ in range(1 + RESTARTS):
            server = self._server(key, program, limits, args)
            if server is None:
                return None, self._unavailable[key]
            result = server.run(request)
            if stdio is not None or not (result.judge_error and not server.alive):
                result.extra["runner"] = FORK_SERVER
                return result, FORK_SERVER
        return None, f"{SPAWN} (the fork server failed)"

    def close(self) -> None:
        for server in self._live.values():
            server.close()
        self._live.clear()


def run(
    program: Program,
    stdin: bytes = b"",
    *,
    limits: Limits,
    args: Sequence[str] = (),
    files: Mapping[str, FileSpec] | None = None,
    output_file: str | None = None,
    read_back: Sequence[str] = (),
    servers: Servers | None = None,
    stdio: tuple[int, int] | None = None,
    handle: Handle | None = None,
) -> ExecutionResult:
    """`program args` on `stdin` with `files` in its scratch dir, under `limits` (the
    files named in `read_back` that it leaves there come back in `files`): forked
    from its server in `servers` where it can be, else spawned (the module docstring has
    the rule). `stdio`: the program's stdin and stdout fds instead (taken and closed by
    the call, whatever happens; `interact` passes its pipes); `handle`: armed with the
    program's processes while it runs (execution.Handle). Never raises for anything
    the program does; the judge's own failures are judge errors."""
    refused = refusal(program)
    if refused is not None:
        close_fds(stdio)
        return refused
    request = RunRequest(limits, stdin, files, output_file, read_back, stdio, handle)
    try:
        how = SPAWN
        if servers is not None and servers.fork:
            served, how = servers.serve(program, args, request)
            if served is not None:
                return served
        argv, paths = program.command_line(limits.memory_mb)
        stdio = None  # run_command takes them
        result = run_command([*argv, *args], replace(request, files={**paths, **(files or {})}))
    except Exception as exc:  # the judge's own failure: JE, never the program's fault
        close_fds(stdio)
        return ExecutionResult(judge_error=f"{type(exc).__name__}: {exc}")
    if how == SPAWN and getattr(get_sandbox(), "unsandboxed", False):
        how = f"{SPAWN} ({UNSANDBOXED})"  # every row says so (--allow-unsandboxed)
    result.extra["runner"] = how
    return result


def refusal(program: Program) -> ExecutionResult | None:
    """The judge error of a program that cannot run at all, or None."""
    if program.compile_error is not None:
        return ExecutionResult(judge_error="run of a program that did not compile")
    if program.kind == "solver":  # grade.runners.inprocess calls solvers in the judge itself
        return ExecutionResult(judge_error="run of an in-process solver")
    if program.unavailable is not None:
        return ExecutionResult(judge_error=program.unavailable)
    return None


_judge_servers: contextvars.ContextVar[Servers | None] = contextvars.ContextVar(
    "judge_servers", default=None
)


@contextlib.contextmanager
def judging_with(servers: Servers) -> Iterator[None]:
    """The judge-side programs (a package's validators and checkers) run inside this
    block are served from `servers`, which the caller owns and closes: each grade runner
    has its own, so that a checker's server never sees two submissions' outputs."""
    token = _judge_servers.set(servers)
    try:
        yield
    finally:
        _judge_servers.reset(token)


def current_judge_servers() -> Servers | None:
    """The `Servers` of the enclosing `judge_servers` block, if any (else: spawn)."""
    return _judge_servers.get()
