"""cgroup v1 slots for sandboxed runs: pids (process count), memory (limit and peak,
OOM kills) and cpuacct (CPU of every process of the run).

A slot is a set of per-process cgroups `gridjudge/<pid>-<n>` reused run after run
(creating cgroups per run is slower); slots are removed at exit, and slots of dead
judge processes are swept when a new pool starts (`sweep_stale`, which cgroups_v2.py's
pools use too). Where cgroup v1 is not writable the pool is empty and the sandbox falls
back to rlimits alone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.sandbox import slots

CGROUP_ROOT = Path(os.environ.get("GRIDJUDGE_CGROUP_ROOT", "/sys/fs/cgroup"))
CONTROLLERS = ("pids", "memory", "cpuacct")
GROUP = "gridjudge"
# the launcher and the namespace's init process run in the slot too
HELPER_PROCESSES = 2
HELPER_MEMORY = 8 << 20
# memory a released slot may still hold (kernel bookkeeping): more, and it is replaced
RELEASE_BOUND = 1 << 20


def write_file(path: Path, value: str) -> None:
    """One write of a cgroup file (a cgroup takes a value in one write)."""
    with open(path, "w") as fh:
        fh.write(value)


def read_file(path: Path) -> str:
    with open(path) as fh:
        return fh.read()


@dataclass
class HeldFile:
    """A cgroup file read after every run (the OOM kill count): opened once, then read
    from its start with one pread (an open and a close per read were a tenth of a served
    case's time in the judge). Closed when the slot goes or is made anew."""

    path: Path
    fd: int | None = None

    def read(self) -> str:
        if self.fd is None:
            self.fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        return os.pread(self.fd, 4096, 0).decode()

    def close(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None


def available() -> bool:
    """True when this process may create cgroups under every controller we use."""
    for ctrl in CONTROLLERS:
        base = CGROUP_ROOT / ctrl
        if not (base / "cgroup.procs").exists():
            return False
        try:
            (base / GROUP).mkdir(exist_ok=True)
        except OSError:
            return False
        if not os.access(base / GROUP, os.W_OK):
            return False
    return True


def procs(path: Path) -> list[int]:
    try:
        return [int(p) for p in read_file(path / "cgroup.procs").split()]
    except (OSError, ValueError):
        return []


@dataclass
class Slot:
    name: str
    dirs: dict[str, Path] = field(default_factory=dict)
    _pids_max: int = -1
    _memory_limit: int = -1
    _oom_kills: int = 0
    _oom_control: HeldFile | None = None

    @classmethod
    def create(cls, name: str) -> Slot:
        slot = cls(name)
        for ctrl in CONTROLLERS:
            path = CGROUP_ROOT / ctrl / GROUP / name
            path.mkdir(exist_ok=True)
            slot.dirs[ctrl] = path
        return slot

    @property
    def join_dirs(self) -> list[str]:
        return [str(p) for p in self.dirs.values()]

    @property
    def cpu_file(self) -> Path:
        """Nanoseconds of CPU of every process of the slot."""
        return self.dirs["cpuacct"] / "cpuacct.usage"

    @property
    def procs_file(self) -> Path:
        return self.dirs["pids"] / "cgroup.procs"

    def prepare(self, processes: int, memory_bytes: int | None) -> None:
        """Sets the limits of the next run and resets its counters."""
        pids_max = processes + HELPER_PROCESSES
        if pids_max != self._pids_max:
            write_file(self.dirs["pids"] / "pids.max", str(pids_max))
            self._pids_max = pids_max
        mem = self.dirs["memory"]
        limit = -1 if memory_bytes is None else memory_bytes + HELPER_MEMORY
        if limit != self._memory_limit:
            # memsw (where swap accounting exists) must stay >= the memory limit
            try:
                write_file(mem / "memory.limit_in_bytes", str(limit))
            except OSError:
                write_file(mem / "memory.memsw.limit_in_bytes", str(limit))
                write_file(mem / "memory.limit_in_bytes", str(limit))
            with contextlib.suppress(OSError):
                write_file(mem / "memory.memsw.limit_in_bytes", str(limit))
            self._memory_limit = limit
        write_file(mem / "memory.max_usage_in_bytes", "0")
        self._oom_kills = self.oom_kills()
        write_file(self.dirs["cpuacct"] / "cpuacct.usage", "0")

    def oom_kills(self) -> int:
        """How many processes the OOM killer has killed in this slot so far."""
        if self._oom_control is None:
            self._oom_control = HeldFile(self.dirs["memory"] / "memory.oom_control")
        for line in self._oom_control.read().splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def usage(self) -> int:
        """Memory charged to the slot now, in bytes."""
        return int(read_file(self.dirs["memory"] / "memory.usage_in_bytes"))

    def clean(self) -> bool:
        """Whether at most RELEASE_BOUND bytes stay charged once the page cache it holds
        is given back (force_empty: what remains is memory nothing can reclaim)."""
        try:
            if self.usage() <= RELEASE_BOUND:
                return True
            write_file(self.dirs["memory"] / "memory.force_empty", "0")
            return self.usage() <= RELEASE_BOUND
        except (OSError, ValueError):
            return False

    def measure(self) -> tuple[int, int, bool]:
        """(peak memory bytes, CPU ns, whether the OOM killer fired) of the last run."""
        mem = self.dirs["memory"]
        peak = int(read_file(mem / "memory.max_usage_in_bytes"))
        cpu = int(read_file(self.dirs["cpuacct"] / "cpuacct.usage"))
        return peak, cpu, self.oom_kills() > self._oom_kills

    def kill_all(self, timeout_s: float = 5.0) -> bool:
        """SIGKILL every process still in the slot; True once it is empty."""
        deadline = time.monotonic() + timeout_s
        path = self.dirs["pids"]
        while True:
            left = procs(path)
            if not left:
                return True
            for pid in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)

    def remove(self) -> None:
        if self._oom_control is not None:
            self._oom_control.close()
        self.kill_all(timeout_s=1.0)
        for path in self.dirs.values():
            with contextlib.suppress(OSError):
                path.rmdir()


class SlotPool(slots.SlotPool):
    """cgroup v1 slots of this process (slots.SlotPool), under every controller's
    `gridjudge` folder."""

    def __init__(self) -> None:
        sweep_stale()
        super().__init__(Slot.create)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def v1_bases() -> list[Path]:
    return [CGROUP_ROOT / ctrl / GROUP for ctrl in CONTROLLERS]


def sweep_stale(bases: Iterable[Path] | None = None) -> int:
    """Removes slots (`<pid>-<n>` folders of `bases`, the v1 controllers' by default)
    left behind by judge processes that died without cleaning up; how many."""
    removed = 0
    for base in v1_bases() if bases is None else bases:
        if not base.is_dir():
            continue
        for path in base.iterdir():
            owner, _, _ = path.name.partition("-")
            if not path.is_dir() or not owner.isdigit() or _alive(int(owner)):
                continue
            _kill_members(path)
            with contextlib.suppress(OSError):
                path.rmdir()
                removed += 1
    return removed


def _kill_members(path: Path, timeout_s: float = 1.0) -> None:
    """Kills what is left in a cgroup (v2: `cgroup.kill`) and waits until it is empty."""
    deadline = time.monotonic() + timeout_s
    kill_file = path / "cgroup.kill"  # v2 since 5.14; else SIGKILL to each
    one_write = kill_file.exists()
    while left := procs(path):
        if one_write:
            with contextlib.suppress(OSError):
                write_file(kill_file, "1")
        else:
            for pid in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        if time.monotonic() > deadline:
            return
        time.sleep(0.005)
