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

import gc
import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.execution import Limits, timed_call
from pipeline.grading import MESSAGE_CHARS, OUTPUT_HEAD_CHARS, RESULT_KEYS, check_output
from pipeline.problem import Problem
from pipeline.schemas import RESULTS_SCHEMA, Verdict

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


# ------------------------------------------------------------- whole chunks, by column


def chunk_fast_path_applies(subs: Sequence[PreparedSubmission], repeat: int) -> bool:
    return bool(subs) and all(fast_path_applies(s, repeat) for s in subs)


def _solve_all(
    solve: Callable[[str, str | None], str], inputs: list[str], version: str | None
) -> tuple[list[Any], list[float], list[float]]:
    """(outputs, cpu_ms, wall_ms) of every input, one after another; an output is the
    exception when the solver raised. The clocks are read once per case boundary: the
    end of case i is the start of case i + 1, and nothing but the loop's own step lies
    between the two solves (checking and hashing come after, in grade_columns). The
    cyclic GC is paused over the loop, as timed_call pauses it over one call, and
    re-enabled after it."""
    n = len(inputs)
    outs: list[Any] = [None] * n
    cpu = [0.0] * n
    wall = [0.0] * n
    thread_time, perf_counter = time.thread_time, time.perf_counter
    enabled = gc.isenabled()
    gc.disable()
    try:
        c0, w0 = thread_time(), perf_counter()
        for i, text in enumerate(inputs):
            try:
                outs[i] = solve(text, version)
            except Exception as exc:
                outs[i] = exc
            c1, w1 = thread_time(), perf_counter()
            cpu[i] = (c1 - c0) * 1000
            wall[i] = (w1 - w0) * 1000
            c0, w0 = c1, w1
    finally:
        if enabled:
            gc.enable()
    return outs, cpu, wall


def grade_columns(
    problem: Problem,
    subs: Sequence[PreparedSubmission],
    batch: pa.RecordBatch,
    limits: Limits,
    *,
    run_id: str,
    attempt: int,
    node: str,
    validate: bool,
    general: Callable[[Sequence[PreparedSubmission], list[dict[str, Any]]], pa.Table],
) -> pa.Table:
    """grade_batch's rows for a record batch of cases (case_id, family, input, expected)
    when every submission is on the fast path (chunk_fast_path_applies), built column by
    column. A case the fast path does not judge (invalid input, no expected answer; for a
    submission: the solver raised, or exceeded the time or output limit) is graded by
    `general(subs, [case])` (grade_batch on that one case), whose rows take its place."""
    n = batch.num_rows
    inputs: list[str] = batch.column("input").to_pylist()
    expected: list[str | None] = batch.column("expected").to_pylist()
    declined: dict[int, list[dict[str, Any]]] = {}  # case index -> its rows, from `general`
    for i in range(n):
        if expected[i] is None or not isinstance(inputs[i], str):
            declined[i] = []
    if validate:
        for i, text in enumerate(inputs):
            if i in declined:
                continue
            try:
                if problem.validate(text):
                    declined[i] = []
            except Exception:
                declined[i] = []
    todo = [i for i in range(n) if i not in declined] if declined else list(range(n))
    texts = [inputs[i] for i in todo] if declined else inputs
    cpu_limit_ms = limits.time_s * 1000
    cap = limits.output_kb * 1024
    sha256 = hashlib.sha256
    m = len(subs)
    digests: dict[str, str] = {}  # output -> sha256 of its UTF-8 bytes
    names = {v: str(v) for v in Verdict}
    # per row (case-major, submission-minor) among the fast rows; declined rows patched in
    verdict: list[Any] = [None] * (n * m)
    cpu_col: list[Any] = [None] * (n * m)
    wall_col: list[Any] = [None] * (n * m)
    sha_col: list[Any] = [None] * (n * m)
    head_col: list[Any] = [None] * (n * m)
    msg_col: list[Any] = [None] * (n * m)
    for s, sub in enumerate(subs):
        outs, cpu, wall = _solve_all(problem.solve, texts, sub.version)
        for j, i in enumerate(todo):
            out = outs[j]
            if type(out) is not str or cpu[j] > cpu_limit_ms:
                declined[i] = []
                continue
            digest = digests.get(out)
            if digest is None:  # outputs repeat a lot (gomoku: ~500 distinct in 50,000)
                data = out.encode()
                if len(data) > cap:
                    declined[i] = []
                    continue
                digest = digests[out] = sha256(data).hexdigest()
            result = check_output(problem, texts[j], expected[i], out)
            r = i * m + s
            verdict[r] = names.get(result.verdict) or str(result.verdict)
            cpu_col[r] = cpu[j]
            wall_col[r] = wall[j]
            sha_col[r] = digest
            head_col[r] = out[:OUTPUT_HEAD_CHARS]  # == grading.output_head(data)
            msg_col[r] = result.message[:MESSAGE_CHARS] or None
    patched: dict[int, dict[str, Any]] = {}
    for i in sorted(declined):
        case = {key: batch.column(key)[i].as_py() for key in ("case_id", "family")}
        case.update(input=inputs[i], expected=expected[i])
        rows = general(subs, [case]).to_pylist()
        for s, row in enumerate(rows):
            patched[i * m + s] = row
    return _results_table(
        batch,
        m,
        patched,
        constants={
            "run_id": run_id,
            "problem": problem.name,
            "peak_rss_kb": 0,
            "exit_code": 0,
            "signal": None,
            "attempt": attempt,
            "node": node,
            "batch_size": 1,
        },
        per_sub={"submission": [s.label for s in subs], "submission_sha": [s.sha for s in subs]},
        varying={
            "verdict": verdict,
            "cpu_ms": cpu_col,
            "wall_ms": wall_col,
            "output_sha256": sha_col,
            "output_head": head_col,
            "checker_msg": msg_col,
        },
    )


def _results_table(
    batch: pa.RecordBatch,
    m: int,
    patched: dict[int, dict[str, Any]],
    *,
    constants: dict[str, Any],
    per_sub: dict[str, list[str]],
    varying: dict[str, list[Any]],
) -> pa.Table:
    """RESULTS_SCHEMA columns for n cases x m submissions: constants repeated, case_id and
    family taken from the batch, rows of `patched` (full row dicts) replacing theirs."""
    n = batch.num_rows
    rows = n * m
    take = pa.array([i // m for i in range(rows)], type=pa.int64()) if m > 1 else None
    arrays = []
    for field in RESULTS_SCHEMA:
        key, kind = field.name, field.type
        if key in ("case_id", "family"):
            col = batch.column(key)
            col = col if col.type == pa.string() else pc.cast(col, pa.string())
            if key == "family":
                col = pc.fill_null(col, "")
            arr = col if take is None else col.take(take)
            if patched:
                values = arr.to_pylist()
                for r, row in patched.items():
                    values[r] = row[key]
                arr = pa.array(values, type=kind)
            arrays.append(arr)
            continue
        if key in ("cpu_ms_runs", "wall_ms_runs"):
            base = varying["cpu_ms" if key == "cpu_ms_runs" else "wall_ms"]
            if not patched:
                offsets = pa.array(range(rows + 1), type=pa.int32())
                arrays.append(pa.ListArray.from_arrays(offsets, pa.array(base, type=pa.float64())))
            else:
                values = [[v] for v in base]
                for r, row in patched.items():
                    values[r] = row[key]
                arrays.append(pa.array(values, type=kind))
            continue
        if key in constants and not patched:
            arrays.append(pa.repeat(pa.scalar(constants[key], type=kind), rows))
            continue
        if key in constants:
            values = [constants[key]] * rows
        elif key in per_sub:
            values = per_sub[key] * n
        else:
            values = varying[key]
        if patched:
            values = list(values)
            for r, row in patched.items():
                values[r] = row[key]
        arrays.append(pa.array(values, type=kind))
    return pa.Table.from_arrays(arrays, schema=RESULTS_SCHEMA)
