"""cgroup v2 slots for sandboxed runs, the unified-hierarchy twin of cgroups.py: memory
(`memory.max`, no swap, the peak and `oom_kill` from `memory.events`), pids (`pids.max`)
and CPU (`cpu.stat` `usage_usec`, which every v2 cgroup has), `cgroup.kill` to end a run.

The pool works under a root given to it: the unified root (`/sys/fs/cgroup`, for root)
or a subtree delegated to an ordinary user (systemd `Delegate=yes` hands the user its
files). Controllers reach a cgroup's children only through its `cgroup.subtree_control`,
and a cgroup that hands them on may hold no process itself ("no internal processes"), so
the processes of a delegated root (the judge) are first moved into `<root>/judge`; the
slots are `<root>/gridjudge/<pid>-<n>`, reused run after run; slots of dead judges are
swept by cgroups.py's `sweep_stale`, as v1 ones are.

The peak of a reused slot: kernels since 6.12 reset `memory.peak` per open file (a write
through the fd the slot keeps); from 5.19 `memory.peak` is the cgroup's lifetime peak, so
a used slot is replaced by a fresh cgroup before its next run; before 5.19 there is no
`memory.peak` and a thread samples `memory.current` while the run lasts (a spike shorter
than a sample is missed; the limit itself is the kernel's either way).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.sandbox import slots
from pipeline.sandbox.cgroups import (
    RELEASE_BOUND,
    HeldFile,
    procs,
    read_file,
    sweep_stale,
    write_file,
)
from pipeline.sandbox.isolation import JUDGE_LEAF

CONTROLLERS = ("memory", "pids")
GROUP = "gridjudge"
# the launcher and the namespace's init process run in the slot too
HELPER_PROCESSES = 2
HELPER_MEMORY = 8 << 20
SAMPLE_S = 0.002  # memory.current sampling where memory.peak is absent
VACATE_TRIES = 20


class CgroupV2Error(OSError):
    """The root given cannot hold slots; the message says why, in one line."""


def parse_keyed(text: str) -> dict[str, int]:
    """`key value` lines (memory.events, cpu.stat, cgroup.events) as a dict."""
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        with contextlib.suppress(ValueError):
            out[key] = int(value)
    return out


def is_hierarchy_root(path: Path) -> bool:
    """The root cgroup has no `cgroup.type` and is exempt from "no internal processes"."""
    return not (path / "cgroup.type").exists()


def vacate(root: Path) -> int:
    """Moves every process of `root` into `root/judge` (a leaf); how many moved."""
    leaf = root / JUDGE_LEAF
    leaf.mkdir(exist_ok=True)
    moved = 0
    for _ in range(VACATE_TRIES):  # a process may fork while we move its parent
        left = procs(root)
        if not left:
            return moved
        for pid in left:
            try:
                write_file(leaf / "cgroup.procs", str(pid))
                moved += 1
            except ProcessLookupError:
                pass  # it exited meanwhile
    raise CgroupV2Error(f"{root}: processes keep appearing in it; cannot make it a parent")


def enable_controllers(path: Path) -> None:
    """Hands CONTROLLERS on to `path`'s children (`cgroup.subtree_control`)."""
    available = (path / "cgroup.controllers").read_text().split()
    missing = [c for c in CONTROLLERS if c not in available]
    if missing:
        raise CgroupV2Error(
            f"{path}: controller(s) {' '.join(missing)} not delegated to it "
            f"(its parent's cgroup.subtree_control lacks them)"
        )
    enabled = (path / "cgroup.subtree_control").read_text().split()
    wanted = [c for c in CONTROLLERS if c not in enabled]
    if wanted:
        write_file(path / "cgroup.subtree_control", " ".join(f"+{c}" for c in wanted))


def prepare_root(root: Path) -> Path:
    """Makes `root` a parent of slots; returns the folder the slots go in."""
    try:
        if not is_hierarchy_root(root) and procs(root):
            vacate(root)
        enable_controllers(root)
        base = root / GROUP
        base.mkdir(exist_ok=True)
        enable_controllers(base)
    except CgroupV2Error:
        raise
    except OSError as exc:
        raise CgroupV2Error(f"{root}: cannot hold cgroup v2 slots ({exc})") from exc
    return base


@dataclass
class Slot:
    name: str
    path: Path
    _pids_max: int = -1
    _memory_limit: int = -1
    _oom_kills: int = 0
    _cpu_usec: int = 0
    _measured: bool = False  # a run's peak was read: a lifetime peak is spent
    _peak_fd: int | None = None
    _peak_mode: str = "poll"  # fd | recreate | poll
    _sampled: int = 0
    _sampler: threading.Thread | None = None
    _sampling: threading.Event = field(default_factory=threading.Event)
    _events: HeldFile | None = None  # memory.events, for the OOM kill count

    @classmethod
    def create(cls, name: str, base: Path) -> Slot:
        slot = cls(name, base / name)
        slot._make()
        return slot

    def _make(self) -> None:
        self.path.mkdir(exist_ok=True)
        with contextlib.suppress(FileNotFoundError):  # no swap accounting: no swap to deny
            write_file(self.path / "memory.swap.max", "0")
        self._pids_max = self._memory_limit = -1
        self._measured = False
        self._peak_mode = self._peak_support()

    def _peak_support(self) -> str:
        peak = self.path / "memory.peak"
        if not peak.exists():
            return "poll"
        try:
            fd = os.open(peak, os.O_RDWR)
        except OSError:
            return "recreate"  # read-only: a lifetime peak (kernels 5.19 to 6.11)
        try:
            os.write(fd, b"reset\n")
        except OSError:
            os.close(fd)
            return "recreate"
        self._peak_fd = fd
        return "fd"

    @property
    def dirs(self) -> dict[str, Path]:
        return {c: self.path for c in CONTROLLERS}

    @property
    def join_dirs(self) -> list[str]:
        return [str(self.path)]

    @property
    def cpu_file(self) -> Path:
        """`usage_usec` in it counts the CPU of every process of the slot, microseconds
        (its first line: the launcher's watchdog reads it there)."""
        return self.path / "cpu.stat"

    @property
    def procs_file(self) -> Path:
        return self.path / "cgroup.procs"

    def prepare(self, processes: int, memory_bytes: int | None) -> None:
        """Sets the limits of the next run and resets its counters."""
        # a fork server prepares again once started: its slot cannot be replaced under it
        if self._measured and self._peak_mode == "recreate" and not self.populated():
            self._recreate()
        pids_max = processes + HELPER_PROCESSES
        if pids_max != self._pids_max:
            write_file(self.path / "pids.max", str(pids_max))
            self._pids_max = pids_max
        limit = -1 if memory_bytes is None else memory_bytes + HELPER_MEMORY
        if limit != self._memory_limit:
            write_file(self.path / "memory.max", "max" if limit < 0 else str(limit))
            self._memory_limit = limit
        if self._peak_fd is not None:
            os.pwrite(self._peak_fd, b"reset\n", 0)
        self._oom_kills = self.oom_kills()
        self._cpu_usec = self.cpu_usec()
        if self._peak_mode == "poll":
            self._start_sampling()

    def _recreate(self) -> None:
        self._close_events()
        self.kill_all(timeout_s=1.0)
        self.path.rmdir()
        self._make()

    def _start_sampling(self) -> None:
        self._stop_sampling()
        self._sampled = self.usage()
        self._sampling.clear()
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()

    def _sample(self) -> None:
        while not self._sampling.wait(SAMPLE_S):
            with contextlib.suppress(OSError, ValueError):
                self._sampled = max(self._sampled, self.usage())

    def _stop_sampling(self) -> None:
        if self._sampler is not None:
            self._sampling.set()
            self._sampler.join()
            self._sampler = None

    def oom_kills(self) -> int:
        """How many processes the OOM killer has killed in this slot so far."""
        if self._events is None:
            self._events = HeldFile(self.path / "memory.events")
        return parse_keyed(self._events.read()).get("oom_kill", 0)

    def _close_events(self) -> None:
        if self._events is not None:
            self._events.close()
            self._events = None

    def cpu_usec(self) -> int:
        return parse_keyed(read_file(self.cpu_file)).get("usage_usec", 0)

    def usage(self) -> int:
        """Memory charged to the slot now, in bytes."""
        return int(read_file(self.path / "memory.current"))

    def clean(self) -> bool:
        """Whether at most RELEASE_BOUND bytes stay charged once the kernel is asked to
        reclaim them (`memory.reclaim`, 5.19+: page cache of the run's files). A slot
        whose lifetime peak was read is replaced before its next run, and what is
        charged to it goes with it: no reclaim then (slow, and per run)."""
        if self._measured and self._peak_mode == "recreate":
            return True
        try:
            if self.usage() <= RELEASE_BOUND:
                return True
            with contextlib.suppress(OSError):  # EAGAIN: could not reclaim it all
                write_file(self.path / "memory.reclaim", str(self.usage()))
            return self.usage() <= RELEASE_BOUND
        except (OSError, ValueError):
            return False

    def peak(self) -> int:
        if self._peak_fd is not None:
            return int(os.pread(self._peak_fd, 64, 0))
        if self._peak_mode == "recreate":
            return int(read_file(self.path / "memory.peak"))
        self._stop_sampling()
        return max(self._sampled, self.usage())

    def measure(self) -> tuple[int, int, bool]:
        """(peak memory bytes, CPU ns, whether the OOM killer fired) of the last run."""
        cpu_ns = (self.cpu_usec() - self._cpu_usec) * 1000
        self._measured = True
        return self.peak(), cpu_ns, self.oom_kills() > self._oom_kills

    def populated(self) -> bool:
        return parse_keyed(read_file(self.path / "cgroup.events")).get("populated", 0) != 0

    def kill_all(self, timeout_s: float = 5.0) -> bool:
        """Kills every process still in the slot (`cgroup.kill`, else SIGKILL to each);
        True once it is empty."""
        deadline = time.monotonic() + timeout_s
        pause = 0.001
        while True:
            if not self.populated():
                return True
            try:
                write_file(self.path / "cgroup.kill", "1")
            except FileNotFoundError:  # before 5.14
                for pid in procs(self.path):
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
            if time.monotonic() > deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.02)

    def remove(self) -> None:
        self._close_events()
        self._stop_sampling()
        if self._peak_fd is not None:
            os.close(self._peak_fd)
            self._peak_fd = None
        with contextlib.suppress(OSError):
            self.kill_all(timeout_s=1.0)
            self.path.rmdir()


class SlotPool(slots.SlotPool):
    """cgroup v2 slots of this process (slots.SlotPool) under `root`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.base = prepare_root(root)
        sweep_stale([self.base])
        super().__init__(self._create)

    def _create(self, name: str) -> Slot:
        return Slot.create(name, self.base)
