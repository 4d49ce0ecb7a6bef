"""Runs of a judge-side program (a package's checker or input validator) from a fork
server kept for the life of the process, so that a checker run per case costs a fork, not
a spawn. One server per (program, arguments); a program or a sandbox that cannot be
served is spawned by the sandbox as before.
"""

from __future__ import annotations

import atexit
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from pipeline.limits import Limits
from pipeline.program.execution import ExecutionResult
from pipeline.program.sandbox import FileSpec, get_sandbox
from pipeline.program.sandbox.forkserver import ForkServer, ForkServerUnavailable
from pipeline.program.submission import PreparedSubmission

# servers kept alive at once in one process (each holds a sandbox and a cgroup slot)
KEEP = 8

_lock = threading.Lock()
_servers: OrderedDict[tuple[str, tuple[str, ...], Limits], ForkServer | None] = OrderedDict()


def _server(
    program: PreparedSubmission, args: tuple[str, ...], limits: Limits
) -> ForkServer | None:
    """The live server of `program args`, started if needed; None where it cannot be."""
    key = (program.sha, args, limits)
    if key in _servers:
        server = _servers[key]
        _servers.move_to_end(key)
        if server is None or server.alive:
            return server
    try:
        server = program.start_fork_server(limits, args)
    except ForkServerUnavailable:
        server = None
    if not _servers:
        atexit.register(close_all)  # once per process; a repeat call finds nothing left
    _servers[key] = server
    while len(_servers) > KEEP:
        _, old = _servers.popitem(last=False)
        if old is not None:
            old.close()
    return server


def run(
    program: PreparedSubmission,
    args: Sequence[str],
    limits: Limits,
    *,
    stdin: bytes = b"",
    files: Mapping[str, FileSpec] | None = None,
    output_file: str | None = None,
    read_back: Sequence[str] = (),
) -> ExecutionResult:
    """`program args` on `stdin`, with `files` in its scratch dir: forked from its server
    where it has one, else spawned. A server lost during the run is started anew next
    time; a run it could not even start is spawned instead."""
    with _lock:
        server = _server(program, tuple(args), limits)
        if server is not None:
            result = server.run(stdin, limits, files, output_file, read_back)
            if not (result.judge_error and not server.alive):
                return result
    box = get_sandbox()
    argv, staged = program.command_line(limits.memory_mb)
    return box.run(
        [*argv, *args],
        limits=program.sandbox_limits(limits, box),
        stdin=stdin,
        files={**staged, **(files or {})},
        output_file=output_file,
        read_back=read_back,
    )


def close_all() -> None:
    with _lock:
        for server in _servers.values():
            if server is not None:
                server.close()
        _servers.clear()
