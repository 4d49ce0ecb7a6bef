"""Joined pipes (no transcript): the interactor sees the submission's end itself, and may
reject and be over before the judge's listening has counted that end. The judge then asks
the submission's pipe directly: a submission that ended first (a crash after its first
message) is not ended "after the interactor", and keeps its own verdict (RTE), as when
the listening had counted it (seen under load: crashes.py of the guess packages got WA)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import pytest

from pipeline.outcome import ExecutionResult
from pipeline.program.exchange import _Exchange
from pipeline.program.relay import INTERACTOR, SUBMISSION
from pipeline.program.transcript import NONE, TO_INTERACTOR


def _never(_name: str, _stdio: tuple[int, int], _handle: object) -> ExecutionResult:
    raise AssertionError("no run starts here")


@pytest.fixture
def rejected() -> Iterator[tuple[_Exchange, tuple[int, int]]]:
    """An exchange on joined pipes whose interactor has rejected and is over, the
    listening having counted no end yet; and the submission's stdout pipe."""
    done = _Exchange(_never, NONE, lambda r: r.exit_code == 43, idle_ms=None, grace_ms=None)
    out = os.pipe()
    done.ears = {TO_INTERACTOR: out[0]}
    done.results[INTERACTOR] = ExecutionResult(exit_code=43)
    done.handles[SUBMISSION].arm(lambda: [])
    yield done, out
    for fd in (*out, *done.stop):
        with contextlib.suppress(OSError):  # the test closed the write end itself
            os.close(fd)


def test_a_submission_whose_output_ended_first_is_not_ended_after_the_interactor(
    rejected: tuple[_Exchange, tuple[int, int]],
) -> None:
    done, out = rejected
    os.close(out[1])  # the submission is over: its stdout's last writer gone
    done.watch(False, [])
    assert done.handles[SUBMISSION].ended is None


def test_a_submission_still_writing_is_ended_after_the_interactor(
    rejected: tuple[_Exchange, tuple[int, int]],
) -> None:
    done, _ = rejected
    done.watch(False, [])
    assert done.handles[SUBMISSION].ended is not None
