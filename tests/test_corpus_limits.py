"""Corpora are read in bounded memory (issue 38): a 35 KB parquet can hold a 1 GB input
cell, which the judge once read whole (peak 5.4 GB, and Ray's copies on the host). A row
group whose inputs or answers are over the limit (grade's --max-input-mb, 128 MB by
default) is refused in one line from the parquet metadata, before it is read, under
every runner; the writer makes row groups bounded in bytes and the reader batches
bounded in bytes, whatever the corpus's size (bench/corpus_peak.py: the judge's peak
stays flat as a corpus grows)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.store import (
    BATCH_BYTES,
    MANIFEST,
    MAX_INPUT_MB,
    CorpusWriter,
    Manifest,
    iter_batches,
)
from pipeline.schemas import CORPUS_SCHEMA
from tests.cli_output import without_isolation_line

GRIDJUDGE = Path(sys.executable).with_name("gridjudge")
REPO = Path(__file__).resolve().parents[1]
SPOT = Path(__file__).resolve().parent / "submissions" / "spot"
RUNNERS = {
    "in-process": ["-s", "solver:spot"],
    "fork-server": ["-s", str(SPOT / "ac_rotations.py")],
    "spawn": ["-s", str(SPOT / "ac_rotations.py"), "--no-fork-server"],
    "batch": ["-s", str(SPOT / "ac_rotations.py"), "--batch", "3"],
}
MB = 2**20


def _huge_cell_corpus(out: Path | str, cell_bytes: int) -> Path:
    """A corpus of one case whose input is `cell_bytes` NUL characters, with a true
    manifest (its content hash included): a few KB on disk. The cell is made from
    zeroed memory the kernel maps lazily."""
    out = Path(out)
    out.mkdir(parents=True)
    data = pa.py_buffer(bytes(cell_bytes))
    offsets = pa.py_buffer(pa.array([0, cell_bytes], pa.int32()).buffers()[1])
    cell = pa.Array.from_buffers(pa.string(), 1, [None, offsets, data])
    table = pa.table(
        {
            "case_id": ["big/0001"], "problem": ["spot"], "family": ["big"], "input": cell,
            "expected": ["0\n"], "seed": pa.array([None], pa.int64()),
            "params": pa.array([None], pa.string()),
        },
        schema=CORPUS_SCHEMA,
    )  # fmt: skip
    pq.write_table(
        table, out / "part-00000.parquet", compression="zstd", use_dictionary=False,
        write_statistics=False,
    )  # fmt: skip
    h = hashlib.sha256()
    h.update(b"big/0001\x00")
    for start in range(0, cell_bytes, 64 * MB):
        h.update(bytes(min(64 * MB, cell_bytes - start)))
    h.update(b"\x000\n\x00")
    manifest = Manifest("spot", 1, {"big": 1}, h.hexdigest(), source="attack")
    (out / MANIFEST).write_text(manifest.to_json())
    return out


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, [*args, "--address", "local-serial"])
    return result.exit_code, result.output


def _refused(code: int, output: str, limit_mb: int) -> None:
    lines = without_isolation_line(output).strip().splitlines()
    assert code == 2 and len(lines) == 1, output
    assert lines[0].startswith("error: ") and f"over the limit of {limit_mb} MB" in lines[0]
    assert "row group 0" in lines[0] and "of input" in lines[0], output


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_cell_over_the_limit_is_refused_in_one_line(tmp_path: Path, runner: str) -> None:
    corpus = _huge_cell_corpus(tmp_path / "c", 3 * MB)
    args = [str(corpus), *RUNNERS[runner], "--out", str(tmp_path / "run")]
    _refused(*_cli("grade", *args, "--max-input-mb", "2"), 2)
    assert not (tmp_path / "run" / "run.json").exists()  # refused before the run
    code, output = _cli("grade", *args, "--max-input-mb", "4")  # a limit that fits it
    assert code == 0, output


def test_a_trusted_corpus_is_refused_as_well(tmp_path: Path) -> None:
    corpus = _huge_cell_corpus(tmp_path / "c", 3 * MB)
    args = ["--out", str(tmp_path / "run"), "--max-input-mb", "2", "--trust-corpus"]
    _refused(*_cli("grade", str(corpus), *RUNNERS["in-process"], *args), 2)


# runs a command and prints its exit code, its output and its peak RSS in KB: measured
# from a small process, since a child's peak counts the memory of the process it was
# forked from
MEASURE = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps([done.returncode, done.stdout + done.stderr, peak]))
"""


def test_a_huge_cell_in_a_tiny_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """The observed attack at the default limit (the corpus written and the judge run
    each in a process of its own, so that the judge's peak memory is its own): refused,
    the judge's peak below the cell's size."""
    cell, corpus = 4 * MAX_INPUT_MB * MB, tmp_path / "c"
    write = (
        f"from tests.test_corpus_limits import _huge_cell_corpus as w; w({str(corpus)!r}, {cell})"
    )
    subprocess.run([sys.executable, "-c", write], cwd=REPO, check=True)
    assert sum(p.stat().st_size for p in corpus.iterdir()) < MB
    argv = [str(GRIDJUDGE), "grade", str(corpus), "-s", "solver:spot",
            "--out", str(tmp_path / "run"), "--address", "local-serial"]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *argv], capture_output=True, text=True, check=True
    )
    code, output, peak_kb = json.loads(done.stdout)
    _refused(code, output, MAX_INPUT_MB)
    assert peak_kb * 1024 < cell, (peak_kb, output)


def test_the_writer_bounds_its_row_groups_and_the_reader_its_batches(tmp_path: Path) -> None:
    case = "7 " * (MB // 2)  # 1 MB of text per case
    with CorpusWriter(tmp_path / "c", "spot") as writer:
        for i in range(80):
            writer.add(f"f/{i:03d}", "f", case, "1\n")
    meta = pq.ParquetFile(tmp_path / "c" / "part-00000.parquet").metadata
    sizes = [meta.row_group(g).total_byte_size for g in range(meta.num_row_groups)]
    assert meta.num_row_groups > 1 and max(sizes) <= BATCH_BYTES + 2 * MB, sizes
    batches = list(iter_batches(tmp_path / "c", batch_size=4096))
    assert sum(b.num_rows for b in batches) == 80
    assert max(b.nbytes for b in batches) <= BATCH_BYTES + 2 * MB, [b.nbytes for b in batches]


@pytest.mark.parametrize("dictionary", [True, False], ids=["dictionary", "plain"])
def test_a_row_group_of_many_cases_is_read_in_bounded_batches(
    tmp_path: Path, dictionary: bool
) -> None:
    """A corpus written elsewhere in one large row group (under the limit) is still read
    a bounded batch at a time; dictionary-encoded, its 3000 equal inputs are 20 KB in the
    file and its metadata, and 60 MB decoded."""
    out = tmp_path / "c"
    out.mkdir()
    n, text = 3000, "5 " * 10_000  # 20 KB a case, 60 MB in one row group
    rows = {
        "case_id": [f"f/{i:05d}" for i in range(n)], "problem": ["spot"] * n,
        "family": ["f"] * n, "input": [text] * n, "expected": ["1\n"] * n,
        "seed": pa.nulls(n, pa.int64()), "params": pa.nulls(n, pa.string()),
    }  # fmt: skip
    table = pa.table(rows, schema=CORPUS_SCHEMA)
    pq.write_table(table, out / "part-00000.parquet", use_dictionary=dictionary)
    (out / MANIFEST).write_text(json.dumps(Manifest("spot", n, {"f": n}, "").__dict__))
    meta = pq.ParquetFile(out / "part-00000.parquet").metadata
    assert meta.num_row_groups == 1
    assert (meta.row_group(0).column(3).total_uncompressed_size < MB) == dictionary
    batches = list(iter_batches(out, batch_size=4096))
    assert sum(b.num_rows for b in batches) == n
    assert {b.column("input").type for b in batches} == {pa.large_string()}
    assert max(b.nbytes for b in batches) <= BATCH_BYTES + MB, [b.nbytes for b in batches]
    assert pa.Table.from_batches(batches).equals(table)
