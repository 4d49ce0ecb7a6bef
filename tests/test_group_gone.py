"""A run is over when its whole process group is gone (sandbox.processes.group_gone), not when
its leader has been reaped: real processes, a leader that exits at once and a member of
its group that lingers."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from pipeline.sandbox.base import group_gone, kill_group


def _group_with_a_lingering_member(seconds: float) -> int:
    """A new process group whose leader exits at once (reaped here) while a background
    member sleeps `seconds`; returns the group id."""
    leader = subprocess.Popen(["sh", "-c", f"sleep {seconds} & exit 0"], start_new_session=True)
    assert leader.wait(timeout=10) == 0
    return leader.pid


def _running(pgid: int) -> list[int]:
    """The processes of group `pgid` that are not zombies, from /proc."""
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != b"Z":
            found.append(int(name))
    return found


def test_waits_for_a_member_that_outlives_its_leader() -> None:
    pgid = _group_with_a_lingering_member(0.3)
    assert _running(pgid)  # the leader is reaped, its member is not done
    assert group_gone(pgid, timeout_s=10.0)
    assert _running(pgid) == []


def test_gives_up_after_its_timeout_and_says_so() -> None:
    pgid = _group_with_a_lingering_member(30)
    try:
        assert not group_gone(pgid, timeout_s=0.2)
    finally:
        kill_group(pgid)
    assert group_gone(pgid, timeout_s=10.0)


def test_an_empty_group_is_gone_at_once() -> None:
    leader = subprocess.Popen(["true"], start_new_session=True)
    leader.wait(timeout=10)
    assert group_gone(leader.pid, timeout_s=0.0)


def test_a_group_of_zombies_is_gone() -> None:
    """A process that has ended but whose parent has not reaped it yet (here: this test,
    on purpose) runs nothing: the group is over."""
    leader = subprocess.Popen(["true"], start_new_session=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # until it has exited, unreaped
        with open(f"/proc/{leader.pid}/stat", "rb") as fh:
            if fh.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                break
        time.sleep(0.01)
    try:
        os.killpg(leader.pid, 0)  # the zombie is still there...
        assert group_gone(leader.pid, timeout_s=0.0)  # ...and the group is gone
    finally:
        leader.wait(timeout=10)


LEADER_LEAVES_FIRST = r"""
#include <pthread.h>
#include <unistd.h>
static void *work(void *arg) { (void)arg; usleep(800000); return 0; }
int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, work, 0);
    pthread_exit(0);
}
"""


def test_a_zombie_leader_whose_threads_still_run_is_not_gone(tmp_path: Path) -> None:
    """The leader thread ends first: /proc shows the process as Z while three threads
    still run (a JVM's main thread ending before its workers looks so); the group is
    gone only when they are."""
    source = tmp_path / "leader.c"
    source.write_text(LEADER_LEAVES_FIRST)
    subprocess.run(["gcc", "-O1", "-pthread", "-o", str(tmp_path / "leader"), str(source)],
                   check=True)  # fmt: skip
    proc = subprocess.Popen([str(tmp_path / "leader")], start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # until the leader thread has ended
            with open(f"/proc/{proc.pid}/stat", "rb") as fh:
                if fh.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    break
            time.sleep(0.005)
        assert len(os.listdir(f"/proc/{proc.pid}/task")) > 1  # its threads work on
        assert not group_gone(proc.pid, timeout_s=0.0)
        assert group_gone(proc.pid, timeout_s=10.0)
    finally:
        proc.wait(timeout=10)
