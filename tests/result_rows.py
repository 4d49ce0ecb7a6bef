"""One results row (RESULTS_SCHEMA) for tests that write run folders by hand: every
column null but the ones a row always has; `kw` sets any column."""

from __future__ import annotations

from typing import Any

from pipeline.schemas import RESULTS_SCHEMA


def result_row(sub: str, case: str, verdict: str, cpu: float | None, **kw: Any) -> dict[str, Any]:
    row: dict[str, Any] = {name: None for name in RESULTS_SCHEMA.names}
    row.update(
        run_id="r1",
        submission=sub,
        submission_sha="sha-" + sub,
        problem="spot",
        case_id=case,
        family=case.split("/")[0],
        verdict=verdict,
        cpu_ms=cpu,
        attempt=1,
        batch_size=1,
    )
    row.update(kw)
    return row
