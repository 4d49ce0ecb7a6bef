"""What the sandbox asks of a cgroup slot and of a pool of them, whichever hierarchy
holds them: cgroup v1 (cgroups.py) or the unified v2 one (cgroups_v2.py). rlimit.py
picks the pool once, from what pipeline.sandbox.isolation probed."""

from __future__ import annotations

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


class Pool(Protocol):
    """Slots of this process, one run at a time each."""

    def acquire(self) -> Slot: ...

    def release(self, slot: Slot) -> None: ...

    def close(self) -> None: ...
