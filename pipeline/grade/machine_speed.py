"""A fixed reference workload, timed next to repeated runs (`grade --repeat`): how fast
the machine itself was at that moment, so `compare` can tell a slower program from a
slower machine.

Why: on a shared virtual machine whole stretches of tens of milliseconds run slower for
everything, the floor of repeated timings included (docs/compare.md has the figures). Two
separate runs of the same program then differ by far more than any effect threshold;
timings divided by the reference measured alongside them do not.
"""

from __future__ import annotations

import time

_MASK = (1 << 64) - 1


def _workload() -> int:
    """Integer hashing and dict traffic, as the reference solvers do (tens of microseconds)."""
    table: dict[int, tuple[int, int]] = {}
    h = 0
    for i in range(300):
        h ^= (i * 0x9E3779B97F4A7C15) & _MASK
        table[h] = (i, h)
    return len(table)


def reference_ms(samples: int = 3) -> float:
    """CPU milliseconds of the workload: the fastest of `samples` runs (a run that
    something interrupted says nothing about the machine's speed)."""
    best = float("inf")
    for _ in range(samples):
        start = time.thread_time()
        _workload()
        best = min(best, time.thread_time() - start)
    return best * 1000
