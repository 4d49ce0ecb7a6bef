"""What the launcher is told and what it reports, shared by the spawning backends
(rlimit.py) and the fork server (forkserver.py): the environment, the limits it sets for
the judge, serving, and its one report format."""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.sandbox import views
from pipeline.sandbox.base import SANDBOX_PATH
from pipeline.sandbox.processes import decode_status

ENV = {
    "PATH": SANDBOX_PATH,
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
}

NOFILE = 256
# world-writable places other than /tmp, replaced by private tmpfs mounts as well
EXTRA_HIDDEN = ("/var/tmp", "/dev/shm", "/var/lock", "/run/lock")
# the launcher kills a program this long after it used up its CPU limit (verdicts
# compare the measured CPU time with the limit). No RLIMIT_CPU: it would make the
# program's own CPU clock tick-granular (launcher.c); the wall limit is the backstop.
CPU_KILL_MARGIN_MS = 50
# how long past a run's wall limit (which the watchdog enforces, spawned or served) the
# judge waits for the report: time for INIT to end the run's processes (a JVM's threads),
# copy its files back and report, and the bound on a launcher or server that never does
WALL_BACKSTOP_MS = 5000


@dataclass(frozen=True)
class Serve:
    """The launcher as a fork server's init (serve.c): how long the server may take to
    be ready, and whether the CPU it burned until then is charged to every case's budget
    (a native program's pre-main code; not the Python zygote's own imports)."""

    start_ms: int
    charge_start: bool

    def args(self) -> list[str]:
        """The launcher's serving options (times in microseconds, as LimitsRequest's)."""
        return ["--serve", "--start-us", str(self.start_ms * 1000)] + (
            ["--charge-start"] if self.charge_start else []
        )


@dataclass(frozen=True)
class LimitsRequest:
    """A run's limits as the launcher and a fork server's init take them, made from
    `Limits` in one place (`of`): the CPU limit cut to whole milliseconds plus the kill
    margin, and the wall limit cut to whole milliseconds, both then in microseconds, the
    one unit of every time the C side reads (it converts none); the output cap one byte
    past the output limit (RLIMIT_FSIZE stops the write that would exceed it), the stack
    as large as the memory limit (a default thread's stack is sized from it), and the
    memory limit in KB for the watchdog where no cgroup holds it. A spawned run gets
    them as options (`spawned_args`), a served case as its request's fields
    (`case_text`)."""

    cpu_us: int
    wall_us: int
    output_bytes: int
    stack_bytes: int
    memory_kb: int
    nofile: int = NOFILE

    @classmethod
    def of(cls, limits: Limits) -> LimitsRequest:
        return cls(
            cpu_us=(int(limits.cpu_ms) + CPU_KILL_MARGIN_MS) * 1000,
            wall_us=int(limits.wall_limit_ms) * 1000,
            output_bytes=limits.output_bytes + 1,
            stack_bytes=limits.memory_bytes,
            memory_kb=limits.memory_bytes // 1024,
        )

    def common_args(self) -> list[str]:
        """What every launcher gets, spawned or serving: the stack and open files, and
        the CPU limit (serving: the most CPU the server may burn before it is ready)."""
        return ["--stack", str(self.stack_bytes), "--nofile", str(self.nofile),
                "--cpu-us", str(self.cpu_us)]  # fmt: skip

    def spawned_args(self) -> list[str]:
        """A spawned run's own: its output cap and its wall limit (the watchdog's)."""
        return ["--fsize", str(self.output_bytes), "--wall-us", str(self.wall_us)]

    def memory_args(self) -> list[str]:
        """The memory limit where no cgroup holds it: the launcher's watchdog sums the
        resident memory of the run's processes (its pid namespace's, or those below the
        launcher's init) and what its tmpfs mounts hold, and kills the run past the
        limit (run.c). Like a memory cgroup it holds all of them together, and like one
        it sets no address space limit: a default thread's stack fits, and a runtime's
        reserve of unused address space costs nothing."""
        return ["--mem-kb", str(self.memory_kb)]

    def case_text(self) -> str:
        """The limits' fields of a served case's request (serve.c reads them in this
        order)."""
        return f" {self.cpu_us} {self.wall_us} {self.output_bytes} {self.stack_bytes} {self.nofile}"


def view_args(
    memory: int,
    keep: Sequence[str],
    concealed: Sequence[str],
    view: Sequence[str] | None = None,
) -> list[str]:
    """The launcher's filesystem view (with --ns): the private scratch dir (a copy of the
    staged files, the `keep` ones copied back) and writable folders, tmpfs mounts as large
    as the memory limit, in whose memory they count; the `concealed` folders hidden; a
    compiler's `view` (views.py), where None is a program's."""
    args = ["--hide-all", "--tmpfs-size", str(memory)]
    for name in keep:
        args += ["--keep", name]
    for path in EXTRA_HIDDEN:
        if os.path.isdir(path) and not os.path.islink(path):
            args += ["--hide", path]
    for path in concealed:
        if os.path.isdir(path):
            args += ["--conceal", path]
    return args + (views.launcher_args(view) if view is not None else [])


def parse_report(text: str) -> dict[str, str]:
    """The launcher's report (run.c's format_report), spawned (its report file) or served
    (a socket message): `key value` pairs on one line, `error TEXT` last."""
    line, _, _ = text.strip().partition("\n")
    words = line.split()
    info: dict[str, str] = {}
    for at in range(0, len(words), 2):  # keys sit at even places
        if words[at] == "error":
            info["error"] = " ".join(words[at + 1 :])
            break
        if at + 1 < len(words):
            info[words[at]] = words[at + 1]
    return info


def read_report(path: Path) -> dict[str, str]:
    """The launcher's report file, parsed; empty when it wrote none."""
    try:
        return parse_report(path.read_text(errors="replace"))
    except OSError:
        return {}


def apply_report(result: ExecutionResult, report: Mapping[str, str], limits: Limits) -> None:
    """A launcher report holding a status (spawned or served) onto `result`: how the
    program ended, its CPU time and peak (of every process it started), what the watchdog
    killed it for, and the CPU limit compared with what it used. A served case's limit
    also holds its server's start-up CPU (`start_cpu_ms`: what the program burned before
    the server was ready, measured once per server), as a spawned run's limit holds its
    own start-up; its CPU time is its own, the start-up kept beside it."""
    decode_status(result, int(report["status"]))
    result.cpu_ms = int(report["cpu_us"]) / 1000
    result.start_cpu_ms = int(report.get("start_cpu_us", "0")) / 1000
    result.peak_rss_kb = int(report["maxrss_kb"])
    result.wall_exceeded = result.wall_exceeded or report.get("wall_killed") == "1"
    result.memory_exceeded = result.memory_exceeded or report.get("mem_killed") == "1"
    result.cpu_exceeded = (
        report.get("cpu_killed") == "1"
        or limits.cpu_over(result.cpu_ms + result.start_cpu_ms)
        or result.signal == signal.SIGXCPU
    )
