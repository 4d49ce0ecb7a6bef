"""The resource limits of one run: one value type from the command line to the sandbox.

Times are held in milliseconds, the unit every measurement is taken in (results columns,
the sandbox's reports); a limit given in seconds (a problem statement, `--time-limit`)
converts once, in `Limits.from_seconds`. Whether a measurement is over a limit is decided
here and nowhere else; the predicates take a number or a numpy array.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, overload

import numpy as np

# What a user may ask for (--time-limit, --memory-limit, a run config): beyond these a
# limit is a typo (99999999 MB, 1e9 s), not a wish
TIME_LIMIT_RANGE_S = (0.01, 3600.0)
MEMORY_LIMIT_RANGE_MB = (4, 1 << 20)  # 4 MB to 1 TB


def out_of_range(value: float, bounds: tuple[float, float], unit: str) -> str | None:
    """`must lie in LOW-HIGH UNIT, not VALUE` when value is outside bounds, else None."""
    low, high = bounds
    if low <= value <= high:
        return None
    return f"must lie in {_plain(low)}-{_plain(high)} {unit}, not {_plain(value)}"


def _plain(value: float) -> str:
    """A number as typed (99999999, not 1e+08)."""
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else f"{value:g}"


@dataclass(frozen=True)
class Limits:
    """CPU time, wall time, memory, output size and process count of one run. The stack
    limit equals the memory limit (as most judges set it); the wall limit defaults to
    twice the CPU limit plus a second."""

    cpu_ms: float = 1000.0
    memory_mb: int = 256
    wall_ms: float | None = None  # None: 2 x cpu_ms + 1000
    output_kb: int = 64 * 1024
    processes: int = 64

    @classmethod
    def from_seconds(cls, time_s: float, memory_mb: int = 256, **rest: Any) -> Limits:
        """The limits of a statement or a command line that gives the CPU time in seconds."""
        return cls(cpu_ms=float(time_s) * 1000.0, memory_mb=int(memory_mb), **rest)

    def override(self, time_s: float | None = None, memory_mb: int | None = None) -> Limits:
        """These limits with a user's CPU time (seconds) and memory (MB) where given (the
        settings that carry them checked each against its sane range: grade/settings.py)."""
        given = Limits.from_seconds(
            self.time_s if time_s is None else time_s,
            self.memory_mb if memory_mb is None else memory_mb,
        )
        return replace(self, cpu_ms=given.cpu_ms, memory_mb=given.memory_mb)

    def times(self, factor: float) -> Limits:
        """These limits with the CPU and wall times `factor` times as long (a language's
        time multiplier)."""
        if factor == 1.0:
            return self
        wall = None if self.wall_ms is None else self.wall_ms * factor
        return replace(self, cpu_ms=self.cpu_ms * factor, wall_ms=wall)

    @property
    def time_s(self) -> float:
        """The CPU limit in seconds, for people (tables, messages)."""
        return self.cpu_ms / 1000.0

    @property
    def wall_limit_ms(self) -> float:
        return self.wall_ms if self.wall_ms is not None else 2 * self.cpu_ms + 1000.0

    @property
    def output_bytes(self) -> int:
        return self.output_kb * 1024

    @property
    def memory_bytes(self) -> int:
        return self.memory_mb << 20

    @overload
    def cpu_over(self, cpu_ms: float) -> bool: ...
    @overload
    def cpu_over(self, cpu_ms: np.ndarray) -> np.ndarray: ...
    def cpu_over(self, cpu_ms: float | np.ndarray) -> bool | np.ndarray:
        """Whether a CPU time (ms; or each of an array of them) is over the limit."""
        return cpu_ms > self.cpu_ms

    @overload
    def wall_over(self, wall_ms: float) -> bool: ...
    @overload
    def wall_over(self, wall_ms: np.ndarray) -> np.ndarray: ...
    def wall_over(self, wall_ms: float | np.ndarray) -> bool | np.ndarray:
        return wall_ms > self.wall_limit_ms

    def memory_over(self, peak_kb: int) -> bool:
        return peak_kb > self.memory_mb * 1024

    @overload
    def output_over(self, size_bytes: int) -> bool: ...
    @overload
    def output_over(self, size_bytes: np.ndarray) -> np.ndarray: ...
    def output_over(self, size_bytes: int | np.ndarray) -> bool | np.ndarray:
        return size_bytes > self.output_bytes

    def with_output_kb(self, output_kb: int) -> Limits:
        return replace(self, output_kb=output_kb)

    def describe(self) -> dict[str, float | int | None]:
        """What run.json records (the field names of this type, times in ms)."""
        return {
            "cpu_ms": self.cpu_ms,
            "wall_ms": self.wall_limit_ms,
            "memory_mb": self.memory_mb,
            "output_kb": self.output_kb,
            "processes": self.processes,
        }
