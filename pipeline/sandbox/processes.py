"""Waiting for the processes of a run: its launcher under a wall-clock limit, its whole
process group until it is gone; and reading a wait status."""

from __future__ import annotations

import contextlib
import os
import resource
import select
import signal
import time

from pipeline.outcome import ExecutionResult
from pipeline.proctree import children as children
from pipeline.proctree import descendants as descendants


def kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


# how long the processes of a killed group may take to be gone (a JVM's thousands of
# threads, or a pid namespace's init killing the rest of its namespace)
GROUP_GONE_S = 10.0
GROUP_POLL_MAX_S = 0.02


def group_gone(pgid: int, timeout_s: float = GROUP_GONE_S) -> bool:
    """Waits until no process of group `pgid` (its leader already reaped) is left, so that
    a run is over only when everything it started is. Without cgroups this is how the
    judge sees a pid namespace's init, orphaned when the launcher was killed, finish
    killing the namespace."""
    deadline = time.monotonic() + timeout_s
    pause = 0.001
    while True:
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return True
        if not _live_members(pgid):  # zombies only: their parent (not the judge) reaps them
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(pause)
        pause = min(2 * pause, GROUP_POLL_MAX_S)  # each look reads /proc: not too often


def _live_members(pgid: int) -> bool:
    """Whether a process of group `pgid` is still running (not a zombie, or a zombie
    leader whose other threads still run)."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and (fields[0] != b"Z" or _threads_left(entry.name)):
            return True  # fields: state, ppid, pgrp
    return False


def _threads_left(pid: str) -> bool:
    """Whether a process shown as a zombie still runs threads: a leader thread that
    ended before the others shows its process as Z while they work on."""
    try:
        return len(os.listdir(f"/proc/{pid}/task")) > 1
    except OSError:
        return False


def wait_with_deadline(pid: int, wall_ms: float) -> tuple[int, resource.struct_rusage | None, bool]:
    """Waits for child `pid` (a session leader) at most `wall_ms` milliseconds; past that its
    whole process group is killed. Returns (wait status, rusage, wall limit hit)."""
    deadline = time.monotonic() + wall_ms / 1000
    hit = False
    try:
        pidfd: int | None = os.pidfd_open(pid)
    except OSError:
        pidfd = None
    try:
        if pidfd is not None:
            poller = select.poll()
            poller.register(pidfd, select.POLLIN)
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or poller.poll(left * 1000):
                    break
        else:
            while time.monotonic() < deadline:
                done, status, usage = os.wait4(pid, os.WNOHANG)
                if done:
                    return status, usage, False
                time.sleep(0.002)
        got, status, usage = os.wait4(pid, os.WNOHANG)
        if got == 0:
            hit = True
            kill_group(pid)
            got, status, usage = os.wait4(pid, 0)
        return status, usage, hit
    finally:
        if pidfd is not None:
            os.close(pidfd)


def decode_status(result: ExecutionResult, status: int) -> None:
    if os.WIFSIGNALED(status):
        result.signal = os.WTERMSIG(status)
        result.exit_code = None
    else:
        result.exit_code = os.waitstatus_to_exitcode(status)
