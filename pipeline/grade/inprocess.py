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
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.grade.verdict import MESSAGE_CHARS, OUTPUT_HEAD_CHARS, RESULT_KEYS, check_output
from pipeline.problem.contract import Problem
from pipeline.program.execution import Limits, timed_call, timed_calls
from pipeline.schemas import RESULTS_SCHEMA, Verdict

if TYPE_CHECKING:
    from pipeline.program.submission import PreparedSubmission


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
    answer = problem.answerer(sub.version)
    sha256 = hashlib.sha256
    cpu_limit_ms = limits.time_s * 1000
    cap = limits.output_kb * 1024
    # the row's constant fields, placed by column name; run() fills in the rest
    template: list[Any] = [None] * len(RESULT_KEYS)
    for key, value in {
        "run_id": run_id,
        "submission": sub.label,
        "submission_sha": sub.sha,
        "problem": problem.name,
        "peak_rss_kb": 0,
        "exit_code": 0,
        "attempt": attempt,
        "node": node,
        "batch_size": 1,
    }.items():
        template[RESULT_KEYS.index(key)] = value
    at = {key: RESULT_KEYS.index(key) for key in RESULT_KEYS}

    def run(case: Mapping[str, Any], text: str, expected: str, columns: Columns) -> bool:
        out, error, cpu_ms, wall_ms = timed_call(answer, text)
        if error is not None or out is None:
            return False
        data = out.encode()
        if cpu_ms > cpu_limit_ms or len(data) > cap:
            return False
        check = check_output(problem, text, expected, out)
        row = template.copy()
        row[at["case_id"]] = str(case["case_id"])
        row[at["family"]] = str(case.get("family") or "")
        row[at["verdict"]] = str(check.verdict)
        row[at["cpu_ms"]] = row[at["cpu_ms_runs"]] = cpu_ms  # [cpu_ms] (see _array)
        row[at["wall_ms"]] = row[at["wall_ms_runs"]] = wall_ms
        row[at["output_sha256"]] = sha256(data).hexdigest()
        # == grading.output_head(data): 200 characters are at most 800 bytes
        row[at["output_head"]] = out[:OUTPUT_HEAD_CHARS]
        row[at["checker_msg"]] = check.message[:MESSAGE_CHARS] or None
        columns.add_values(tuple(row))
        return True

    return run


# ------------------------------------------------------------- whole chunks, by column


def chunk_fast_path_applies(subs: Sequence[PreparedSubmission], repeat: int) -> bool:
    return bool(subs) and all(fast_path_applies(s, repeat) for s in subs)


def _strings(outs: list[Any]) -> pa.StringArray:
    """The outputs as an Arrow column, null where the solver raised (or returned no str)."""
    try:
        return pa.array(outs, type=pa.string())
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError):
        return pa.array([o if type(o) is str else None for o in outs], type=pa.string())


def _sha256_column(outputs: pa.StringArray) -> pa.Array:
    """sha256 of each output's UTF-8 bytes, each distinct output hashed once (outputs
    repeat a lot: gomoku has ~500 distinct in 50,000)."""
    encoded = pc.dictionary_encode(outputs)
    distinct = encoded.dictionary.cast(pa.binary()).to_pylist()
    sha256 = hashlib.sha256
    # hex-encoded in one call and laid out as 64-character strings (per-digest hexdigest()
    # and str objects cost as much as the hashing)
    hexes = b"".join([sha256(o).digest() for o in distinct]).hex().encode("ascii")
    offsets = np.arange(0, 64 * len(distinct) + 1, 64, dtype=np.int32)
    digests = pa.StringArray.from_buffers(len(distinct), pa.py_buffer(offsets), pa.py_buffer(hexes))
    return digests.take(encoded.indices)


def _judged_columns(
    problem: Problem,
    texts: list[str],
    expected: pa.Array,
    outs: list[Any],
    cpu: np.ndarray,
    wall: np.ndarray,
    limits: Limits,
) -> tuple[np.ndarray, dict[str, pa.Array]]:
    """For one submission's runs over `texts`: (mask of the runs judged here, their
    columns), column by column. A run is judged here when the solver returned a string
    within the time and output limits; outputs equal to the expected answer are accepted
    as grading.check_output accepts them, the others go through check_output one by one."""
    outputs = _strings(outs)
    judged = (
        pc.is_valid(outputs).to_numpy(zero_copy_only=False)
        & (cpu <= limits.time_s * 1000)
        & (pc.binary_length(outputs).fill_null(0).to_numpy() <= limits.output_kb * 1024)
    )
    same = pc.fill_null(pc.equal(outputs, expected), False).to_numpy(zero_copy_only=False)
    verdicts = np.full(len(texts), str(Verdict.AC), dtype=object)
    messages: list[str | None] = [None] * len(texts)
    for j in np.flatnonzero(judged & ~same).tolist():
        result = check_output(problem, texts[j], expected[j].as_py(), outs[j])
        verdicts[j] = str(result.verdict)
        messages[j] = result.message[:MESSAGE_CHARS] or None
    return judged, {
        "verdict": pa.array(verdicts, type=pa.string()),
        "cpu_ms": pa.array(cpu, type=pa.float64()),
        "wall_ms": pa.array(wall, type=pa.float64()),
        "output_sha256": _sha256_column(outputs),
        # == grading.output_head(data): 200 characters are at most 800 bytes
        "output_head": pc.utf8_slice_codeunits(outputs, 0, OUTPUT_HEAD_CHARS),
        "checker_msg": pa.array(messages, type=pa.string()),
    }


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
    expected_col = batch.column("expected")
    declined: set[int] = set(np.flatnonzero(pc.is_null(expected_col).to_numpy(False)).tolist())
    declined.update(np.flatnonzero(pc.is_null(batch.column("input")).to_numpy(False)).tolist())
    if validate:
        for i, text in enumerate(inputs):
            if i in declined:
                continue
            try:
                if problem.validate(text):
                    declined.add(i)
            except Exception:
                declined.add(i)
    todo = [i for i in range(n) if i not in declined] if declined else None
    texts = inputs if todo is None else [inputs[i] for i in todo]
    expected = expected_col if todo is None else expected_col.take(todo)
    # case index -> position among `todo` (len(todo) = a null slot) for the declined ones
    spread = None if todo is None else _spread(todo, n)
    per_sub: list[dict[str, pa.Array]] = []
    for sub in subs:
        outs, cpu, wall = timed_calls(problem.answerer(sub.version), texts)
        judged, columns = _judged_columns(problem, texts, expected, outs, cpu, wall, limits)
        for j in np.flatnonzero(~judged).tolist():
            declined.add(j if todo is None else todo[j])
        if spread is not None:
            columns = {
                k: pa.concat_arrays([v, pa.nulls(1, v.type)]).take(spread)
                for k, v in columns.items()
            }
        per_sub.append(columns)
    m = len(subs)
    varying = (
        {key: _interleave([c[key] for c in per_sub], n) for key in per_sub[0]} if per_sub else {}
    )
    patched: dict[int, dict[str, Any]] = {}
    for i in sorted(declined):
        case = {key: batch.column(key)[i].as_py() for key in ("case_id", "family")}
        case.update(input=inputs[i], expected=expected_col[i].as_py())
        for s, row in enumerate(general(subs, [case]).to_pylist()):
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
            "reference_ms": None,
        },
        per_sub={"submission": [s.label for s in subs], "submission_sha": [s.sha for s in subs]},
        varying=varying,
    )


def _spread(todo: list[int], n: int) -> pa.Array:
    """Indices that place values computed for `todo` (a subset of range(n)) at their case
    positions: index len(todo) (a null appended by the caller) for the others."""
    at = np.full(n, len(todo), dtype=np.int64)
    at[todo] = np.arange(len(todo))
    return pa.array(at)


def _interleave(columns: list[pa.Array], n: int) -> pa.Array:
    """m per-submission columns of n cases -> one of n * m rows, case-major."""
    if len(columns) == 1:
        return columns[0]
    m = len(columns)
    order = (np.arange(m)[None, :] * n + np.arange(n)[:, None]).ravel()
    return pa.concat_arrays(columns).take(pa.array(order))


def _results_table(
    batch: pa.RecordBatch,
    m: int,
    patched: dict[int, dict[str, Any]],
    *,
    constants: dict[str, Any],
    per_sub: dict[str, list[str]],
    varying: dict[str, pa.Array],
) -> pa.Table:
    """RESULTS_SCHEMA columns for n cases x m submissions: constants repeated, case_id and
    family taken from the batch, rows of `patched` (full row dicts) replacing theirs."""
    n = batch.num_rows
    rows = n * m
    take = pa.array(np.arange(rows) // m) if m > 1 else None
    arrays = []
    for field in RESULTS_SCHEMA:
        key, kind = field.name, field.type
        if key in ("case_id", "family"):
            arr = batch.column(key)
            arr = arr if arr.type == pa.string() else pc.cast(arr, pa.string())
            if key == "family":
                arr = pc.fill_null(arr, "")
            if take is not None:
                arr = arr.take(take)
        elif key in ("cpu_ms_runs", "wall_ms_runs"):  # one run: the one-element list
            base = varying["cpu_ms" if key == "cpu_ms_runs" else "wall_ms"]
            offsets = pa.array(np.arange(rows + 1, dtype=np.int32))
            arr = (
                pa.ListArray.from_arrays(offsets, base)
                if not patched
                else pa.array([None if v is None else [v] for v in base.to_pylist()], type=kind)
            )
        elif key in constants:
            arr = pa.repeat(pa.scalar(constants[key], type=kind), rows)
        elif key in per_sub:
            arr = pa.array(per_sub[key] * n, type=kind)
        else:
            arr = varying[key].cast(kind)
        if patched:
            values = arr.to_pylist()
            for r, row in patched.items():
                values[r] = row[key]
            arr = pa.array(values, type=kind)
        arrays.append(arr)
    return pa.Table.from_arrays(arrays, schema=RESULTS_SCHEMA)
