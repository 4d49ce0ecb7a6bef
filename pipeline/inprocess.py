"""The fast path of grade_batch for in-process reference solvers (`solver:` submissions):
results go straight into column lists, one tight loop per chunk.

A solver run that ends normally within its limits is judged here by
grading.check_output (the last step of grading.judge, so the verdict logic stays in one
place) and becomes a row without an ExecutionResult or a row dict. Anything else (the
solver raised, exceeded the time or output limit) is handed back to the general path,
which runs the case again through PreparedSubmission.run and grading.judge: those rows
are exactly what the general path makes, at the price of a second run of a failing case.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from pipeline.execution import Limits
from pipeline.grading import MESSAGE_CHARS, OUTPUT_HEAD_CHARS, RESULT_KEYS, check_output
from pipeline.problem import Problem
from pipeline.schemas import RESULTS_SCHEMA

if TYPE_CHECKING:
    from pipeline.submission import PreparedSubmission


class Columns:
    """RESULTS_SCHEMA rows accumulated column by column."""

    def __init__(self) -> None:
        self.lists: list[list[Any]] = [[] for _ in RESULT_KEYS]

    def add_row(self, row: Mapping[str, Any]) -> None:
        for key, column in zip(RESULT_KEYS, self.lists, strict=True):
            column.append(row[key])

    def add_values(self, values: tuple[Any, ...]) -> None:
        """One row given as a tuple in RESULT_KEYS order."""
        for column, value in zip(self.lists, values, strict=True):
            column.append(value)

    def table(self) -> pa.Table:
        arrays = [
            pa.array(column, type=field.type)
            for column, field in zip(self.lists, RESULTS_SCHEMA, strict=True)
        ]
        return pa.Table.from_arrays(arrays, schema=RESULTS_SCHEMA)


# The order of RESULT_KEYS, checked once at import: add_values tuples below rely on it.
assert RESULT_KEYS == (
    "run_id",
    "submission",
    "submission_sha",
    "problem",
    "case_id",
    "family",
    "verdict",
    "cpu_ms",
    "wall_ms",
    "peak_rss_kb",
    "exit_code",
    "signal",
    "output_sha256",
    "output_head",
    "checker_msg",
    "attempt",
    "node",
    "batch_size",
    "cpu_ms_runs",
    "wall_ms_runs",
)


def fast_path_applies(sub: PreparedSubmission, repeat: int) -> bool:
    return sub.kind == "solver" and sub.compile_error is None and repeat == 1


def solver_runner(
    problem: Problem,
    sub: PreparedSubmission,
    limits: Limits,
    *,
    run_id: str,
    attempt: int,
    node: str,
) -> Callable[[Mapping[str, Any], str, str, Columns], bool]:
    """A function (case row, input, expected, columns) -> True after adding the case's row
    for `sub`, or False (nothing added) when the general path must grade this case."""
    version = sub.version
    solve = problem.solve
    thread_time, perf_counter = time.thread_time, time.perf_counter
    sha256 = hashlib.sha256
    cpu_limit_ms = limits.time_s * 1000
    cap = limits.output_kb * 1024
    label, sub_sha, name = sub.label, sub.sha, problem.name
    add = Columns.add_values

    def run(case: Mapping[str, Any], text: str, expected: str, columns: Columns) -> bool:
        wall0, cpu0 = perf_counter(), thread_time()
        try:
            out = solve(text, version)
            data = out.encode()
        except Exception:
            return False
        cpu_ms = (thread_time() - cpu0) * 1000
        wall_ms = (perf_counter() - wall0) * 1000
        if cpu_ms > cpu_limit_ms or len(data) > cap:
            return False
        check = check_output(problem, text, expected, out)
        add(
            columns,
            (
                run_id,
                label,
                sub_sha,
                name,
                str(case["case_id"]),
                str(case.get("family") or ""),
                str(check.verdict),
                cpu_ms,
                wall_ms,
                0,
                0,
                None,
                sha256(data).hexdigest(),
                # == grading.output_head(data): 200 characters are at most 800 bytes
                out[:OUTPUT_HEAD_CHARS],
                check.message[:MESSAGE_CHARS] or None,
                attempt,
                node,
                1,
                [cpu_ms],
                [wall_ms],
            ),
        )
        return True

    return run
