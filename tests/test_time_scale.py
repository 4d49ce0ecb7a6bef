"""tests/time_scale.py: the limits of a program that must finish scale for a slow machine,
those of one expected TLE never do."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pipeline.limits import Limits
from tests import time_scale

LIMITS = Limits.from_seconds(1.0, memory_mb=256, wall_ms=4000)


@pytest.fixture
def factor(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    time_scale.time_scale.cache_clear()
    yield monkeypatch
    time_scale.time_scale.cache_clear()


def test_unset_changes_nothing(factor: pytest.MonkeyPatch) -> None:
    factor.delenv(time_scale.TIME_SCALE_ENV, raising=False)
    assert time_scale.scaled(LIMITS, "AC") is LIMITS


def test_a_program_that_must_finish_gets_cpu_and_wall_scaled(factor: pytest.MonkeyPatch) -> None:
    factor.setenv(time_scale.TIME_SCALE_ENV, "2.5")
    got = time_scale.scaled(LIMITS, "MLE")
    assert (got.cpu_ms, got.wall_limit_ms, got.memory_mb) == (2500.0, 10_000.0, 256)
    # a default wall limit (2 x CPU + 1 s) scales from what it was
    assert time_scale.scaled(Limits.from_seconds(1.0), "AC").wall_limit_ms == 7500.0


def test_a_program_expected_tle_keeps_its_limits(factor: pytest.MonkeyPatch) -> None:
    factor.setenv(time_scale.TIME_SCALE_ENV, "8")
    assert time_scale.scaled(LIMITS, "TLE") is LIMITS


@pytest.mark.parametrize("text", ["0.5", "fast"])
def test_a_factor_below_one_or_not_a_number_fails(factor: pytest.MonkeyPatch, text: str) -> None:
    factor.setenv(time_scale.TIME_SCALE_ENV, text)
    with pytest.raises(ValueError):
        time_scale.time_scale()
