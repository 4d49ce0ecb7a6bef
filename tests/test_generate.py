"""Deterministic generation: same seed -> same corpus, whatever the chunking or runner."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from pipeline.corpus.generate import (
    GenChunk,
    GenerateError,
    auto_chunk_size,
    case_seed,
    family_counts,
    generate_chunk,
    generate_corpus,
    serial_runner,
)
from pipeline.corpus.store import read_table, verify
from pipeline.limits import Limits
from pipeline.problem.contract import InvalidInput, Problem


def _parse(text: str) -> int:
    try:
        return int(text.split()[1])
    except (IndexError, ValueError):
        raise InvalidInput("want: family value") from None


def _validate(text: str) -> list[str]:
    try:
        _parse(text)
    except InvalidInput as exc:
        return [str(exc)]
    return []


def _gen(rng: random.Random, family: str, **_: Any) -> str:
    if family == "broken":
        return "broken\n"
    return f"{family} {rng.randrange(10**9)}\n"


FAKE = Problem(
    name="fake",
    title="Fake",
    limits=Limits.from_seconds(1.0, memory_mb=64),
    parse=_parse,
    validate=_validate,
    solvers={"1": lambda x: 2 * x},
    default_solver="1",
    format=lambda y: f"{y}\n",
    generate=_gen,
    families=["a", "b", "c", "broken"],
)


def _make(tmp: Path, name: str, count: int, seed: int, families=("a", "b", "c"), **kw: Any):
    return generate_corpus(FAKE, count, seed, tmp / name, families, **kw)


def _shuffled_runner(seed: int):
    """Chunks completing in a random order, as Ray returns them."""

    def run(chunks: list[GenChunk]) -> Iterable[tuple[GenChunk, list[dict[str, Any]]]]:
        done = [(c, generate_chunk(c, FAKE)) for c in chunks]
        random.Random(seed).shuffle(done)
        return done

    return run


def test_same_seed_same_corpus_whatever_the_chunking(tmp_path: Path) -> None:
    ref = _make(tmp_path, "ref", 50, 7, chunk_size=500)
    tables = [read_table(tmp_path / "ref")]
    for i, (size, runner) in enumerate(
        [(1, None), (3, serial_runner(FAKE)), (4, _shuffled_runner(1)), (2, _shuffled_runner(2))]
    ):
        m = _make(tmp_path, f"c{i}", 50, 7, chunk_size=size, runner=runner, window=1 + 2 * i)
        assert m.content_sha256 == ref.content_sha256
        tables.append(read_table(tmp_path / f"c{i}"))
    assert all(t.equals(tables[0]) for t in tables[1:])  # seeds and params too
    other = _make(tmp_path, "other", 50, 8)
    assert other.content_sha256 != ref.content_sha256


def test_rows_are_valid_solved_and_carry_their_seed(tmp_path: Path) -> None:
    manifest = _make(tmp_path, "c", 10, 3)
    verify(tmp_path / "c")
    assert manifest.families == {"a": 4, "b": 3, "c": 3}
    rows = read_table(tmp_path / "c").to_pylist()
    assert [r["case_id"] for r in rows[:5]] == [
        "a/0000000",
        "a/0000001",
        "a/0000002",
        "a/0000003",
        "b/0000000",
    ]
    for row in rows:
        assert FAKE.validate(row["input"]) == []
        assert row["expected"] == FAKE.solve(row["input"])
        params = json.loads(row["params"])
        assert params == {"seed": 3, "family": row["family"], "index": params["index"]}
        assert row["seed"] == case_seed(3, row["family"], params["index"])
        # a case is reproducible from its own seed alone
        assert _gen(random.Random(row["seed"]), row["family"]) == row["input"]


def test_growing_the_count_keeps_earlier_cases(tmp_path: Path) -> None:
    _make(tmp_path, "small", 6, 11)
    _make(tmp_path, "big", 12, 11)
    small = {r["case_id"]: r["input"] for r in read_table(tmp_path / "small").to_pylist()}
    big = {r["case_id"]: r["input"] for r in read_table(tmp_path / "big").to_pylist()}
    assert small.items() <= big.items()


def test_family_split() -> None:
    assert family_counts(FAKE, 10, ["c", "a"]) == {"c": 5, "a": 5}
    assert family_counts(FAKE, 5, ["b", "a", "b"]) == {"b": 3, "a": 2}
    assert family_counts(FAKE, 2, ["a", "b", "c"]) == {"a": 1, "b": 1, "c": 0}
    assert sum(family_counts(FAKE, 9).values()) == 9  # default: every family


def test_bad_requests_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(GenerateError, match=r"unknown family 'nope' of problem fake \(known"):
        _make(tmp_path, "x", 5, 1, families=("a", "nope"))
    with pytest.raises(GenerateError, match="at least 1"):
        _make(tmp_path, "y", 0, 1)
    with pytest.raises(GenerateError, match=r"invalid case broken/0000000 \(seed 1\)"):
        _make(tmp_path, "z", 2, 1, families=("broken",))


def test_auto_chunk_size() -> None:
    assert auto_chunk_size(3000, 2) == 187  # ~8 chunks per CPU
    assert auto_chunk_size(10**7, 64) == 500  # capped
    assert auto_chunk_size(20, 2) == 10  # floor
