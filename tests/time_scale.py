"""How much slower than the machines the tests' time limits were set on this one runs.

The hostile battery and the fork-server attacks use native-speed limits (1 s of CPU).
Under software emulation (the cgroup v2 VM of `make test-cgroup2`) the same honest work
costs several times the CPU, so `tests/cgroup2/vm.sh` measures the factor (the same
reference work timed on the host and in the VM, `tests/cgroup2/calibrate.py`) and sets
GRIDJUDGE_TEST_TIME_SCALE; natively it is unset and every limit is as written.

The factor multiplies the CPU and wall limits of a program that must finish (AC, MLE,
RE, OLE: its own work has to fit), never those of a program expected to be TLE:
slowness only adds to its CPU time, so its verdict needs no room, and a limit scaled
past a burn its own clock measures (`tle_cpu_before_main.c`: 3 s before main) would let
it finish.
"""

from __future__ import annotations

import dataclasses
import functools
import os

from pipeline.limits import Limits

TIME_SCALE_ENV = "GRIDJUDGE_TEST_TIME_SCALE"


@functools.cache
def time_scale() -> float:
    """The factor from GRIDJUDGE_TEST_TIME_SCALE (1 when unset); a value below 1 or not a
    number is a mistake of whoever set it, and fails loudly."""
    text = os.environ.get(TIME_SCALE_ENV, "").strip()
    if not text:
        return 1.0
    factor = float(text)
    if not factor >= 1.0:
        raise ValueError(f"{TIME_SCALE_ENV}={text}: expected a factor >= 1")
    return factor


def scaled(limits: Limits, expected: str) -> Limits:
    """`limits` for a program whose expected verdict is `expected`: CPU and wall times
    times the factor, unless it is expected to be TLE."""
    factor = time_scale()
    if factor == 1.0 or expected == "TLE":
        return limits
    return dataclasses.replace(
        limits, cpu_ms=limits.cpu_ms * factor, wall_ms=limits.wall_limit_ms * factor
    )
