"""Corpora on disk: a folder of `part-NNNNN.parquet` files plus a `_corpus.json` manifest.

The manifest's leading `_` makes pyarrow and pandas skip it, so the folder is a plain
parquet dataset (`pandas.read_parquet(DIR)`, `pyarrow.dataset.dataset(DIR)`, DuckDB's
`'DIR/*.parquet'`). Corpora written before the rename hold `corpus.json` and still read.
Writing and reading stream in record batches, so memory is bounded by the batch size,
not the corpus size. Importers turn judge folders, Kattis packages and multi-case files
into the same form.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import json
import shutil
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.errors import GridjudgeError
from pipeline.package.case_files import INPUT_SUFFIX, answer_of, case_path
from pipeline.package.links import link_out_of
from pipeline.private import private_dir, private_file, write_private
from pipeline.problem.contract import InvalidInput, Problem
from pipeline.schemas import CORPUS_SCHEMA, SCHEMA_VERSION

MANIFEST = "_corpus.json"
OLD_MANIFEST = "corpus.json"  # the manifest's name in corpora written before _corpus.json
ROWS_PER_BATCH = 10_000
ROWS_PER_FILE = 200_000


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


KATTIS_GRADED = ("sample", "secret")  # a package's data/invalid_* and the rest are not cases


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
    _writer: pq.ParquetWriter | None = None
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
        if len(self._buffer) >= ROWS_PER_BATCH:
            self._flush()

    def _flush(self) -> None:
        if not self._buffer:
            return
        batch = pa.RecordBatch.from_pylist(self._buffer, schema=CORPUS_SCHEMA)
        self._buffer.clear()
        if self._writer is None or self._rows_in_file >= ROWS_PER_FILE:
            if self._writer is not None:
                self._writer.close()
            path = self.out_dir / f"part-{self._files:05d}.parquet"
            self._writer = pq.ParquetWriter(private_file(path), CORPUS_SCHEMA, compression="zstd")
            self._files += 1
            self._rows_in_file = 0
        self._writer.write_batch(batch)
        self._rows_in_file += batch.num_rows

    def close(self) -> Manifest:
        self._flush()
        if self._writer is not None:
            self._writer.close()
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
        elif self._writer is not None:
            self._writer.close()


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
    corpus_dir: Path, batch_size: int = ROWS_PER_BATCH, columns: list[str] | None = None
) -> Iterator[pa.RecordBatch]:
    """Stream a corpus in record batches (one part file open at a time)."""
    read_manifest(corpus_dir)
    for part in _parts(corpus_dir):
        try:
            pf = pq.ParquetFile(part)
            if not pf.schema_arrow.remove_metadata().equals(CORPUS_SCHEMA.remove_metadata()):
                raise CorpusError(f"{part}: not a corpus part (schema differs)")
            yield from pf.iter_batches(batch_size=batch_size, columns=columns)
        except (pa.ArrowException, OSError) as exc:
            raise CorpusError(f"{part}: corrupt parquet file ({_one_line(exc)})") from None


def verify(corpus_dir: Path) -> Manifest:
    """Read every row back and check count, families and content hash against the manifest."""
    manifest = read_manifest(corpus_dir)
    h = hashlib.sha256()
    families: Counter[str] = Counter()
    for batch in iter_batches(corpus_dir, columns=["case_id", "family", "input", "expected"]):
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


# ---------------------------------------------------------------- importers


def _judge_cases(
    root: Path, only: tuple[str, ...] = ()
) -> Iterator[tuple[str, str, Path, Path | None]]:
    """(case_id, family, .in, .ans or None) for a folder tree of NNNN.in [+ NNNN.ans]
    (in its sub-folders `only`, where given); the family is the sub-folder path
    (\"default\" for files directly in root)."""
    tops = [root / name for name in only] if only else [root]
    found = (p for t in tops for p in t.rglob(f"*{INPUT_SUFFIX}") if p.is_file())
    ins = {case_path(p): p for p in found}  # by the whole name: `1.5.in` is case `1.5`
    for ans in sorted(a for t in tops for a in t.rglob("*.ans")):
        if case_path(ans) not in ins:
            raise CorpusError(f"{ans}: answer file without a matching .in file")
    if not ins:
        raise CorpusError(f"{root}: no .in files found")
    for stem in sorted(ins):
        rel = stem.relative_to(root)
        family = rel.parent.as_posix() if rel.parent != Path(".") else "default"
        ans_path = answer_of(ins[stem])
        yield rel.as_posix(), family, ins[stem], ans_path if ans_path.is_file() else None


def import_folder(root: Path, problem: Problem, out_dir: Path) -> Manifest:
    """A judge folder tree (golden layout) or a Kattis package (its data/sample and
    data/secret). A link in the folder whose target is outside it is refused (the
    judge, root, would read any host file through it). A problem that asks for it (a
    package's) has every input validated: one it rejects is a one-line error naming the
    file, and the corpus is written as validated (grade trusts it, as it trusts a
    generated one)."""
    root = Path(root)
    if not root.is_dir():
        raise CorpusError(f"{root}: no such folder")
    escaping = link_out_of(root)
    if escaping is not None:
        raise CorpusError(escaping)
    only: tuple[str, ...] = ()
    if (root / "data").is_dir():  # Kattis problem package
        root, only = root / "data", tuple(n for n in KATTIS_GRADED if (root / "data" / n).is_dir())
    check = problem.validate_on_import
    vouch = validator_fingerprint(problem) if check else ""
    fresh = not Path(out_dir).exists()
    try:
        with CorpusWriter(out_dir, problem.name, source=str(root), validated_with=vouch) as writer:
            for case_id, family, in_path, ans_path in _judge_cases(root, only):
                text = _read_text(in_path)
                errors = problem.validate(text) if check else []
                if errors:
                    raise CorpusError(f"{in_path}: input rejected: {errors[0]}")
                writer.add(case_id, family, text, _read_text(ans_path) if ans_path else None)
    except GridjudgeError:  # a rejected input, or a validator that could not run
        if fresh:  # no half-written corpus is left behind
            shutil.rmtree(out_dir, ignore_errors=True)
        raise
    return read_manifest(out_dir)


def import_multicase(
    path: Path, problem: Problem, out_dir: Path, answers: Path | None = None
) -> Manifest:
    """One judge-format file holding several cases, cut by the problem's split_input;
    an answer file for it is cut by the problem's split."""
    path = Path(path)
    if not path.is_file():
        raise CorpusError(f"{path}: no such file")
    try:
        cases = problem.cases_of(_read_text(path))
    except InvalidInput as exc:
        raise CorpusError(f"{path}: cannot cut into cases: {exc}") from None
    expected: list[str | None] = [None] * len(cases)
    if answers is not None:
        if problem.split is None:
            raise CorpusError(
                f"problem {problem.name} holds one case per file: an answer file cannot be split"
            )
        parts = problem.split(_read_text(Path(answers)), len(cases))
        if len(parts) != len(cases):
            raise CorpusError(f"{answers}: {len(parts)} answers for {len(cases)} cases")
        expected = list(parts)
    family = path.stem
    with CorpusWriter(out_dir, problem.name, source=str(path)) as writer:
        for i, (case, ans) in enumerate(zip(cases, expected, strict=True), start=1):
            writer.add(f"{family}/{i:04d}", family, case, ans)
    return read_manifest(out_dir)


def import_path(
    path: Path, problem: Problem, out_dir: Path, answers: Path | None = None
) -> Manifest:
    path = Path(path)
    if path.is_dir():
        return import_folder(path, problem, out_dir)
    if path.is_file():
        return import_multicase(path, problem, out_dir, answers)
    raise CorpusError(f"{path}: no such file or folder")


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise CorpusError(f"{path}: {exc.strerror}") from None


def write_rows(
    out_dir: Path, problem: str, rows: Iterable[dict[str, Any]], source: str = ""
) -> Manifest:
    """Write an iterable of corpus rows (dicts with CORPUS_SCHEMA keys)."""
    with CorpusWriter(out_dir, problem, source=source) as writer:
        for row in rows:
            writer.add(
                row["case_id"],
                row["family"],
                row["input"],
                row.get("expected"),
                row.get("seed"),
                row.get("params"),
            )
    return read_manifest(out_dir)
