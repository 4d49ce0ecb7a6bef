"""How many cases a Ray task gets (grade.chunk_sizes.chunk_size_for): pure arithmetic."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pipeline.grade.chunk_sizes import (
    CHUNKS_PER_CPU,
    FORK_SERVER_CHUNK,
    IN_PROCESS_CHUNK,
    SUBPROCESS_CHUNK,
    chunk_size_for,
)
from pipeline.grade.settings import GradeSettings

PROGRAM: Any = [SimpleNamespace(kind="source", compile_error=None)]
SOLVER: Any = [SimpleNamespace(kind="solver", compile_error=None)]


@pytest.mark.parametrize("cases", [1000, 3000, 20_000])
def test_fork_server_chunks_leave_every_cpu_work_to_the_end(cases: int) -> None:
    size = chunk_size_for(PROGRAM, GradeSettings(fork_server=True), cases, 2)
    assert SUBPROCESS_CHUNK <= size <= FORK_SERVER_CHUNK
    chunks = -(-cases // size)
    assert chunks >= CHUNKS_PER_CPU * 2  # a late chunk never runs alone for long
    if cases >= FORK_SERVER_CHUNK * CHUNKS_PER_CPU * 2:
        assert size == FORK_SERVER_CHUNK  # large corpora: a server serves many cases


def test_spawned_and_in_process_chunks_keep_their_sizes() -> None:
    assert chunk_size_for(PROGRAM, GradeSettings(fork_server=False), 1000, 2) == SUBPROCESS_CHUNK
    assert chunk_size_for(PROGRAM, GradeSettings(fork_server=True), 10, 2) == SUBPROCESS_CHUNK
    assert chunk_size_for(SOLVER, GradeSettings(), 1000, 2) == IN_PROCESS_CHUNK
