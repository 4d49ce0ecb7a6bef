"""What the sandbox asks of a cgroup slot, whichever hierarchy holds it: cgroup v1
(cgroups.py) or the unified v2 one (cgroups_v2.py), and the one pool of them both use.
launched.py picks the pool once, from what pipeline.sandbox.isolation probed."""

from __future__ import annotations

import atexit
import itertools
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol


class Slot(Protocol):
    """The cgroups one run joins, reused run after run."""

    @property
    def join_dirs(self) -> list[str]:
        """The cgroup folders the launcher writes its pid into."""
        ...

    @property
    def cpu_file(self) -> Path:
        """The CPU of every process of the slot (the launcher's watchdog reads it)."""
        ...

    @property
    def procs_file(self) -> Path:
        """The slot's `cgroup.procs`: without a pid namespace, what INIT kills."""
        ...

    def prepare(self, processes: int, memory_bytes: int | None) -> None: ...

    def oom_kills(self) -> int: ...

    def usage(self) -> int: ...

    def measure(self) -> tuple[int, int, bool]: ...

    def kill_all(self, timeout_s: float = 5.0) -> bool: ...

    def clean(self) -> bool:
        """Whether the slot holds (next to) no memory once what can be reclaimed is."""
        ...

    def remove(self) -> None: ...


_slot_numbers = itertools.count()


class SlotPool:
    """Slots of this process, made by `make(name)`, handed to one run at a time
    (thread-safe), reused run after run (creating cgroups per run is slower) and removed
    at exit; the slots of dead judges are swept when a pool starts (cgroups.sweep_stale)."""

    def __init__(self, make: Callable[[str], Slot]) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._free: list[Slot] = []
        self._all: list[Slot] = []
        self._owner = os.getpid()
        atexit.register(self.close)

    def acquire(self) -> Slot:
        with self._lock:
            if self._free:
                return self._free.pop()
            # numbered per process, not per pool: two pools must never share a cgroup
            slot = self._make(f"{os.getpid()}-{next(_slot_numbers)}")
            self._all.append(slot)
            return slot

    def release(self, slot: Slot) -> None:
        """Hands `slot` to the next run, unless memory is still charged to it (files a
        run left on a tmpfs, say): then it is removed and the next run gets a new one."""
        assert slot in self._all, "a slot of another pool"
        if not slot.clean():
            slot.remove()
            with self._lock:
                if slot in self._all:
                    self._all.remove(slot)
            return
        with self._lock:
            self._free.append(slot)

    def close(self) -> None:
        if os.getpid() != self._owner:  # a forked child does not own these slots
            return
        with self._lock:
            for slot in self._all:
                slot.remove()
            self._all.clear()
            self._free.clear()


Pool = SlotPool
