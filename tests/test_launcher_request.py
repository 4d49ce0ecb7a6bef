"""A run's limits become the launcher's options and a served case's request fields in one
place (protocol.LimitsRequest): the kill margin, the rounding and the units are applied
once, so a spawned run and a served case of the same limits are held to the same numbers."""

from __future__ import annotations

from pipeline.limits import Limits
from pipeline.sandbox.protocol import CPU_KILL_MARGIN_MS, NOFILE, LimitsRequest

LIMITS = Limits.from_seconds(1.2345, memory_mb=100, wall_ms=2999.9, output_kb=10)


def _option(args: list[str], name: str) -> str:
    return args[args.index(name) + 1]


def test_margin_rounding_and_units_are_applied_once() -> None:
    request = LimitsRequest.of(LIMITS)
    # whole ms, then the margin, then microseconds (the C side converts nothing)
    assert request.cpu_us == (1234 + CPU_KILL_MARGIN_MS) * 1000
    assert request.wall_us == 2999 * 1000
    assert request.output_bytes == 10 * 1024 + 1  # the write past the limit is stopped
    assert request.stack_bytes == 100 << 20
    assert request.memory_kb == 100 << 10
    assert request.nofile == NOFILE


def test_a_spawned_run_and_a_served_case_get_the_same_numbers() -> None:
    request = LimitsRequest.of(LIMITS)
    spawned = request.common_args() + request.spawned_args()
    # serve.c reads: cpu us, wall us, output cap, stack, open files
    cpu, wall, fsize, stack, nofile = request.case_text().split()
    assert _option(spawned, "--cpu-us") == cpu
    assert _option(spawned, "--wall-us") == wall
    assert _option(spawned, "--fsize") == fsize
    assert _option(spawned, "--stack") == stack
    assert _option(spawned, "--nofile") == nofile
    assert request.memory_args() == ["--mem-kb", str(request.memory_kb)]
