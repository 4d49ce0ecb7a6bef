"""The `bwrap` backend's wrapper (features.BWRAP): bubblewrap's filesystem isolation
(only the system directories, read-only; a private /tmp holding the scratch dir at
/tmp/box; /proc and /dev of its own; all namespaces unshared, network included).

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
from pipeline.outcome import ExecutionResult
from pipeline.sandbox import views
from pipeline.sandbox.base import Workspace, private_open
from pipeline.sandbox.errors import SandboxError

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


class Bwrap:
    """bubblewrap between the launcher and the program: its command inside the
    launcher's, the launcher's options it needs, and the figures it changes."""

    def __init__(self) -> None:
        found = shutil.which("bwrap")
        if found is None:
            raise SandboxError("the bwrap backend needs bubblewrap (apt-get install bubblewrap)")
        self.path = found
        self.binds = system_binds()

    def inner(
        self, ws: Workspace, argv: Sequence[str], limits: Limits, view: Sequence[str] | None
    ) -> list[str]:
        """bwrap's command, for the launcher to exec; its options in the run's args file
        (`args_file`), which the launcher hands it as fd 3."""
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
        with private_open(self.args_file(ws)) as fh:
            fh.write(b"".join(arg.encode() + b"\0" for arg in options))
        taker = [f"/proc/self/fd/{HANDOVER_FD + 1}", "--take-stdio", str(HANDOVER_FD), "--"]
        return [self.path, "--args", "3", "--", *taker, *argv]

    @staticmethod
    def args_file(ws: Workspace) -> Path:
        return ws.root / ARGS_FILE

    @staticmethod
    def launcher_args(limits: Limits, keep: Sequence[str]) -> list[str]:
        """The scratch dir bwrap binds: a private tmpfs in the launcher's own mount
        namespace, as large as the memory limit, the files to read back copied out."""
        private = ["--private-box", "--tmpfs-size", str(limits.memory_bytes)]
        for name in keep:
            private += ["--keep", name]
        return private

    @staticmethod
    def measured(
        result: ExecutionResult, group_cpu_ms: float, group_peak_kb: int, grouped: bool
    ) -> None:
        """bwrap's pid namespace hides the program from wait4: with a slot, CPU and peak
        are the cgroup's; a program killed by signal N is bwrap's exit status 128+N."""
        if grouped:
            result.cpu_ms = group_cpu_ms
            result.peak_rss_kb = group_peak_kb
        code = result.exit_code
        if result.signal is None and code is not None and 128 < code < 128 + 65:
            result.signal, result.exit_code = code - 128, None
