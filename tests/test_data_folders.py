"""A corpus folder and a run's results/ folder are plain parquet datasets: pandas,
pyarrow.dataset and DuckDB read them as they are, with every row and the schema's
columns; a part staged and not committed is not read. Corpora whose manifest is the
older `corpus.json` still read, grade and count as existing corpora."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.dataset as ds
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.store import MANIFEST, OLD_MANIFEST, read_manifest, read_table, verify
from pipeline.distribute.cluster import Cluster
from pipeline.jobs.config import CorpusSpec
from pipeline.jobs.config_job import ensure_corpus
from pipeline.results import store as report
from pipeline.schemas import CORPUS_SCHEMA, RESULTS_SCHEMA
from tests.run_summary import read_summary

COUNT = 30


def _cli(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--address", "local-serial"])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("data") / "corpus"
    _cli("generate", "spot", "--count", str(COUNT), "--seed", "4", "--out", str(out))
    return out


@pytest.fixture(scope="module")
def run_dir(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("data") / "run"
    _cli("grade", str(corpus), "-s", "solver:spot", "-s", "solver:spot@1", "--out", str(out))
    # as a killed run or one still going leaves it: a part staged, never committed
    staged = report.stage_results_part(out, report.load_results(out))
    assert staged is not None and staged.parent == report.results_dir(out)
    return out


# Each reader: folder -> (column names, rows as dicts), as a user would call it.
def _pandas(folder: Path) -> tuple[list[str], list[dict[str, object]]]:
    frame = pd.read_parquet(folder)
    return list(frame.columns), frame.to_dict("records")


def _pyarrow(folder: Path) -> tuple[list[str], list[dict[str, object]]]:
    table = ds.dataset(folder).to_table()
    return table.column_names, table.to_pylist()


def _duckdb(folder: Path) -> tuple[list[str], list[dict[str, object]]]:
    with duckdb.connect() as con:
        relation = con.sql(f"SELECT * FROM '{folder}/*.parquet'")
        names = list(relation.columns)
        return names, [dict(zip(names, row, strict=True)) for row in relation.fetchall()]


READERS: dict[str, Callable[[Path], tuple[list[str], list[dict[str, object]]]]] = {
    "pandas": _pandas,
    "pyarrow.dataset": _pyarrow,
    "duckdb": _duckdb,
}


def _keyed(rows: list[dict[str, object]], keys: list[str]) -> list[tuple[object, ...]]:
    return sorted(tuple(row[k] for k in keys) for row in rows)


@pytest.mark.parametrize("reader", READERS)
def test_a_generated_corpus_folder_reads_as_a_parquet_dataset(corpus: Path, reader: str) -> None:
    assert (corpus / MANIFEST).is_file() and not (corpus / OLD_MANIFEST).exists()
    names, rows = READERS[reader](corpus)
    assert names == CORPUS_SCHEMA.names
    keys = ["case_id", "family", "input", "expected"]
    want = _keyed(read_table(corpus).to_pylist(), keys)
    assert len(want) == COUNT and len({row[0] for row in want}) == COUNT
    assert _keyed(rows, keys) == want


@pytest.mark.parametrize("reader", READERS)
def test_a_results_folder_reads_as_a_parquet_dataset_without_staged_parts(
    run_dir: Path, reader: str
) -> None:
    names, rows = READERS[reader](report.results_dir(run_dir))
    assert names == RESULTS_SCHEMA.names
    keys = ["submission", "case_id", "verdict"]
    want = _keyed(report.load_results(run_dir).to_pylist(), keys)
    assert len(want) == 2 * COUNT and {row[2] for row in want} == {"AC"}
    assert _keyed(rows, keys) == want


def test_the_run_folder_with_a_staged_part_still_resumes_and_reports(run_dir: Path) -> None:
    assert report.read_run_json(run_dir)["status"] == "done"
    assert len(report.done_keys(run_dir)) == 2 * COUNT
    output = CliRunner().invoke(app, ["report", str(run_dir)])
    assert output.exit_code == 0, output.output
    assert read_summary(run_dir).column("cases").to_pylist()[0] == COUNT


@pytest.fixture
def old_corpus(corpus: Path, tmp_path: Path) -> Path:
    """A corpus as gridjudge wrote it before the manifest became `_corpus.json`."""
    old = tmp_path / "old"
    old.mkdir()
    for part in corpus.glob("part-*.parquet"):
        (old / part.name).write_bytes(part.read_bytes())
    (old / OLD_MANIFEST).write_text((corpus / MANIFEST).read_text())
    return old


def test_a_corpus_with_the_older_manifest_name_still_reads_and_grades(
    old_corpus: Path, tmp_path: Path
) -> None:
    manifest = verify(old_corpus)
    assert manifest == read_manifest(old_corpus) and manifest.count == COUNT
    output = _cli("grade", str(old_corpus), "-s", "solver:spot", "--out", str(tmp_path / "r"))
    assert f"graded {COUNT} pairs" in output
    spec = CorpusSpec(path=old_corpus)
    _, done = ensure_corpus("old", spec, old_corpus, Cluster("local-serial"))
    assert done == f"corpus old: {COUNT} spot cases (existing)"
