"""What running a program on one input gives: produced by the sandbox and by the
in-process runner, turned into a verdict by grade.verdict."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class ExecutionResult:
    """One run of a program. `output` is the answer taken (the output file when the
    problem declares one and the program wrote it, else stdout), capped at the limit.
    The *_exceeded flags record what the sandbox saw happen (a kill by its watchdog, a
    signal, an out-of-memory event, output cut at the cap); grade.verdict also compares the
    measurements with the limits."""

    exit_code: int | None = None
    signal: int | None = None
    cpu_ms: float = 0.0
    # a fork-server case: the CPU its server burned before it was ready (the program's
    # pre-main code, measured once per server), counted against this case's limit as a
    # spawned run's start-up is, but not in cpu_ms (one sample's noise would shift every
    # case of the server alike); 0 for a spawned run, whose start-up is in cpu_ms
    start_cpu_ms: float = 0.0
    wall_ms: float = 0.0
    peak_rss_kb: int = 0
    output: bytes = b""
    stderr_head: bytes = b""
    cpu_exceeded: bool = False
    wall_exceeded: bool = False
    memory_exceeded: bool = False
    output_exceeded: bool = False
    # Set when the judge itself failed (sandbox setup, missing launcher...): a JE, never
    # blamed on the program.
    judge_error: str | None = None
    # Set when a run that ended normally still counts as a runtime error (a fork-server
    # case that killed its server): the reason.
    runtime_error: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    # the files named in `read_back` that the run left in its scratch dir, each capped
    # at the output limit (a checker's feedback files: judgemessage.txt, score.txt...)
    files: dict[str, bytes] = field(default_factory=dict)


# the processes of a run a Handle looks at, the topmost first: killing those ends the run
# (its sandbox's init then kills the rest), and a run with more is not idle
WATCHED = 64


class Handle:
    """A run seen from outside while it runs (an interaction's two runs): the sandbox
    arms it with a function listing the program's processes (never the sandbox's own),
    disarms it once the run is over; `end(reason)` kills those processes (now, or as soon
    as it is armed) and is safe to repeat; `activity()` tells whether they still work.
    Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pids: Callable[[], list[int]] | None = None
        self.ended: str | None = None  # why the judge ended the run

    def arm(self, pids: Callable[[], list[int]]) -> None:
        with self._lock:
            self._pids = pids
            if self.ended is not None:
                self._kill()

    def disarm(self) -> None:
        with self._lock:
            self._pids = None

    def end(self, reason: str) -> None:
        with self._lock:
            if self.ended is None:
                self.ended = reason
            self._kill()

    @property
    def armed(self) -> bool:
        return self._pids is not None

    def activity(self) -> tuple[int, bool, bool]:
        """The processes' CPU so far (clock ticks); whether they may be working: a thread
        runs or waits for a CPU (R: a loaded machine's wait is not idleness) or for the
        disk (D), or no process is there yet (the sandbox still sets up); and whether one
        of their threads waits to read a pipe (its kernel wait channel says so: where the
        kernel does not tell, never, and the wall limit ends a deadlock). A sleep, a
        poll or a lock is no wait for the other side."""
        with self._lock:
            pids = self._pids() if self._pids is not None else []
        total, working, reading, seen = 0, False, False, False
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat", "rb") as fh:
                    fields = fh.read().rsplit(b")", 1)[1].split()
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            seen = True
            # utime, stime, cutime, cstime (fields 14-17 of stat; fields[0] is field 3)
            total += sum(int(f) for f in fields[11:15])
            for task in tasks:
                state, channel = _task_wait(pid, task)
                working = working or state in (b"R", b"D")
                reading = reading or b"pipe" in channel
        return total, working or not seen or len(pids) >= WATCHED, reading

    def running(self) -> bool:
        """Whether one of the processes is there and not over (a zombie is over)."""
        with self._lock:
            pids = self._pids() if self._pids is not None else []
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat", "rb") as fh:
                    if fh.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                        return True
            except (OSError, IndexError):
                continue
        return False

    def _kill(self) -> None:
        for pid in self._pids() if self._pids is not None else []:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def _task_wait(pid: int, task: str) -> tuple[bytes, bytes]:
    """A thread's state letter and kernel wait channel (b"" where unreadable)."""
    base = f"/proc/{pid}/task/{task}"
    try:
        with open(f"{base}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
        with open(f"{base}/wchan", "rb") as fh:
            return state, fh.read()
    except (OSError, IndexError):
        return b"", b""
