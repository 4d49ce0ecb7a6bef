"""A run seen from outside while it runs (an interaction's two runs): which of its
processes to look at, whether they still work, and ending them."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable

from pipeline.proctree import task_files

# the processes of a run a Handle looks at, the topmost first: killing those ends the run
# (its sandbox's init then kills the rest), and a run with more is not idle
WATCHED = 64


class Handle:
    """A run seen from outside while it runs (an interaction's two runs): the sandbox
    arms it with a function listing the program's processes (never the sandbox's own),
    disarms it once the run is over; `end(reason)` kills those still running and is safe
    to repeat; `activity()` tells whether they still work. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pids: Callable[[], list[int]] | None = None
        self._over = False  # disarmed: the run is over, whatever is still reported
        self._pending: str | None = None  # asked to end before it was armed
        self.ended: str | None = None  # why the judge ended the run

    def arm(self, pids: Callable[[], list[int]]) -> None:
        with self._lock:
            self._pids = pids
            if self._pending is not None:
                self._end(self._pending)

    def disarm(self) -> None:
        with self._lock:
            self._pids, self._over = None, True

    def end(self, reason: str) -> None:
        """Kills the run's live processes; `ended` says why only if one was there to kill.
        A run whose processes are all over ended by itself, however late its report
        reaches the judge (on a loaded machine, past an interactor's grace: it was then
        taken for out of time, JE). Asked before the run is armed, it ends once armed;
        callers ask again at each look, as a run may be armed before its program starts
        (docs/decisions.md#d7)."""
        with self._lock:
            if self._pids is None:
                if not self._over:
                    self._pending = reason
                return
            self._end(reason)

    def _end(self, reason: str) -> None:
        if self._kill() and self.ended is None:
            self.ended = reason

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
        return any(_alive(pid) for pid in pids)

    def _kill(self) -> bool:
        """SIGKILL to every process not over yet (a zombie is over); whether any was."""
        killed = False
        for pid in self._pids() if self._pids is not None else []:
            if not _alive(pid):
                continue
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed = True
        return killed


# the flag of a task on its way out (include/linux/sched.h): set as it begins to exit,
# before its files close
PF_EXITING = 0x4


def _alive(pid: int) -> bool:
    """Whether one of the process's threads is neither over (a zombie, dead) nor on its
    way out. A process whose files are already closed (its stdout's end seen by the
    other side) but that is not yet a zombie is exiting, not running: under load that
    window is long, and a crash taken for a run still going was ended "after the
    interactor" (WA for RE). A leader that called pthread_exit while its threads run is
    alive."""
    for stat in task_files(pid, "stat"):
        try:
            fields = stat.rsplit(b")", 1)[1].split()
        except IndexError:
            continue
        # fields[0] is stat's field 3, the state; fields[6] field 9, the flags
        if fields[0] not in (b"Z", b"X", b"x") and not int(fields[6]) & PF_EXITING:
            return True
    return False


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
