"""Comparing run folders: load two runs (or one run with two submissions) and compare
them with the pure core of pipeline.compare.pair. Shared by `gridjudge compare` and `run`."""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.compare.options import CompareOptions
from pipeline.compare.pair import Comparison, compare_results, resolve_pairs, submissions_of
from pipeline.errors import GridjudgeError
from pipeline.limits import Limits
from pipeline.problem.registry import get_problem
from pipeline.results.store import (
    RUN_JSON,
    RunDirError,
    fresh_timings,
    load_results,
    read_run_json,
    results_dir,
)


def load_run(run_dir: Path) -> tuple[pa.Table, dict[str, Any]]:
    """A run folder's results (RESULTS_SCHEMA) and run.json (empty when the run did not
    finish); a missing, empty or corrupt run folder is a one-line RunDirError."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise RunDirError(f"run folder {run_dir} does not exist")
    has_json = (run_dir / RUN_JSON).is_file()
    if not has_json and not results_dir(run_dir).is_dir():
        raise RunDirError(f"{run_dir} is not a run folder: no {RUN_JSON} and no results/")
    info = read_run_json(run_dir) if has_json else {}
    try:
        table = load_results(run_dir)
    except (pa.ArrowException, ValueError, KeyError) as exc:
        message = " ".join(str(exc).split())[:200]
        raise RunDirError(
            f"{run_dir}: results do not match the results schema ({message})"
        ) from None
    if table.num_rows == 0:
        raise RunDirError(f"{run_dir} has no results rows")
    return table, info


def _cpu_ms(limits: Any) -> float | None:
    """The CPU limit recorded in run.json: `cpu_ms`, or `time_s` in runs of gridjudge
    before limits were held in milliseconds."""
    if not isinstance(limits, dict):
        return None
    if isinstance(limits.get("cpu_ms"), int | float):
        return float(limits["cpu_ms"])
    if isinstance(limits.get("time_s"), int | float):
        return Limits.from_seconds(limits["time_s"]).cpu_ms
    return None


def time_limits_ms(info: dict[str, Any], results: pa.Table) -> dict[str, float]:
    """Each problem's CPU time limit in ms: from run.json (the limits of each corpus, or a
    top-level `limits`), else the problem's own limit from the registry; problems with
    neither get no distance-to-limit flags."""
    limits: dict[str, float] = {}
    for corpus in info.get("corpora") or []:
        if isinstance(corpus, dict):
            cpu_ms = _cpu_ms(corpus.get("limits"))
            if isinstance(corpus.get("problem"), str) and cpu_ms is not None:
                limits.setdefault(corpus["problem"], cpu_ms)
    top_ms = _cpu_ms(info.get("limits"))
    for problem in set(results.column("problem").to_pylist()):
        if problem in limits:
            continue
        if top_ms is not None:
            limits[problem] = top_ms
            continue
        with contextlib.suppress(GridjudgeError):  # unknown problem: no limit known
            limits[problem] = get_problem(problem).limits.cpu_ms
    return limits


def compare_runs(
    run_a: Path,
    run_b: Path | None,
    submission_a: str | None,
    submission_b: str | None,
    options: CompareOptions,
) -> Comparison:
    """Compare RUN_A with RUN_B, or two submissions of RUN_A when RUN_B is None. Time
    limits default to those recorded in RUN_A's run.json (else the problems' own)."""
    table_a, info_a = load_run(run_a)
    table_b = load_run(run_b)[0] if run_b is not None else None
    if not options.include_cached:
        table_a = fresh_timings(table_a)
        table_b = None if table_b is None else fresh_timings(table_b)
    pairs = resolve_pairs(
        submissions_of(table_a),
        None if table_b is None else submissions_of(table_b),
        submission_a,
        submission_b,
    )
    if options.time_limit_ms is None:
        options = dataclasses.replace(options, time_limit_ms=time_limits_ms(info_a, table_a))
    return compare_results(table_a, table_b, pairs, options)
