"""The runner contract: a runner grades one submission on a group of cases."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import pyarrow as pa

from pipeline.grade.cases import Cases
from pipeline.limits import Limits


@dataclass
class Graded:
    """Rows for n cases and, when asked for, each row's whole output (None where a case
    was not run): a runner's (grade.rows.GRADED_SCHEMA) and the engine's, whole
    (RESULTS_SCHEMA)."""

    table: pa.Table
    outputs: Sequence[bytes | None] | None = None


class Runner(Protocol):
    # what its cases run and are judged under: the corpus's, a language's multiplier applied
    @property
    def limits(self) -> Limits: ...

    def grade(self, cases: Cases) -> Graded: ...

    def close(self) -> None:
        """Releases what the runner kept between grade() calls (a fork server)."""
