"""The result cache: a (submission, case) pair graded once is never graded again while
nothing that decides its verdict has changed.

Held by the driver (grade.driver): it looks pairs up while it builds chunks, writes the rows
of the pairs it has as rows marked `cached`, and stores the rows of each committed chunk.
Workers never touch it, so it works on any cluster without a shared filesystem.

One SQLite file under the cache dir (see default_cache_root): transactions make every
write whole, WAL mode and a busy timeout let two runs read and write at once, eviction
(oldest used first, over the size cap) is one query. Each entry carries a hash of its own
content, checked on every read: an entry that fails it is ignored (the pair is graded)
and rewritten. A file that is not a database any more is moved aside and a new one
started.

The key holds everything that decides a verdict except the CPU time limit, which the
reuse rule (`reusable`) weighs instead: see pipeline.grade.cache_key and docs/cache.md.
"""

from __future__ import annotations

import hashlib
import marshal
import math
import os
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.errors import GridjudgeError
from pipeline.grade.rows import GRADED_SCHEMA
from pipeline.limits import Limits
from pipeline.private import private_dir, private_file
from pipeline.program.build import default_cache_dir

CACHE_FILE = "results.sqlite"
DEFAULT_MAX_MB = 2048
BUSY_TIMEOUT_MS = 60_000
# A non-TLE row measured under a higher CPU limit still counts under a lower one only
# when it was timed REUSE_MIN_RUNS+ times (`--repeat`) and every run took at most this
# fraction of the new limit (of the new wall limit for wall times).
REUSE_FRACTION = 0.5
REUSE_MIN_RUNS = 3
# An entry's row: the values of these columns of a results row (what the run, the label
# and the case do not supply), as a tuple in marshal's format (several times faster to
# write and read than JSON; read only once the entry's hash matched).
ROW_COLUMNS = (*(f.name for f in GRADED_SCHEMA if f.name != "cached"), "node")
VERDICT, CPU_RUNS, WALL_RUNS = (
    ROW_COLUMNS.index(c) for c in ("verdict", "cpu_ms_runs", "wall_ms_runs")
)


# Where the result cache lives when the run does not say: a folder, or "off" (no cache
# unless the run names a folder); unset: the cache dir, whose `build/` holds the builds.
ROOT_ENV = "GRIDJUDGE_RESULT_CACHE"


def default_cache_root() -> Path | None:
    """The result cache's folder by default (None: off)."""
    value = os.environ.get(ROOT_ENV, "").strip()
    if value == "off":
        return None
    return Path(value) if value else default_cache_dir().parent


def open_cache(use: bool, root: Path | None, max_mb: int | None) -> ResultCache | None:
    """The result cache of a run: None when `use` is False or the default is off."""
    root = root if root is not None else default_cache_root()
    return ResultCache(root, max_mb) if use and root is not None else None


# ---------------------------------------------------------------- the reuse rule


def reusable(row: Sequence[Any], graded_ms: float, limits: Limits) -> bool:
    """Whether an entry's row (ROW_COLUMNS) graded under a CPU limit of `graded_ms` holds
    under `limits`: a TLE under an equal or lower limit; any other verdict under an equal
    or higher limit, and under a lower one only when REUSE_MIN_RUNS+ timed runs all took
    at most REUSE_FRACTION of the new limits. Any doubt: no."""
    new_ms = limits.cpu_ms
    if new_ms == graded_ms:
        return True
    if row[VERDICT] == "TLE":
        return new_ms < graded_ms
    if new_ms > graded_ms:
        return True
    cpu = row[CPU_RUNS] or []
    wall = row[WALL_RUNS] or []
    return (
        len(cpu) >= REUSE_MIN_RUNS
        and len(wall) == len(cpu)
        and max(cpu) <= REUSE_FRACTION * new_ms
        and max(wall) <= REUSE_FRACTION * limits.wall_limit_ms
    )


# ---------------------------------------------------------------- the store


MARSHAL_VERSION = 4


def _entry_digest(key: bytes, graded_ms: float, row: bytes) -> bytes:
    return hashlib.sha256(b"%s\0%r\0%s" % (key, graded_ms, row)).digest()


_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    key BLOB PRIMARY KEY,
    graded_ms REAL NOT NULL,
    row BLOB NOT NULL,
    digest BLOB NOT NULL,
    used REAL NOT NULL
);
"""

LOOKUP_BATCH = 500  # keys per SELECT (SQLite's limit on bound parameters is 32766)


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    doubtful: int = 0  # an entry the reuse rule would not trust under these limits
    broken: int = 0  # entries that failed their hash check
    stored: int = 0
    evicted: int = 0
    failed: int = 0  # reads or writes that failed (their pairs were graded, or not stored)
    reset: str = ""  # where an unreadable cache file was moved


class CacheError(GridjudgeError):
    """The result cache cannot be used; one line for the user."""


class ResultCache:
    """The cache file, opened for one run (a context manager). Once open, a failure to
    read or write it (a disk full, a lock held too long) costs only the entries
    concerned: they count as missing, or are not stored (CacheStats.failed)."""

    def __init__(self, root: Path, max_mb: int | None = None) -> None:
        self.root = Path(root)
        self.path = self.root / CACHE_FILE
        self.max_bytes = (max_mb if max_mb is not None else DEFAULT_MAX_MB) << 20
        self.stats = CacheStats()
        self.db = self._open()

    def _connect(self) -> sqlite3.Connection:
        private_dir(self.root)
        for suffix in ("", "-wal", "-shm"):  # SQLite makes its -wal and -shm as the file
            if suffix == "" or Path(f"{self.path}{suffix}").exists():
                private_file(f"{self.path}{suffix}")
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA auto_vacuum = INCREMENTAL")  # a new file only: eviction shrinks it
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.executescript(_SCHEMA)
        db.execute("SELECT count(*) FROM entries").fetchone()  # reads a page: a bad file fails
        return db

    def _open(self) -> sqlite3.Connection:
        try:
            return self._connect()
        except (OSError, sqlite3.OperationalError) as exc:  # unwritable, locked too long...
            raise CacheError(
                f"result cache {self.path}: cannot open ({exc}); "
                f"grade with --no-cache, or set {ROOT_ENV} to another folder"
            ) from None
        except sqlite3.DatabaseError:  # not a database (any more)
            if not self.path.exists():
                raise
            aside = self.path.with_name(f"{CACHE_FILE}.broken-{os.getpid()}-{int(time.time())}")
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            self.stats.reset = str(aside)
            return self._connect()

    def __enter__(self) -> ResultCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.evict()
        except sqlite3.Error:
            self.stats.failed += 1
        finally:
            self.db.close()

    def lookup(self, keys: Sequence[bytes], limits: Limits) -> dict[bytes, tuple[Any, ...]]:
        """The rows (ROW_COLUMNS) the cache has for `keys` and may give under `limits`."""
        try:
            return self._lookup(keys, limits)
        except sqlite3.Error:
            self.stats.failed += 1
            self.stats.misses += len(keys)
            return {}

    def _lookup(self, keys: Sequence[bytes], limits: Limits) -> dict[bytes, tuple[Any, ...]]:
        found: dict[bytes, tuple[Any, ...]] = {}
        for start in range(0, len(keys), LOOKUP_BATCH):
            block = list(dict.fromkeys(keys[start : start + LOOKUP_BATCH]))
            marks = ",".join("?" * len(block))
            rows = self.db.execute(
                f"SELECT key, graded_ms, row, digest FROM entries WHERE key IN ({marks})", block
            ).fetchall()
            for key, graded_ms, data, digest in rows:
                row = self._checked(key, graded_ms, data, digest)
                if row is None:
                    continue
                if reusable(row, graded_ms, limits):
                    found[key] = row
                else:
                    self.stats.doubtful += 1
        self._touch(list(found))
        self.stats.hits += len(found)
        self.stats.misses += len(keys) - len(found)
        return found

    def _touch(self, keys: list[bytes]) -> None:
        """Mark entries used now (eviction removes those used longest ago)."""
        if not keys:
            return
        now = time.time()
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for start in range(0, len(keys), LOOKUP_BATCH):
                block = keys[start : start + LOOKUP_BATCH]
                marks = ",".join("?" * len(block))
                self.db.execute(
                    f"UPDATE entries SET used = ? WHERE key IN ({marks})", [now, *block]
                )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _checked(
        self, key: bytes, graded_ms: float, data: bytes, digest: bytes
    ) -> tuple[Any, ...] | None:
        try:
            if _entry_digest(key, graded_ms, data) != digest:
                raise ValueError("hash mismatch")
            row = marshal.loads(data)
            if not isinstance(row, tuple) or len(row) != len(ROW_COLUMNS):
                raise ValueError("not a row")
            return row
        except (ValueError, TypeError, EOFError):
            self.stats.broken += 1
            return None

    def store_table(self, keys: Sequence[bytes], table: pa.Table, graded_ms: float) -> None:
        """Store a chunk's fresh rows (a RESULTS_SCHEMA table) under their keys."""
        columns = [table.column(c).to_pylist() for c in ROW_COLUMNS]
        self.store(zip(keys, zip(*columns, strict=True), strict=True), graded_ms)

    def store(self, entries: Iterable[tuple[bytes, Sequence[Any]]], graded_ms: float) -> None:
        """Store fresh rows (ROW_COLUMNS), but JE rows: the judge failed, not the program."""
        try:
            self._store(entries, graded_ms)
        except sqlite3.Error:
            self.stats.failed += 1

    def _store(self, entries: Iterable[tuple[bytes, Sequence[Any]]], graded_ms: float) -> None:
        now = time.time()
        values = []
        for key, row in entries:
            if row[VERDICT] == "JE":
                continue
            data = marshal.dumps(tuple(row), MARSHAL_VERSION)
            values.append((key, graded_ms, data, _entry_digest(key, graded_ms, data), now))
        if not values:
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany(
                "INSERT OR REPLACE INTO entries (key, graded_ms, row, digest, used) "
                "VALUES (?, ?, ?, ?, ?)",
                values,
            )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.stats.stored += len(values)

    def size(self) -> int:
        """Bytes the entries take in the file (its pages less the free ones)."""
        pages = self.db.execute("PRAGMA page_count").fetchone()[0]
        free = self.db.execute("PRAGMA freelist_count").fetchone()[0]
        return int((pages - free) * self.db.execute("PRAGMA page_size").fetchone()[0])

    def evict(self) -> int:
        """Over the size cap, delete the entries used longest ago, down to a tenth under
        it (their share of the entries by count); then give the free pages back."""
        used = self.size()
        if used <= self.max_bytes:
            return 0
        count = self.db.execute("SELECT count(*) FROM entries").fetchone()[0]
        doomed = math.ceil(count * (1 - 0.9 * self.max_bytes / used))
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute(
                "DELETE FROM entries WHERE rowid IN "
                "(SELECT rowid FROM entries ORDER BY used LIMIT ?)",
                [doomed],
            )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("PRAGMA incremental_vacuum")
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.stats.evicted += doomed
        return doomed
