"""The `bwrap` backend: bubblewrap's filesystem isolation (only the system directories,
read-only; a private /tmp holding the scratch dir at /tmp/box; /proc and /dev of its
own; all namespaces unshared, network included).

The launcher joins the cgroup slot, sets the rlimits and drops to nobody, then execs
bwrap, which builds the sandbox in an unprivileged user namespace. bwrap's pid namespace
hides the program's CPU time and RSS from wait4, so both come from the
cgroup (cpuacct and memory max usage: they include bwrap's own small share). bwrap
reports a program killed by signal N as exit status 128+N, read back as that signal.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from pipeline.limits import Limits
from pipeline.sandbox import slots, views
from pipeline.sandbox.base import Workspace, private_open
from pipeline.sandbox.errors import SandboxError
from pipeline.sandbox.result import ExecutionResult
from pipeline.sandbox.rlimit import RlimitSandbox, Serve

ARGS_FILE = "bwrap-args"
# the socket the launcher's INIT sends the run's stdio on, and the launcher's executable
# after it (launcher.c's hand_over): bwrap starts the launcher in its sandbox, which takes
# them and execs the program, so that none of bwrap's processes holds the program's
# stdout (an interactor reads the end of its input when the program closes it)
HANDOVER_FD = 4
SYSTEM_DIRS = ("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc")


def system_binds(exclude: Sequence[str] = ()) -> list[str]:
    args: list[str] = []
    for name in (n for n in SYSTEM_DIRS if n not in exclude):
        path = f"/{name}"
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args


class BwrapSandbox(RlimitSandbox):
    name = "bwrap"

    def __init__(self) -> None:
        self.bwrap = shutil.which("bwrap")
        if self.bwrap is None:
            raise SandboxError("the bwrap backend needs bubblewrap (apt-get install bubblewrap)")
        self.binds = system_binds()
        super().__init__(namespaces=False, hide_fs=False)
        # an ordinary user: the launcher makes a user namespace of the run's own, in
        # which RLIMIT_NPROC counts the run's tasks alone (no pids cgroup holds a fork
        # bomb), and bwrap makes its namespaces inside it
        self.userns = os.geteuid() != 0

    def _probe_namespaces(self) -> bool:
        return True

    @property
    def unsandboxed(self) -> bool:
        return False  # bwrap makes its own namespaces

    def command(
        self,
        ws: Workspace,
        argv: Sequence[str],
        limits: Limits,
        slot: slots.Slot | None,
        *,
        serve: Serve | None = None,
        args_file: Path | None = None,
        handover: int | None = None,
        view: Sequence[str] | None = None,
        keep: Sequence[str] = (),
    ) -> list[str]:
        assert self.bwrap is not None and serve is None and args_file is None
        binds = self.binds
        if view is not None:  # a compiler's: of /etc only what it reads (views.py)
            binds = [*system_binds(exclude=("etc",)), *views.bwrap_binds(view)]
        options = [
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            *binds,
            "--proc", "/proc",
            "--dev", "/dev",
            "--size", str(limits.memory_bytes), "--tmpfs", "/tmp",
            "--bind", str(ws.box), "/tmp/box",
            "--chdir", "/tmp/box",
        ]  # fmt: skip
        # bwrap reads its options from fd 3 (the launcher opens the file): as pid 1 of the
        # program's namespace, running as the program's user, its command line is the
        # program's to read, and must not name the judge's run folder
        with private_open(ws.root / ARGS_FILE) as fh:
            fh.write(b"".join(arg.encode() + b"\0" for arg in options))
        taker = [f"/proc/self/fd/{HANDOVER_FD + 1}", "--take-stdio", str(HANDOVER_FD), "--"]
        inner = [self.bwrap, "--args", "3", "--", *taker, *argv]
        # with a slot, the watchdog reads the cgroup (bwrap hides the program's clock)
        args = super().command(
            ws, inner, limits, slot, args_file=ws.root / ARGS_FILE, handover=HANDOVER_FD
        )
        # the scratch dir bwrap binds: a private tmpfs in the launcher's own mount
        # namespace, as large as the memory limit, the files to read back copied out
        private = ["--private-box", "--tmpfs-size", str(limits.memory_bytes)]
        for name in keep:
            private += ["--keep", name]
        at = args.index("--")
        return [*args[:at], *private, *args[at:]]

    def _measured(
        self, result: ExecutionResult, group_cpu_ms: float, group_peak_kb: int, grouped: bool
    ) -> None:
        if grouped:
            result.cpu_ms = group_cpu_ms
            result.peak_rss_kb = group_peak_kb
        code = result.exit_code
        if result.signal is None and code is not None and 128 < code < 128 + 65:
            result.signal, result.exit_code = code - 128, None
