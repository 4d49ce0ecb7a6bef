"""A run seen from outside while it runs (an interaction's two runs): which of its
processes to look at, whether they still work, and ending them."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable

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
