"""Corpus I/O: round trips, importers, streaming, one-line errors."""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline.corpus.importers import import_folder, import_multicase
from pipeline.corpus.store import (
    CorpusError,
    CorpusWriter,
    iter_batches,
    read_manifest,
    read_table,
)
from pipeline.limits import Limits
from pipeline.problem.checkers import token_check
from pipeline.problem.contract import Problem
from pipeline.schemas import CORPUS_SCHEMA


def _split_games(text: str) -> list[str]:
    return [block + "\n" for block in text.split(";") if block.strip()]


# A pure toy problem: input "a b", answer a+b; files hold cases separated by ';'.
TOY = Problem(
    name="toy",
    title="Sum",
    limits=Limits.from_seconds(1.0, memory_mb=64),
    parse=lambda t: [tuple(map(int, c.split())) for c in _split_games(t)],
    validate=lambda t: [],
    solvers={"1": lambda cases: [a + b for a, b in cases]},
    default_solver="1",
    format=lambda out: "".join(f"{x}\n" for x in out),
    generate=lambda rng, family: f"{rng.randint(0, 9)} {rng.randint(0, 9)}\n",
    families=["random"],
    check=token_check,
    multi_case=100,
    join=lambda cases: ";".join(cases),
    split=lambda out, n: [line + "\n" for line in out.splitlines()],
    split_input=_split_games,
)


def _judge_tree(root: Path) -> dict[str, tuple[str, str | None]]:
    files = {
        "easy/0001": ("1 2\n", "3\n"),
        "easy/0002": ("2 2\n", None),
        "hard/deep/0001": ("5 5\n", "10\n"),
    }
    for case_id, (inp, ans) in files.items():
        path = root / case_id
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".in").write_text(inp)
        if ans is not None:
            path.with_suffix(".ans").write_text(ans)
    return files


def test_judge_folder_round_trip(tmp_path: Path) -> None:
    files = _judge_tree(tmp_path / "src")
    manifest = import_folder(tmp_path / "src", TOY, tmp_path / "c")
    assert manifest.count == 3
    assert manifest.families == {"easy": 2, "hard/deep": 1}
    rows = read_table(tmp_path / "c").to_pylist()
    got = {r["case_id"]: (r["input"], r["expected"], r["family"]) for r in rows}
    assert got == {k: (v[0], v[1], k.rsplit("/", 1)[0]) for k, v in files.items()}


def test_kattis_package(tmp_path: Path) -> None:
    for part in ("sample", "secret/group1"):
        d = tmp_path / "pkg" / "data" / part
        d.mkdir(parents=True)
        (d / "1.in").write_text("1 1\n")
        (d / "1.ans").write_text("2\n")
    manifest = import_folder(tmp_path / "pkg", TOY, tmp_path / "c")
    assert manifest.families == {"sample": 1, "secret/group1": 1}


def test_multicase_file_with_answers(tmp_path: Path) -> None:
    (tmp_path / "all.in").write_text("1 2;3 4;5 6")
    (tmp_path / "all.ans").write_text("3\n7\n11\n")
    manifest = import_multicase(tmp_path / "all.in", TOY, tmp_path / "c", tmp_path / "all.ans")
    rows = read_table(tmp_path / "c").to_pylist()
    assert manifest.count == 3
    assert [r["expected"] for r in rows] == ["3\n", "7\n", "11\n"]
    assert [TOY.solve(r["input"]) for r in rows] == ["3\n", "7\n", "11\n"]


def test_multicase_answer_count_mismatch(tmp_path: Path) -> None:
    (tmp_path / "all.in").write_text("1 2;3 4")
    (tmp_path / "all.ans").write_text("3\n")
    with pytest.raises(CorpusError, match="1 answers for 2 cases"):
        import_multicase(tmp_path / "all.in", TOY, tmp_path / "c", tmp_path / "all.ans")


def test_answer_without_input_is_an_error(tmp_path: Path) -> None:
    _judge_tree(tmp_path / "src")
    (tmp_path / "src" / "easy" / "0009.ans").write_text("1\n")
    with pytest.raises(CorpusError, match=r"0009\.ans: answer file without a matching \.in"):
        import_folder(tmp_path / "src", TOY, tmp_path / "c")


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="no such folder"):
        import_folder(tmp_path / "nope", TOY, tmp_path / "c")


def test_corrupt_part_is_one_line_error(tmp_path: Path) -> None:
    _judge_tree(tmp_path / "src")
    import_folder(tmp_path / "src", TOY, tmp_path / "c")
    part = next((tmp_path / "c").glob("part-*.parquet"))
    part.write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(CorpusError, match="corrupt parquet file") as info:
        read_table(tmp_path / "c")
    assert "\n" not in str(info.value)


def test_not_a_corpus(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match=r"no _corpus\.json"):
        read_manifest(tmp_path)


def test_writer_refuses_non_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("")
    with pytest.raises(CorpusError, match="not empty"):
        CorpusWriter(tmp_path, "toy")


def test_streaming_batches_and_hash(tmp_path: Path) -> None:
    rng = random.Random(1)
    with CorpusWriter(tmp_path / "a", "toy") as w:
        for i in range(25_000):
            w.add(f"r/{i:06d}", "r", TOY.generate(rng, "random"), None, seed=i)
    batches = list(iter_batches(tmp_path / "a", batch_size=1000))
    assert all(b.num_rows <= 1000 for b in batches)
    assert sum(b.num_rows for b in batches) == 25_000
    assert batches[0].schema.remove_metadata().equals(CORPUS_SCHEMA.remove_metadata())
    # The content hash depends on content only: a second identical corpus hashes the same.
    rng = random.Random(1)
    with CorpusWriter(tmp_path / "b", "toy") as w:
        for i in range(25_000):
            w.add(f"r/{i:06d}", "r", TOY.generate(rng, "random"), None, seed=i)
    assert (
        read_manifest(tmp_path / "a").content_sha256 == read_manifest(tmp_path / "b").content_sha256
    )
    table = read_table(tmp_path / "a")
    assert isinstance(table, pa.Table)
    assert table.column("seed").to_pylist()[:3] == [0, 1, 2]


def test_verify_detects_changed_parts(tmp_path: Path) -> None:
    from pipeline.corpus.store import verify

    _judge_tree(tmp_path / "src")
    import_folder(tmp_path / "src", TOY, tmp_path / "c")
    assert verify(tmp_path / "c").count == 3
    rows = read_table(tmp_path / "c").to_pylist()
    rows[0]["input"] = "9 9\n"
    part = next((tmp_path / "c").glob("part-*.parquet"))
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows, schema=CORPUS_SCHEMA), part)
    with pytest.raises(CorpusError, match="content hash differs"):
        verify(tmp_path / "c")
