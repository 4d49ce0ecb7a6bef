"""cgroups_v2 slots for real, on a cgroup v2 host: `make test-cgroup2` runs this file in
a VM booted with a cgroup v2 kernel, as root (slots under the unified root) and as an
ordinary user given a delegated subtree (GRIDJUDGE_CGROUP). The normal suite does not
collect this folder (pyproject's norecursedirs)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from pipeline.sandbox import isolation
from pipeline.sandbox.cgroups import procs
from pipeline.sandbox.cgroups_v2 import (
    HELPER_MEMORY,
    HELPER_PROCESSES,
    Slot,
    SlotPool,
)

MB = 1 << 20


def run_in(slot: Slot, code: str) -> tuple[int, str, float]:
    """(wait status, stdout, CPU seconds by wait4) of `python3 -c code` in the slot. Its
    output goes to a file: a pipe would stay open while processes it left run."""
    join = f'echo $$ > "{slot.path}/cgroup.procs" && exec "$0" -c "$1"'
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(["sh", "-c", join, sys.executable, code], stdout=out)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0  # reaped above
        out.seek(0)
        return status, out.read(), usage.ru_utime + usage.ru_stime


ALLOCATE = "b = bytearray({n} << 20)\nfor i in range(0, len(b), 4096): b[i] = 1\nprint('done')"


def test_judge_sits_in_a_leaf_and_hands_controllers_on(pool: SlotPool) -> None:
    assert procs(pool.root) == [] or not (pool.root / "cgroup.type").exists()
    for path in (pool.root, pool.base):
        enabled = (path / "cgroup.subtree_control").read_text().split()
        assert {"memory", "pids"} <= set(enabled), path
    if os.geteuid() != 0:
        own, _ = isolation.parse_proc_cgroup(Path("/proc/self/cgroup").read_text())
        assert own is not None and own.endswith(f"/{isolation.JUDGE_LEAF}"), own


def test_memory_max_kills_with_oom_and_says_so(slot: Slot) -> None:
    slot.prepare(processes=8, memory_bytes=64 * MB)
    assert (slot.path / "memory.max").read_text().strip() == str(64 * MB + HELPER_MEMORY)
    swap = slot.path / "memory.swap.max"
    assert not swap.exists() or swap.read_text().strip() == "0"
    status, out, _ = run_in(slot, ALLOCATE.format(n=300))
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == 9, status
    assert out == ""
    peak, _, oom = slot.measure()
    assert oom
    assert 32 * MB < peak <= 64 * MB + HELPER_MEMORY


def test_peak_and_cpu_come_from_the_cgroup_and_reset_between_runs(slot: Slot) -> None:
    slot.prepare(processes=8, memory_bytes=512 * MB)
    burn = ALLOCATE.format(n=150) + "\nx = 0\nfor i in range(1_000_000): x += i"
    status, out, cpu_s = run_in(slot, burn)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and out == "done\n"
    peak, cpu_ns, oom = slot.measure()
    assert not oom
    assert 150 * MB <= peak < 300 * MB
    # the cgroup counts every process of the run: at least what wait4 saw of the program
    assert cpu_ns >= 0.9 * cpu_s * 1e9 > 0
    slot.prepare(processes=8, memory_bytes=512 * MB)
    status, out, _ = run_in(slot, "print('done')")
    assert out == "done\n"
    small_peak, small_cpu_ns, oom = slot.measure()
    assert not oom
    assert small_peak < 100 * MB < peak
    assert small_cpu_ns < cpu_ns


FORK_BOMB = """
import os, time
made = 0
for _ in range(200):
    try:
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        made += 1
    except OSError:
        pass
print(made)
"""


def test_fork_bomb_is_held_by_pids_max_and_killed(slot: Slot) -> None:
    slot.prepare(processes=8, memory_bytes=256 * MB)
    status, out, _ = run_in(slot, FORK_BOMB)
    assert os.WIFEXITED(status), status
    made = int(out)
    # sh exec'd into python: the program is one process, its children the rest
    assert 0 < made <= 8 + HELPER_PROCESSES - 1
    assert int((slot.path / "pids.current").read_text()) == made
    left = procs(slot.path)
    assert len(left) == made
    assert slot.kill_all()
    assert procs(slot.path) == []
    for pid in left:
        assert not Path(f"/proc/{pid}").exists() or _zombie_elsewhere(pid)


def _zombie_elsewhere(pid: int) -> bool:
    """A killed orphan is reaped by init, which may not have done it yet."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


def test_nothing_of_a_run_is_left_after_kill_all(slot: Slot) -> None:
    slot.prepare(processes=8, memory_bytes=256 * MB)
    code = (
        "import subprocess\n"
        "p = subprocess.Popen(['sleep', '600'], start_new_session=True)\n"
        "print(p.pid)"
    )
    status, out, _ = run_in(slot, code)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    escaped = int(out)
    assert procs(slot.path) == [escaped]  # it left the session, not the cgroup
    assert slot.kill_all()
    assert procs(slot.path) == []
    assert not slot.populated()


def test_preparing_again_keeps_what_runs_in_the_slot(slot: Slot) -> None:
    """A fork server's slot is prepared, the server started, then prepared again."""
    slot.prepare(processes=8, memory_bytes=None)
    join = f'echo $$ > "{slot.path}/cgroup.procs" && exec sleep 600'
    server = subprocess.Popen(["sh", "-c", join])
    while server.pid not in procs(slot.path):
        assert server.poll() is None
    slot.prepare(processes=8, memory_bytes=256 * MB)
    assert procs(slot.path) == [server.pid] and server.poll() is None
    assert slot.kill_all()
    assert server.wait() == -9


def test_slots_are_reused_and_removed(pool: SlotPool) -> None:
    first = pool.acquire()
    pool.release(first)
    again = pool.acquire()
    assert again is first
    pool.release(again)
    extra = pool.acquire()
    other = pool.acquire()
    assert other.path != extra.path and other.path.is_dir()
    pool.release(extra)
    pool.release(other)
    assert os.getpid() not in procs(other.path)  # the judge itself is in no slot
    pool.close()
    assert not extra.path.exists() and not other.path.exists()


def test_memory_a_run_leaves_charged_is_not_the_next_run_s_peak(
    pool: SlotPool, tmp_path: Path
) -> None:
    """A run that leaves 64 MB in a file on a tmpfs (charged to its slot, and nothing can
    reclaim it without swap): the next run in the pool gets a peak without it."""
    shm = Path("/dev/shm")
    left = (shm if shm.is_dir() else tmp_path) / f"gridjudge-left-{os.getpid()}"
    slot = pool.acquire()
    try:
        slot.prepare(processes=8, memory_bytes=512 * MB)
        write = f"open({str(left)!r}, 'wb').write(b'x' * (64 << 20)); print('done')"
        _, out, _ = run_in(slot, write)
        assert out == "done\n"
        peak, _, _ = slot.measure()
        assert peak >= 64 * MB
        pool.release(slot)
        slot = pool.acquire()
        slot.prepare(processes=8, memory_bytes=512 * MB)
        _, out, _ = run_in(slot, "print('done')")
        assert out == "done\n"
        small_peak, _, _ = slot.measure()
        assert small_peak < 32 * MB, small_peak
    finally:
        left.unlink(missing_ok=True)
        assert slot.kill_all()
        pool.release(slot)
