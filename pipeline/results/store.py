"""Run folders on disk: results parquet parts written while a run goes, run.json, and
(summaries, below) what is computed from them (docs/decisions.md#d5).

Layout of RUN_DIR:
    run.json                 what was run (problem, corpora, submissions, limits, status)
    .lock                    held (flock) by the one `grade` writing the folder
    results/part-*.parquet   RESULTS_SCHEMA rows, one file per completed chunk
    summary.parquet          SUMMARY_SCHEMA, written at the end

results/ holds nothing else but parts staged and not yet committed, named
`.part-*.parquet.tmp`, which pyarrow, pandas and DuckDB's `*.parquet` glob all skip: the
folder is a plain parquet dataset of the committed rows.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.errors import GridjudgeError
from pipeline.private import (
    open_folder,
    private_dir,
    private_writer,
    replace_private,
    write_private,
)
from pipeline.results.summary import SUMMARY_INPUT, summarize
from pipeline.schemas import RESULTS_SCHEMA, SCHEMA_VERSION

RUN_JSON = "run.json"
LOCK_FILE = ".lock"
RESULTS_DIR = "results"
SUMMARY_FILE = "summary.parquet"


class RunDirError(GridjudgeError):
    """A run folder cannot be read or written; one line for the user."""


def results_dir(run_dir: Path) -> Path:
    return Path(run_dir) / RESULTS_DIR


def write_results_part(run_dir: Path, rows: list[dict[str, Any]] | pa.Table) -> Path | None:
    """Write one chunk's rows (dicts, or a RESULTS_SCHEMA table built where the chunk ran)
    as a new part file, atomically (temp name, then rename), so a killed run leaves only
    whole parts behind."""
    staged = stage_results_part(run_dir, rows)
    return None if staged is None else commit_results_part(staged)


def stage_results_part(run_dir: Path, rows: list[dict[str, Any]] | pa.Table) -> Path | None:
    """Write the rows as a hidden part file, not yet one of the run's results (readers see
    only part-*.parquet): commit_results_part makes it one. None when there are no rows."""
    if isinstance(rows, pa.Table):
        table = rows.cast(RESULTS_SCHEMA)
    elif rows:
        table = pa.Table.from_pylist(rows, schema=RESULTS_SCHEMA)
    else:
        return None
    if table.num_rows == 0:
        return None
    out = private_dir(results_dir(run_dir))
    staged = out / f"{_STAGED_PREFIX}part-{uuid.uuid4().hex}.parquet{_STAGED_SUFFIX}"
    # lz4, dictionaries only where values repeat, no statistics (nothing filters on them):
    # cheaper to write than the defaults (zstd, every column in dictionaries)
    with private_writer(staged) as sink:
        pq.write_table(
            table,
            sink,
            compression="lz4",
            use_dictionary=_REPEATING_COLUMNS,
            write_statistics=False,
        )
    return staged


def commit_results_part(staged: Path) -> Path:
    """A staged part becomes one of the run's results (a rename: atomic)."""
    name = staged.name.removeprefix(_STAGED_PREFIX).removesuffix(_STAGED_SUFFIX)
    return replace_private(staged, staged.with_name(name))


def remove_staged_parts(run_dir: Path) -> int:
    """Delete parts staged and never committed (a chunk lost after writing, then run
    again; a killed run): they hold no result of the run. Returns how many."""
    staged = list(results_dir(run_dir).glob(f"{_STAGED_PREFIX}part-*{_STAGED_SUFFIX}"))
    for path in staged:
        path.unlink(missing_ok=True)
    return len(staged)


# The leading "." hides a staged part from pyarrow and pandas, the suffix from `*.parquet`.
_STAGED_PREFIX, _STAGED_SUFFIX = ".", ".tmp"

# Columns whose values repeat within a part (one run, a few submissions and verdicts...).
_REPEATING_COLUMNS = [
    "run_id",
    "submission",
    "submission_sha",
    "problem",
    "family",
    "verdict",
    "output_sha256",
    "checker_msg",
    "node",
]


def _result_parts(run_dir: Path) -> list[Path]:
    return sorted(results_dir(run_dir).glob("part-*.parquet"))


# Columns added to RESULTS_SCHEMA since parts were first written, with the value a part
# written before them reads as.
_ADDED_COLUMNS: dict[str, Any] = {
    "cached": False,
    "runner": None,
    "tle_kind": None,
    "score": None,
    "transcript": None,
}


def _part_batches(part: Path, columns: list[str] | None) -> Iterator[pa.RecordBatch]:
    """A part's batches with `columns` (None: all of RESULTS_SCHEMA), a column the part
    predates filled with its _ADDED_COLUMNS value."""
    file = pq.ParquetFile(part)
    wanted = columns if columns is not None else RESULTS_SCHEMA.names
    present = set(file.schema_arrow.names)
    missing = [c for c in wanted if c not in present and c in _ADDED_COLUMNS]
    read = [c for c in wanted if c not in missing]
    for batch in file.iter_batches(columns=read):
        if not missing:
            yield batch
            continue
        arrays = {name: batch.column(name) for name in read}
        for name in missing:
            field = RESULTS_SCHEMA.field(name)
            arrays[name] = pa.repeat(pa.scalar(_ADDED_COLUMNS[name], field.type), batch.num_rows)
        yield pa.RecordBatch.from_arrays([arrays[c] for c in wanted], names=wanted)


def _reason(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def iter_results(
    run_dir: Path, columns: list[str] | None = None, *, skip_unreadable: bool = False
) -> Iterator[pa.RecordBatch]:
    """Every part's batches; a part that does not read is a RunDirError naming it, or,
    with `skip_unreadable`, left out (see unreadable_parts)."""
    for part in _result_parts(run_dir):
        if skip_unreadable:
            try:
                batches = list(_part_batches(part, columns))
            except (pa.ArrowException, OSError):
                continue
            yield from batches
            continue
        try:
            yield from _part_batches(part, columns)
        except (pa.ArrowException, OSError) as exc:
            raise RunDirError(f"{part}: corrupt parquet file ({_reason(exc)})") from None


def unreadable_parts(run_dir: Path) -> list[tuple[Path, str]]:
    """The results parts that do not read whole (truncated, overwritten...), each with
    the reader's complaint; every part is read in full."""
    bad = []
    for part in _result_parts(run_dir):
        try:
            pq.read_table(part)
        except (pa.ArrowException, OSError) as exc:
            bad.append((part, _reason(exc)))
    return bad


UNREADABLE_DIR = "unreadable"


def set_aside_unreadable(run_dir: Path) -> list[tuple[Path, Path, str]]:
    """Move every unreadable results part to RUN_DIR/unreadable/ (kept for a post-mortem,
    no longer one of the run's results): (part, where it went, why)."""
    moved = []
    for part, why in unreadable_parts(run_dir):
        target = Path(run_dir) / UNREADABLE_DIR / part.name
        private_dir(target.parent)
        source_fd, target_fd = open_folder(part.parent), open_folder(target.parent)
        try:  # through the folders' descriptors: neither is followed if swapped for a link
            os.rename(part.name, target.name, src_dir_fd=source_fd, dst_dir_fd=target_fd)
        finally:
            os.close(source_fd)
            os.close(target_fd)
        moved.append((part, target, why))
    return moved


def drop_submissions(run_dir: Path, labels: set[str]) -> int:
    """Remove the rows of these submissions from the run: each part holding some is
    written again without them (the new part first, then the old one removed).
    Returns how many rows went."""
    dropped = 0
    for part in _result_parts(run_dir):
        table = pq.read_table(part)
        keep = pc.invert(pc.is_in(table.column("submission"), pa.array(sorted(labels))))
        kept = table.filter(keep)
        if kept.num_rows == table.num_rows:
            continue
        if kept.num_rows:
            write_results_part(run_dir, kept)
        part.unlink()
        dropped += table.num_rows - kept.num_rows
    return dropped


def load_results(
    run_dir: Path, columns: list[str] | None = None, *, skip_unreadable: bool = False
) -> pa.Table:
    """Every results row of a run (empty table with the schema when none yet)."""
    if not Path(run_dir).is_dir():
        raise RunDirError(f"run folder {run_dir} does not exist")
    schema = (
        RESULTS_SCHEMA if columns is None else pa.schema([RESULTS_SCHEMA.field(c) for c in columns])
    )
    batches = list(iter_results(run_dir, columns, skip_unreadable=skip_unreadable))
    if not batches:
        return schema.empty_table()
    return pa.Table.from_batches(batches).cast(schema)


TIMING_COLUMNS = ("cpu_ms", "wall_ms", "cpu_ms_runs", "wall_ms_runs", "reference_ms")


def fresh_timings(results: pa.Table) -> pa.Table:
    """The rows with the timings of cached rows (measured by an earlier run) made null:
    timing statistics use only what this run measured."""
    if "cached" not in results.column_names or not pc.any(results.column("cached")).as_py():
        return results
    cached = pc.fill_null(results.column("cached"), False)
    for name in TIMING_COLUMNS:
        if name in results.column_names:
            column = results.column(name)
            nulls = pa.nulls(len(column), column.type)
            at = results.column_names.index(name)
            results = results.set_column(at, name, pc.if_else(cached, nulls, column))
    return results


def has_results(run_dir: Path) -> bool:
    """Whether the run holds at least one results row."""
    if not results_dir(run_dir).is_dir():
        return False
    return any(batch.num_rows for batch in iter_results(run_dir, columns=["case_id"]))


def done_keys(run_dir: Path) -> set[tuple[str, str]]:
    """(submission, case_id) pairs that already have a final row: what --resume skips."""
    if not results_dir(run_dir).is_dir():
        return set()
    keys: set[tuple[str, str]] = set()
    for batch in iter_results(run_dir, columns=["submission", "case_id"]):
        subs = batch.column(0).to_pylist()
        cases = batch.column(1).to_pylist()
        keys.update(zip(subs, cases, strict=True))
    return keys


def write_run_json(run_dir: Path, info: dict[str, Any]) -> None:
    run_dir = private_dir(run_dir)
    tmp = run_dir / f".{RUN_JSON}.tmp"
    write_private(
        tmp,
        json.dumps(
            {"schema_version": SCHEMA_VERSION, **info}, indent=2, sort_keys=True, default=str
        )
        + "\n",
    )
    replace_private(tmp, run_dir / RUN_JSON)


def read_run_json(run_dir: Path) -> dict[str, Any]:
    path = Path(run_dir) / RUN_JSON
    try:
        data: dict[str, Any] = json.loads(path.read_text())
    except FileNotFoundError:
        raise RunDirError(f"{run_dir} is not a run folder: no {RUN_JSON}") from None
    except json.JSONDecodeError as exc:
        raise RunDirError(f"{path}: unreadable ({exc})") from None
    return data


def unfinished(run_dir: Path) -> str:
    """One line saying the run in RUN_DIR is not finished ("" when it is, or when it
    has no run.json): its figures are partial."""
    try:
        status = read_run_json(run_dir).get("status")
    except RunDirError:
        return ""
    if status in (None, "done"):
        return ""
    hint = "still running" if status == "running" else f"{status}; continue with --resume"
    return f"unfinished run ({hint}): the figures below cover the pairs graded so far"


# ---------------------------------------------------------------- summaries


def write_summary(
    run_dir: Path, summary: pa.Table | None = None, *, skip_unreadable: bool = False
) -> pa.Table:
    """Write `summary` (default: the summary of every results row of RUN_DIR, but those
    of unreadable parts with `skip_unreadable`) to RUN_DIR/summary.parquet, atomically,
    and return it."""
    run_dir = Path(run_dir)
    if summary is None:
        columns = [*SUMMARY_INPUT, "attempt"]
        results = load_results(run_dir, columns=columns, skip_unreadable=skip_unreadable)
        summary = summarize(results)
    tmp = run_dir / f".{SUMMARY_FILE}.tmp"
    with private_writer(tmp) as sink:
        pq.write_table(summary, sink)
    replace_private(tmp, run_dir / SUMMARY_FILE)
    return summary


def write_table(path: Path, table: pa.Table) -> Path:
    """Write one whole parquet file atomically (temp name, then rename)."""
    return write_batches(path, table.schema, table.to_batches())


def write_batches(path: Path, schema: pa.Schema, batches: Iterable[pa.RecordBatch]) -> Path:
    """Write one parquet file from batches made as it is written (no more than one batch
    in memory), atomically: a temp name, renamed when the last batch is in."""
    path = Path(path)
    tmp = path.parent / f".{path.name}.tmp"
    try:
        private_dir(path.parent)
        with private_writer(tmp) as sink, pq.ParquetWriter(sink, schema, compression="zstd") as w:
            for batch in batches:
                w.write_batch(batch)
        replace_private(tmp, path)
    except OSError as exc:
        raise RunDirError(f"{path}: cannot write ({' '.join(str(exc).split())})") from None
    return path
