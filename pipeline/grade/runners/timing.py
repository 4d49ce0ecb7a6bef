"""Timing in-process calls: per-call CPU times from a thread clock read once per stretch
of calls (the clock is a system call that would otherwise cost a sizeable share of a
short call)."""

from __future__ import annotations

import contextlib
import gc
import itertools
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

# the thread CPU clock is read once per STRETCH_S of work, and a stretch whose wall time
# exceeds its CPU time by more than GAP_S (the thread was descheduled) is re-timed
STRETCH_S = 100e-6
GAP_S = 1e-6


def timed_calls(
    fn: Callable[[str], Any],
    inputs: Sequence[str],
    *,
    wall_clock: Callable[[], float] = time.perf_counter,
    cpu_clock: Callable[[], float] = time.thread_time,
) -> tuple[list[Any], np.ndarray, np.ndarray]:
    """fn(x) for every input, one after another: (outputs, cpu_ms, wall_ms), an output being
    the exception when fn raised; each call's CPU time as if the thread CPU clock had been
    read around it, at a fraction of the cost for short calls.

    The wall clock (read in user space) is read after every call, the thread CPU clock (a
    system call) only at the end of each stretch of calls lasting STRETCH_S or more. A
    thread that kept its core for a whole stretch accrued as much CPU time as wall time, so
    each call's wall time is its CPU time, within the stretch's gap (wall - CPU <= GAP_S).
    A stretch with a larger gap (another process ran on the core meanwhile) is run again
    call by call, timed with the CPU clock, and those times are kept (the outputs are the
    first run's): a call runs at most twice. A stretch of a single call is timed by the CPU
    clock directly. The cyclic GC is paused throughout, as timeit does: a collection of the
    worker's whole heap landing inside one call would be charged to that call.
    docs/performance.md has what the re-runs cost."""
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
