"""Results rows are built here and nowhere else.

A runner's work on n cases for one submission becomes a *graded* table: the columns of
RESULTS_SCHEMA that vary from one (submission, case) pair to the next (GRADED_SCHEMA).
`results_table` joins the graded tables of a chunk's submissions with the case columns and
the run's constants into RESULTS_SCHEMA rows, case by case.
"""

from __future__ import annotations

import hashlib
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.problem.checkers import CheckResult
from pipeline.problem.contract import CaseOutcome
from pipeline.schemas import RESULTS_SCHEMA

if TYPE_CHECKING:
    from pipeline.program.submission import PreparedSubmission

OUTPUT_HEAD_CHARS = 200
MESSAGE_CHARS = 500

CONSTANT_KEYS = ("run_id", "problem", "attempt", "node")
SUBMISSION_KEYS = ("submission", "submission_sha")
CASE_KEYS = ("case_id", "family")
GRADED_SCHEMA = pa.schema(
    [f for f in RESULTS_SCHEMA if f.name not in (*CONSTANT_KEYS, *SUBMISSION_KEYS, *CASE_KEYS)]
)


@dataclass(frozen=True)
class RowContext:
    """The columns every row of one chunk shares."""

    run_id: str
    problem: str
    attempt: int
    node: str


def message(check: CheckResult) -> str | None:
    return check.message[:MESSAGE_CHARS] or None


def output_head(output: bytes) -> str:
    """The output_head column: the first OUTPUT_HEAD_CHARS characters of the output."""
    return output[: OUTPUT_HEAD_CHARS * 4].decode("utf-8", "replace")[:OUTPUT_HEAD_CHARS]


def _singletons(values: pa.Array) -> pa.Array:
    """Each value as the one-element list of a single run (cpu_ms_runs, wall_ms_runs)."""
    if values.null_count:
        return pa.array(
            [None if v is None else [v] for v in values.to_pylist()], pa.list_(pa.float64())
        )
    offsets = pa.array(np.arange(len(values) + 1, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, values.cast(pa.float64()))


_DEFAULTS: dict[str, Any] = {"batch_size": 1, "cached": False}


def _table(columns: dict[str, Any], n: int) -> pa.Table:
    """A GRADED_SCHEMA table from arrays or lists; a missing column is null, except
    those of _DEFAULTS (one case per run, graded now); scalars repeat."""
    arrays = []
    for field in GRADED_SCHEMA:
        value = columns.get(field.name, _DEFAULTS.get(field.name))
        if isinstance(value, pa.Array | pa.ChunkedArray):
            arrays.append(value.cast(field.type) if value.type != field.type else value)
        elif isinstance(value, list | np.ndarray):
            arrays.append(pa.array(value, type=field.type))
        else:
            arrays.append(pa.repeat(pa.scalar(value, type=field.type), n))
    return pa.Table.from_arrays(arrays, schema=GRADED_SCHEMA)


def from_runs(runs: Sequence[CaseOutcome]) -> pa.Table:
    """The graded rows of cases run one by one (a spawned process, a case of a batch, an
    in-process call that failed)."""
    cpu = [float(r.result.cpu_ms) for r in runs]
    wall = [float(r.result.wall_ms) for r in runs]
    table = _table(
        {
            "verdict": [str(r.check.verdict) for r in runs],
            "cpu_ms": cpu,
            "wall_ms": wall,
            "peak_rss_kb": [int(r.result.peak_rss_kb) for r in runs],
            "exit_code": [r.result.exit_code for r in runs],
            "signal": [r.result.signal for r in runs],
            "output_sha256": [hashlib.sha256(r.result.output).hexdigest() for r in runs],
            "output_head": [output_head(r.result.output) for r in runs],
            "checker_msg": [message(r.check) for r in runs],
            "batch_size": [r.batch_size for r in runs],
            "runner": [r.result.extra.get("runner") for r in runs],
            "score": [r.check.score for r in runs],
            "cpu_ms_runs": [[c] for c in cpu],
            "wall_ms_runs": [[w] for w in wall],
            "transcript": [r.transcript for r in runs],
            "start_cpu_ms": [float(r.result.start_cpu_ms) for r in runs],
        },
        len(runs),
    )
    return table


def from_outputs(
    outputs: pa.StringArray,
    verdicts: list[str] | np.ndarray,
    messages: list[str | None],
    cpu_ms: np.ndarray,
    wall_ms: np.ndarray,
) -> pa.Table:
    """The graded rows of in-process calls that returned an answer within the limits
    (exit code 0, no memory figure, one case per call), column by column."""
    n = len(outputs)
    cpu = pa.array(cpu_ms, type=pa.float64())
    wall = pa.array(wall_ms, type=pa.float64())
    return _table(
        {
            "verdict": pa.array(verdicts, type=pa.string()),
            "cpu_ms": cpu,
            "wall_ms": wall,
            "peak_rss_kb": 0,
            "exit_code": 0,
            "output_sha256": sha256_column(outputs),
            # == output_head(data): 200 characters are at most 800 bytes
            "output_head": pc.utf8_slice_codeunits(outputs, 0, OUTPUT_HEAD_CHARS),
            "checker_msg": pa.array(messages, type=pa.string()),
            "runner": "in-process",
            "cpu_ms_runs": _singletons(cpu),
            "wall_ms_runs": _singletons(wall),
        },
        n,
    )


def from_verdicts(verdicts: Sequence[str], messages: Sequence[str | None]) -> pa.Table:
    """Rows of cases that were not run: IE (a rejected input), JE (no expected answer),
    CE (the submission did not compile)."""
    return _table({"verdict": list(verdicts), "checker_msg": list(messages)}, len(verdicts))


def sha256_column(outputs: pa.StringArray) -> pa.Array:
    """sha256 of each output's UTF-8 bytes, each distinct output hashed once (outputs of a
    corpus repeat a lot), hex-encoded in one call."""
    encoded = pc.dictionary_encode(outputs)
    distinct = encoded.dictionary.cast(pa.binary()).to_pylist()
    sha256 = hashlib.sha256
    hexes = b"".join([sha256(o).digest() for o in distinct]).hex().encode("ascii")
    offsets = np.arange(0, 64 * len(distinct) + 1, 64, dtype=np.int32)
    digests = pa.StringArray.from_buffers(len(distinct), pa.py_buffer(offsets), pa.py_buffer(hexes))
    return digests.take(encoded.indices)


def scatter(parts: Sequence[tuple[Sequence[int] | np.ndarray, pa.Table]], n: int) -> pa.Table:
    """One table of n rows from parts that each hold the rows of the given positions."""
    parts = [(pos, t) for pos, t in parts if len(pos)]
    if len(parts) == 1 and len(parts[0][0]) == n:
        return parts[0][1]
    positions = np.concatenate([np.asarray(pos, dtype=np.int64) for pos, _ in parts])
    if len(positions) != n or len(np.unique(positions)) != n:
        raise ValueError("scatter: the parts do not cover every position exactly once")
    table = pa.concat_tables([t for _, t in parts])
    return table.take(pa.array(np.argsort(positions, kind="stable")))


def _median(values: list[float]) -> float:
    return float(statistics.median(values))


def combine_rounds(rounds: Sequence[pa.Table], reference_ms: Sequence[float]) -> pa.Table:
    """The rows of cases run in several rounds (`--repeat`): each case's row is its first
    round that is not AC (a case failing once in R runs is not accepted), else its first;
    cpu_ms and wall_ms are the medians of every round it ran in (a TLE is not run again:
    engine._rounds), all kept in cpu_ms_runs and wall_ms_runs (start_cpu_ms the median of
    its rounds' servers' start-ups); reference_ms is the
    median of the machine-speed probe of each round."""
    if len(rounds) == 1 and not reference_ms:
        return rounds[0]
    lists = [r.to_pylist() for r in rounds]
    combined = []
    for per_case in zip(*lists, strict=True):
        chosen = next((r for r in per_case if r["verdict"] != "AC"), per_case[0])
        row = dict(chosen)
        cpu = [r["cpu_ms"] for r in per_case if r["cpu_ms"] is not None]
        wall = [r["wall_ms"] for r in per_case if r["wall_ms"] is not None]
        if cpu:
            row.update(cpu_ms=_median(cpu), cpu_ms_runs=cpu)
        if wall:
            row.update(wall_ms=_median(wall), wall_ms_runs=wall)
        start = [r["start_cpu_ms"] for r in per_case if r["start_cpu_ms"] is not None]
        if start:  # each round's server measured its own
            row["start_cpu_ms"] = _median(start)
        if reference_ms:
            row["reference_ms"] = _median(list(reference_ms))
        combined.append(row)
    return pa.Table.from_pylist(combined, schema=GRADED_SCHEMA)


def results_table(
    case_id: pa.Array,
    family: pa.Array,
    submissions: Sequence[PreparedSubmission],
    graded: Sequence[pa.Table],
    context: RowContext,
) -> pa.Table:
    """RESULTS_SCHEMA rows for n cases x m submissions, case-major (every submission's row
    of case 1, then of case 2...): `graded[s]` holds submission s's rows, in case order."""
    n, m = len(case_id), len(submissions)
    rows = n * m
    order = (np.arange(m)[None, :] * n + np.arange(n)[:, None]).ravel() if m > 1 else None
    varying = pa.concat_tables(graded) if m > 1 else graded[0]
    if order is not None:
        varying = varying.take(pa.array(order))
    per_case = {"case_id": case_id, "family": pc.fill_null(family, "")}
    if m > 1:
        per_case = {k: v.take(pa.array(np.arange(rows) // m)) for k, v in per_case.items()}
    constants = {
        "run_id": context.run_id,
        "problem": context.problem,
        "attempt": context.attempt,
        "node": context.node,
    }
    per_sub = {
        "submission": [s.label for s in submissions] * n,
        "submission_sha": [s.sha for s in submissions] * n,
    }
    arrays = []
    for field in RESULTS_SCHEMA:
        key = field.name
        if key in constants:
            arr = pa.repeat(pa.scalar(constants[key], type=field.type), rows)
        elif key in per_sub:
            values = per_sub[key]
            arr = (
                pa.repeat(pa.scalar(values[0], type=field.type), rows)
                if m == 1
                else pa.array(values, type=field.type)
            )
        elif key in per_case:
            arr = per_case[key]
        else:
            arr = varying.column(key).combine_chunks()
        arrays.append(arr.cast(field.type) if arr.type != field.type else arr)
    return pa.Table.from_arrays(arrays, schema=RESULTS_SCHEMA)
