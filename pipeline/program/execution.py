"""What running a program on one input means, shared by the sandbox (which produces it),
in-process solvers, and grading (which turns it into a verdict)."""

from __future__ import annotations

import contextlib
import gc
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

# timed_calls: the thread CPU clock is read once per STRETCH_S of work, and a stretch whose
# wall time exceeds its CPU time by more than GAP_S (the thread was descheduled) is re-timed
STRETCH_S = 100e-6
GAP_S = 1e-6


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


def timed_calls(
    fn: Callable[[str], Any],
    inputs: Sequence[str],
    *,
    wall_clock: Callable[[], float] = time.perf_counter,
    cpu_clock: Callable[[], float] = time.thread_time,
) -> tuple[list[Any], np.ndarray, np.ndarray]:
    """fn(x) for every input, one after another: (outputs, cpu_ms, wall_ms), an output being
    the exception when fn raised. The CPU times are those timed_call would give, at a
    fraction of the cost for short calls.

    The thread CPU clock is a system call (~0.45 us here, and ~1 us of a 12 us clocks case
    once its effect on the solver's own speed is counted); the wall clock is read in user
    space (~0.05 us). So the wall clock is read after every call and the CPU clock only at
    the end of each stretch of calls lasting STRETCH_S or more. A thread that kept its core
    for a whole stretch accrued as much CPU time as wall time, and each call's wall time is
    its CPU time, within the stretch's gap (wall - CPU <= GAP_S). A stretch with a larger
    gap (another process ran on the core meanwhile: a few percent of stretches under Ray
    here) is run again call by call, timed with the CPU clock, and those times are kept
    (the outputs are the first run's); a stretch of a single call is timed by the CPU
    clock directly. Running again costs ~3 % of the CPU time of clocks, gomoku or spot
    grading at the ~260 preemptions per second a Ray worker sees here, and ~0.1 % for mine,
    whose long calls mostly make stretches of their own (a long call is run twice only
    when it ends a stretch of shorter calls that lost its core). The cyclic GC is paused
    throughout, as timed_call pauses it."""
    outs: list[Any] = []
    ends: list[float] = []  # wall clock after each call
    cuts: list[tuple[int, float, float]] = []  # (calls done, wall, cpu) at each stretch end
    add_out, add_end = outs.append, ends.append
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = wall_clock()
        cuts.append((0, start, cpu_clock()))
        due = start + STRETCH_S
        out: Any
        for text in inputs:
            try:
                out = fn(text)
            except Exception as exc:
                out = exc
            now = wall_clock()
            add_end(now)
            add_out(out)
            if now >= due:
                cuts.append((len(ends), now, cpu_clock()))
                due = now + STRETCH_S
        if cuts[-1][0] < len(ends):
            cuts.append((len(ends), ends[-1], cpu_clock()))
        wall = np.diff(np.array([start, *ends]))
        cpu = wall.copy()
        for (i, wall_i, cpu_i), (j, wall_j, cpu_j) in itertools.pairwise(cuts):
            if j - i == 1:
                cpu[i] = cpu_j - cpu_i
            elif (wall_j - wall_i) - (cpu_j - cpu_i) > GAP_S:
                for k in range(i, j):
                    before = cpu_clock()
                    with contextlib.suppress(Exception):
                        fn(inputs[k])
                    cpu[k] = cpu_clock() - before
    finally:
        if enabled:
            gc.enable()
    return outs, cpu * 1000, wall * 1000
