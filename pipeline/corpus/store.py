"""Corpora on disk: a folder of `part-NNNNN.parquet` files plus a `_corpus.json` manifest.

The manifest's leading `_` makes pyarrow and pandas skip it, so the folder is a plain
parquet dataset (`pandas.read_parquet(DIR)`, `pyarrow.dataset.dataset(DIR)`, DuckDB's
`'DIR/*.parquet'`). Corpora written before the rename hold `corpus.json` and still read.
Writing and reading stream in record batches bounded in rows and in bytes, so memory
is bounded by the batch, not the corpus. A corpus is data from anywhere: a row group
whose inputs or answers take more than the reader's limit (MAX_INPUT_MB, grade's
--max-input-mb) is refused from the parts' metadata, before any of it is read (a
single cell can be no larger than its row group's column).
Importers (corpus.importers) turn judge folders, Kattis packages and multi-case files
into the same form.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.errors import GridjudgeError
from pipeline.private import open_private, private_dir, write_private
from pipeline.problem.contract import Problem
from pipeline.schemas import CORPUS_SCHEMA, SCHEMA_VERSION

MANIFEST = "_corpus.json"
OLD_MANIFEST = "corpus.json"  # the manifest's name in corpora written before _corpus.json
ROWS_PER_BATCH = 10_000
ROWS_PER_FILE = 200_000
# A row group the writer makes holds at most this many bytes of text, and a batch read
# about this many: what a reader holds at once, whatever the corpus's size.
BATCH_BYTES = 8 * 2**20
# The largest row group (of one text column: the inputs or the answers) a reader takes,
# so the largest case: the judge holds several copies of a case it grades.
MAX_INPUT_MB = 128
TEXT_COLUMNS = ("input", "expected")
# Dictionaries only where values repeat: text is written plain, read as it is written.
_REPEATING = ["problem", "family"]


def validator_fingerprint(problem: Problem) -> str:
    """Names the validator that vouched for a corpus: gridjudge's version, the problem and
    a hash of the source file defining its `validate`. A corpus validated by another
    validator (any edit of that file, another release) is validated again at grade time."""
    try:
        version = importlib.metadata.version("gridjudge")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    digest = hashlib.sha256(problem.name.encode() + problem.fingerprint.encode())
    try:
        source = inspect.getsourcefile(problem.validate)
        digest.update(Path(source).read_bytes() if source else b"")
    except (TypeError, OSError):
        digest.update(repr(problem.validate).encode())
    return f"gridjudge {version} {problem.name} {digest.hexdigest()[:16]}"


class CorpusError(GridjudgeError):
    """A corpus cannot be read or written; the message is one line for the user."""


@dataclass
class Manifest:
    problem: str
    count: int
    families: dict[str, int]
    content_sha256: str
    schema_version: int = SCHEMA_VERSION
    source: str = ""
    # validator_fingerprint() of the problem when every input was validated as the corpus
    # was written (`gridjudge generate`); "" when nobody vouches for the inputs (imports).
    validated_with: str = ""

    def to_json(self) -> str:
        return json.dumps(self.__dict__, indent=2, sort_keys=True) + "\n"


@dataclass
class CorpusWriter:
    """Streams rows into `out_dir/part-NNNNN.parquet`; `close()` writes the manifest."""

    out_dir: Path
    problem: str
    source: str = ""
    validated_with: str = ""  # set only by a writer that validated every input it adds
    _buffer: list[dict[str, Any]] = field(default_factory=list)
    _buffer_bytes: int = 0
    _writer: pq.ParquetWriter | None = None
    _sink: BinaryIO | None = None  # the part being written, opened as pipeline.private opens
    _rows_in_file: int = 0
    _files: int = 0
    _families: Counter[str] = field(default_factory=Counter)
    _hash: Any = field(default_factory=hashlib.sha256)

    def __post_init__(self) -> None:
        self.out_dir = Path(self.out_dir)
        if self.out_dir.exists() and any(self.out_dir.iterdir()):
            raise CorpusError(f"output folder {self.out_dir} is not empty")
        private_dir(self.out_dir)

    def add(
        self,
        case_id: str,
        family: str,
        input_text: str,
        expected: str | None = None,
        seed: int | None = None,
        params: str | None = None,
    ) -> None:
        self._families[family] += 1
        _hash_case(self._hash, case_id, input_text, expected)
        self._buffer.append(
            {
                "case_id": case_id,
                "problem": self.problem,
                "family": family,
                "input": input_text,
                "expected": expected,
                "seed": seed,
                "params": params,
            }
        )
        self._buffer_bytes += len(input_text) + len(expected or "")
        if len(self._buffer) >= ROWS_PER_BATCH or self._buffer_bytes >= BATCH_BYTES:
            self._flush()

    def _flush(self) -> None:
        if not self._buffer:
            return
        batch = pa.RecordBatch.from_pylist(self._buffer, schema=CORPUS_SCHEMA)
        self._buffer.clear()
        self._buffer_bytes = 0
        if self._writer is None or self._rows_in_file >= ROWS_PER_FILE:
            self._close_part()
            path = self.out_dir / f"part-{self._files:05d}.parquet"
            self._sink = os.fdopen(open_private(path), "wb")
            self._writer = pq.ParquetWriter(
                self._sink, CORPUS_SCHEMA, compression="zstd", use_dictionary=_REPEATING
            )
            self._files += 1
            self._rows_in_file = 0
        self._writer.write_batch(batch)
        self._rows_in_file += batch.num_rows

    def _close_part(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._sink is not None:
            self._sink.close()
            self._sink = None

    def close(self) -> Manifest:
        self._flush()
        self._close_part()
        manifest = Manifest(
            problem=self.problem,
            count=sum(self._families.values()),
            families=dict(sorted(self._families.items())),
            content_sha256=self._hash.hexdigest(),
            source=self.source,
            validated_with=self.validated_with,
        )
        write_private(self.out_dir / MANIFEST, manifest.to_json())
        return manifest

    def __enter__(self) -> CorpusWriter:
        return self

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self._close_part()


def _hash_case(h: Any, case_id: str, input_text: str, expected: str | None) -> None:
    for part in (case_id, input_text, expected if expected is not None else "\x00none"):
        h.update(part.encode())
        h.update(b"\x00")


def manifest_path(corpus_dir: Path) -> Path | None:
    """The folder's manifest: `_corpus.json`, else an older corpus's `corpus.json`; None
    when the folder holds neither (it is not a corpus)."""
    for name in (MANIFEST, OLD_MANIFEST):
        path = Path(corpus_dir) / name
        if path.is_file():
            return path
    return None


def read_manifest(corpus_dir: Path) -> Manifest:
    if not Path(corpus_dir).is_dir():
        raise CorpusError(f"corpus folder {corpus_dir} does not exist")
    path = manifest_path(corpus_dir)
    if path is None:
        raise CorpusError(f"{corpus_dir} is not a corpus: no {MANIFEST}")
    try:
        data = json.loads(path.read_text())
        manifest = Manifest(**data)
    except OSError as exc:
        raise CorpusError(f"{path}: unreadable manifest ({exc.strerror})") from None
    except (json.JSONDecodeError, TypeError) as exc:
        raise CorpusError(f"{path}: unreadable manifest ({exc})") from None
    if manifest.schema_version != SCHEMA_VERSION:
        raise CorpusError(
            f"{path}: schema version {manifest.schema_version}, "
            f"this gridjudge reads {SCHEMA_VERSION}"
        )
    return manifest


def _parts(corpus_dir: Path) -> list[Path]:
    return sorted(Path(corpus_dir).glob("part-*.parquet"))


def iter_batches(
    corpus_dir: Path,
    batch_size: int = ROWS_PER_BATCH,
    columns: list[str] | None = None,
    max_input_mb: int = MAX_INPUT_MB,
) -> Iterator[pa.RecordBatch]:
    """Stream a corpus in record batches of at most `batch_size` rows and about
    BATCH_BYTES (one part file open at a time, one row group read at a time); a row
    group whose text read (inputs, answers) is over `max_input_mb` is a CorpusError
    before it is read."""
    read_manifest(corpus_dir)
    names = CORPUS_SCHEMA.names if columns is None else columns
    schema = pa.schema([CORPUS_SCHEMA.field(c) for c in names])
    text = [c for c in TEXT_COLUMNS if c in names]
    for part in _parts(corpus_dir):
        try:
            plain = pq.ParquetFile(part)
            if not plain.schema_arrow.remove_metadata().equals(CORPUS_SCHEMA.remove_metadata()):
                raise CorpusError(f"{part}: not a corpus part (schema differs)")
            encoded = None  # the text kept dictionary-encoded where it is: see _decoded
            for group, rows, dictionary in _row_groups(part, plain.metadata, columns, max_input_mb):
                if dictionary and encoded is None:
                    encoded = pq.ParquetFile(part, read_dictionary=text)
                pf = encoded if dictionary and encoded is not None else plain
                for batch in pf.iter_batches(
                    batch_size=min(batch_size, rows), row_groups=[group], columns=columns
                ):
                    yield from _decoded(batch, schema)
        except (pa.ArrowException, OSError) as exc:
            raise CorpusError(f"{part}: corrupt parquet file ({_one_line(exc)})") from None


def _row_groups(
    part: Path, meta: pq.FileMetaData, columns: list[str] | None, max_input_mb: int
) -> Iterator[tuple[int, int, bool]]:
    """Each row group of the part with the rows of it a batch of about BATCH_BYTES holds,
    from the metadata (sizes uncompressed, as encoded), and whether text read from it is
    dictionary-encoded (then read encoded and cut by its decoded size: _decoded)."""
    wanted = set(CORPUS_SCHEMA.names if columns is None else columns)
    for group in range(meta.num_row_groups):
        rg = meta.row_group(group)
        read, dictionary = 0, False
        for j in range(rg.num_columns):
            chunk = rg.column(j)
            name = chunk.path_in_schema
            size = max(chunk.total_uncompressed_size, 0)
            if name not in wanted:
                continue
            if name in TEXT_COLUMNS and size > max_input_mb * 2**20:
                raise CorpusError(
                    f"{part}: row group {group} holds {size / 2**20:.0f} MB of {name} "
                    f"({rg.num_rows} case{'' if rg.num_rows == 1 else 's'}), over the limit "
                    f"of {max_input_mb} MB "
                    "(--max-input-mb): refused before reading it; a larger case needs a "
                    "larger limit, smaller cases smaller row groups"
                )
            read += size
            dictionary |= name in TEXT_COLUMNS and any("DICT" in e for e in chunk.encodings)
        yield group, max(1, rg.num_rows * BATCH_BYTES // max(read, 1)), dictionary


def _decoded(batch: pa.RecordBatch, schema: pa.Schema) -> Iterator[pa.RecordBatch]:
    """The batch with its text decoded, in pieces of about BATCH_BYTES of text at most
    (one row at least). Dictionary-encoded text is read encoded and each row's size is
    computed from the dictionary's value lengths before anything is decoded: a parquet
    dictionary of one 1 MB value used by a thousand rows is a few KB on disk and in its
    metadata, and a gigabyte decoded. Plain text is as large as the metadata says."""
    if not any(pa.types.is_dictionary(c.type) for c in batch.columns):
        yield batch
        return
    sizes = np.zeros(batch.num_rows, dtype=np.int64)
    for column in batch.columns:
        if pa.types.is_dictionary(column.type):
            lengths = pc.binary_length(column.dictionary).take(column.indices)
            sizes += pc.fill_null(lengths, 0).to_numpy(zero_copy_only=False)
    ends = np.cumsum(sizes)
    start = 0
    while start < batch.num_rows:
        before = ends[start - 1] if start else 0
        stop = max(int(np.searchsorted(ends, before + BATCH_BYTES, side="right")), start + 1)
        piece = batch.slice(start, stop - start)
        arrays = [
            c.dictionary_decode() if pa.types.is_dictionary(c.type) else c for c in piece.columns
        ]
        yield pa.RecordBatch.from_arrays(arrays, schema=schema)
        start = stop


def check_sizes(corpus_dir: Path, max_input_mb: int = MAX_INPUT_MB) -> None:
    """Every row group's inputs and answers within `max_input_mb`, from the parts'
    metadata alone (nothing of the cases is read): a CorpusError naming the first over."""
    for part in _parts(corpus_dir):
        try:
            meta = pq.ParquetFile(part).metadata
        except (pa.ArrowException, OSError) as exc:
            raise CorpusError(f"{part}: corrupt parquet file ({_one_line(exc)})") from None
        for _ in _row_groups(part, meta, None, max_input_mb):
            pass  # each row group checked


def verify(corpus_dir: Path, max_input_mb: int = MAX_INPUT_MB) -> Manifest:
    """Read every row back and check count, families and content hash against the manifest."""
    manifest = read_manifest(corpus_dir)
    h = hashlib.sha256()
    families: Counter[str] = Counter()
    text = ["case_id", "family", "input", "expected"]
    for batch in iter_batches(corpus_dir, columns=text, max_input_mb=max_input_mb):
        ids, fams, inputs, expected = (batch.column(i).to_pylist() for i in range(4))
        families.update(fams)
        for row in zip(ids, inputs, expected, strict=True):
            _hash_case(h, *row)
    if sum(families.values()) != manifest.count or dict(families) != manifest.families:
        raise CorpusError(
            f"{corpus_dir}: {sum(families.values())} rows on disk, manifest "
            f"says {manifest.count} (families differ: parts missing or extra)"
        )
    if h.hexdigest() != manifest.content_sha256:
        raise CorpusError(
            f"{corpus_dir}: content hash differs from the manifest "
            "(the parts were changed after writing)"
        )
    return manifest


def iter_rows(corpus_dir: Path, batch_size: int = ROWS_PER_BATCH) -> Iterator[dict[str, Any]]:
    for batch in iter_batches(corpus_dir, batch_size):
        yield from batch.to_pylist()


def read_table(corpus_dir: Path) -> pa.Table:
    """The whole corpus in memory: for small corpora and tests."""
    batches = list(iter_batches(corpus_dir))
    return pa.Table.from_batches(batches, schema=CORPUS_SCHEMA)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200]
