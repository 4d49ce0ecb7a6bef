"""What the launcher is told, shared by the spawning backends (rlimit.py) and the fork
server (forkserver.py): the environment, the limits it sets for the judge, serving."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.program.sandbox.base import SANDBOX_PATH

ENV = {
    "PATH": SANDBOX_PATH,
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
}

NOFILE = 256
# the launcher kills a program this long after it used up its CPU limit (verdicts
# compare the measured CPU time with the limit). No RLIMIT_CPU: it would make the
# program's own CPU clock tick-granular (launcher.c); the wall limit is the backstop.
CPU_KILL_MARGIN_MS = 50


@dataclass(frozen=True)
class Serve:
    """The launcher as a fork server's init (serve.c): how long the server may take to
    be ready, and whether the CPU it burned until then is charged to every case (a
    native program's pre-main code; not the Python zygote's own imports)."""

    start_ms: int
    charge_start: bool
