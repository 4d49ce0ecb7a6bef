"""The runner contract: a runner grades one submission on a group of cases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import pyarrow as pa

from pipeline.grade.cases import Cases


@dataclass
class Graded:
    """A runner's rows for n cases (grade.rows.GRADED_SCHEMA), and, when asked for, each
    case's whole output."""

    table: pa.Table
    outputs: list[bytes] | None = None


class Runner(Protocol):
    def grade(self, cases: Cases) -> Graded: ...

    def close(self) -> None:
        """Releases what the runner kept between grade() calls (a fork server)."""
