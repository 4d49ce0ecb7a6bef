"""What running a program on one input means, shared by the sandbox (which produces it),
in-process solvers, and grading (which turns it into a verdict)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run. The stack limit equals the memory limit (as most
    judges set it); the wall limit defaults to a multiple of the CPU limit."""

    time_s: float = 1.0  # CPU time
    memory_mb: int = 256
    wall_s: float | None = None  # None: 2 x time_s + 1 s
    output_kb: int = 64 * 1024
    processes: int = 64

    @property
    def wall_limit_s(self) -> float:
        return self.wall_s if self.wall_s is not None else 2 * self.time_s + 1.0


@dataclass
class ExecutionResult:
    """One run of a program. `output` is the answer taken (the output file when the
    problem declares one and the program wrote it, else stdout), capped at the limit."""

    exit_code: int | None = None
    signal: int | None = None
    cpu_ms: float = 0.0
    wall_ms: float = 0.0
    peak_rss_kb: int = 0
    output: bytes = b""
    stderr_head: bytes = b""
    cpu_exceeded: bool = False
    wall_exceeded: bool = False
    memory_exceeded: bool = False
    output_exceeded: bool = False
    # Set when the judge itself failed (sandbox setup, missing launcher...): a JE, never
    # blamed on the program.
    judge_error: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


def timed_call(fn: Callable[..., T], *args: Any) -> tuple[T | None, Exception | None, float, float]:
    """fn(*args) for in-process solvers: (value, exception, cpu_ms, wall_ms), CPU time of
    this thread. The cyclic GC is paused meanwhile, as timeit does: a collection of the
    worker's whole heap landing inside one call made two identical runs differ by 1.8x
    here (measured); it runs after the call instead."""
    enabled = gc.isenabled()
    gc.disable()
    wall0, cpu0 = time.perf_counter(), time.thread_time()
    try:
        value: T | None = fn(*args)
        error: Exception | None = None
    except Exception as exc:
        value, error = None, exc
    finally:
        cpu_ms = (time.thread_time() - cpu0) * 1000
        wall_ms = (time.perf_counter() - wall0) * 1000
        if enabled:
            gc.enable()
    return value, error, cpu_ms, wall_ms
