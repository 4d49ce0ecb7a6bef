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
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from pipeline.execution import Limits, timed_call
from pipeline.grading import MESSAGE_CHARS, OUTPUT_HEAD_CHARS, RESULT_KEYS, check_output
from pipeline.problem import Problem
from pipeline.schemas import RESULTS_SCHEMA

if TYPE_CHECKING:
    from pipeline.submission import PreparedSubmission


class Columns:
    """RESULTS_SCHEMA rows accumulated as tuples (one append per row), turned into
    columns once, at the end."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []

    def add_row(self, row: Mapping[str, Any]) -> None:
        self.rows.append(tuple(row[key] for key in RESULT_KEYS))

    def add_values(self, values: tuple[Any, ...]) -> None:
        """One row given as a tuple in RESULT_KEYS order."""
        self.rows.append(values)

    def table(self) -> pa.Table:
        if not self.rows:
            return RESULTS_SCHEMA.empty_table()
        arrays = [
            _array(column, field.type)
            for column, field in zip(zip(*self.rows, strict=True), RESULTS_SCHEMA, strict=True)
        ]
        return pa.Table.from_arrays(arrays, schema=RESULTS_SCHEMA)


def _array(values: tuple[Any, ...], kind: pa.DataType) -> pa.Array:
    """A column; in the list columns (cpu_ms_runs, wall_ms_runs) a bare float stands for
    the one-element list of a single run (rows of the fast path hold no list: a million
    small lists kept alive would make the garbage collector a third of the cost)."""
    if not pa.types.is_list(kind):
        if values.count(values[0]) == len(values):  # run_id, submission, node, ...
            return pa.repeat(pa.scalar(values[0], type=kind), len(values))
        return pa.array(values, type=kind)
    if None not in values:
        try:
            flat = pa.array(values, type=kind.value_type)  # all bare floats
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError):
            pass
        else:
            offsets = pa.array(range(len(values) + 1), type=pa.int32())
            return pa.ListArray.from_arrays(offsets, flat)
    return pa.array([[v] if type(v) is float else v for v in values], type=kind)


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
    sha256 = hashlib.sha256
    cpu_limit_ms = limits.time_s * 1000
    cap = limits.output_kb * 1024
    label, sub_sha, name = sub.label, sub.sha, problem.name

    def run(case: Mapping[str, Any], text: str, expected: str, columns: Columns) -> bool:
        out, error, cpu_ms, wall_ms = timed_call(solve, text, version)
        if error is not None or out is None:
            return False
        data = out.encode()
        if cpu_ms > cpu_limit_ms or len(data) > cap:
            return False
        check = check_output(problem, text, expected, out)
        columns.rows.append(
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
                cpu_ms,  # cpu_ms_runs == [cpu_ms] (see _array)
                wall_ms,
            ),
        )
        return True

    return run
