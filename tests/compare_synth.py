"""Synthetic RESULTS_SCHEMA tables for the compare tests (no grading involved)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.schemas import RESULTS_SCHEMA


def row(
    submission: str,
    case_id: str,
    family: str,
    verdict: str = "AC",
    runs: Sequence[float] | None = (10.0,),
    output: str = "out",
    batch_size: int = 1,
    attempt: int = 1,
    run_id: str = "run",
    problem: str = "spot",
) -> dict[str, Any]:
    runs_list = None if runs is None else [float(x) for x in runs]
    median = None if not runs_list else float(np.median(runs_list))
    return {
        "run_id": run_id,
        "submission": submission,
        "submission_sha": hashlib.sha256(submission.encode()).hexdigest()[:16],
        "problem": problem,
        "case_id": case_id,
        "family": family,
        "verdict": verdict,
        "cpu_ms": median,
        "wall_ms": None if median is None else median * 1.05,
        "peak_rss_kb": 1000,
        "exit_code": 0,
        "signal": None,
        "output_sha256": hashlib.sha256(output.encode()).hexdigest(),
        "output_head": output[:20],
        "checker_msg": None,
        "attempt": attempt,
        "node": "n0",
        "batch_size": batch_size,
        "cpu_ms_runs": runs_list,
        "wall_ms_runs": None if runs_list is None else [x * 1.05 for x in runs_list],
    }


def table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=RESULTS_SCHEMA)


def timed_rows(
    submission: str,
    cases: dict[str, str],
    rng: np.random.Generator,
    *,
    repeats: int = 12,
    sigma: float = 0.03,
    slow: Callable[[str], float] = lambda _case: 1.0,
    run_id: str = "run",
) -> list[dict[str, Any]]:
    """AC rows for `cases` (case_id -> family) with `repeats` lognormal timings around a
    per-case base time (from the case id, identical on every side) times slow(case)."""
    out = []
    for case_id, family in cases.items():
        base = 5.0 + int(hashlib.sha256(case_id.encode()).hexdigest()[:6], 16) % 200
        runs = base * slow(case_id) * rng.lognormal(0.0, sigma, size=repeats)
        out.append(row(submission, case_id, family, runs=runs.tolist(), run_id=run_id))
    return out
