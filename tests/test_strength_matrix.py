"""The kill matrix read from a run folder batch by batch (`write_kill_matrix`) against the
whole-table reading it replaced: the rows `last_attempts` keeps, on random run folders
with retried chunks (a pair written again with a later attempt, or twice in one
attempt), rows of programs and cases outside the population, and not-run TLE rows."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from pipeline.grade.time_verdicts import NOT_RUN
from pipeline.results.store import load_results, write_results_part
from pipeline.results.summary import last_attempts
from pipeline.strength.matrix import KILLING, Cases, write_kill_matrix
from pipeline.strength.population import Program
from tests.result_rows import result_row

VERDICTS = ["AC", "WA", "TLE", "RE", "JE", "IE", "MLE"]


def _program(label: str) -> Program:
    return Program(label=label, kind="mutant", origin="x.c", spec=None)  # type: ignore[arg-type]


def _row(program: str, case: str, rng: random.Random, attempt: int) -> dict[str, Any]:
    verdict = rng.choice(VERDICTS)
    not_run = verdict == "TLE" and rng.random() < 0.5
    cpu = round(rng.uniform(0, 50), 3)
    return result_row(
        program, case, verdict, cpu, attempt=attempt, tle_kind=NOT_RUN if not_run else None
    )


def _run_folder(tmp: Path, seed: int) -> tuple[list[Program], Cases, pd.DataFrame]:
    rng = random.Random(seed)
    labels = [f"p{i}" for i in range(rng.randint(1, 6))]
    ids = [f"{rng.choice('ab')}/{j}" for j in range(rng.randint(1, 9))]
    run = tmp / "run"
    rows = [_row(p, c, rng, 1) for p in labels for c in ids]
    rows += [_row("stranger", ids[0], rng, 1), _row(labels[0], "gone/0", rng, 1)]
    rng.shuffle(rows)
    for at in range(0, len(rows), 5):  # parts of up to five rows, as chunks write them
        write_results_part(run, rows[at : at + 5])
    for _ in range(rng.randint(0, 3)):  # retried chunks: some pairs again
        again = rng.sample(rows, min(len(rows), rng.randint(1, 4)))
        write_results_part(
            run,
            [
                _row(r["submission"], r["case_id"], rng, r["attempt"] + rng.randint(0, 1))
                for r in again
            ],
        )
    cases = Cases(ids, [i.split("/")[0] for i in ids])
    expected = last_attempts(load_results(run)).to_pandas()
    expected = expected[expected["submission"].isin(labels) & expected["case_id"].isin(ids)]
    return [_program(label) for label in labels], cases, expected


@pytest.mark.parametrize("seed", range(20))
def test_the_streamed_matrix_holds_the_last_attempt_of_each_pair(tmp_path: Path, seed: int) -> None:
    programs, cases, expected = _run_folder(tmp_path, seed)
    matrix = write_kill_matrix(tmp_path / "run", programs, cases, tmp_path / "matrix.parquet")
    table = pq.read_table(tmp_path / "matrix.parquet").to_pandas()
    assert matrix.pairs == len(table) == len(expected) == len(programs) * len(cases.ids)
    key = ["program", "case_id"]
    got = table.sort_values(key).reset_index(drop=True)
    want = (
        expected.rename(columns={"submission": "program"}).sort_values(key).reset_index(drop=True)
    )
    assert got["verdict"].tolist() == want["verdict"].tolist()
    assert got["cpu_ms"].tolist() == want["cpu_ms"].tolist()
    ran = want["tle_kind"] != NOT_RUN
    assert got["ran"].tolist() == ran.tolist()
    killed = want["verdict"].isin(sorted(KILLING)) & ran
    assert got["killed"].tolist() == killed.tolist()
    assert got["family"].tolist() == [c.split("/")[0] for c in want["case_id"]]
    # the arrays the cover reads agree with the table
    labels = [p.label for p in programs]
    kills = np.zeros((len(labels), len(cases.ids)), dtype=bool)
    for p, c, k in zip(got["program"], got["case_id"], got["killed"], strict=True):
        kills[labels.index(p), cases.ids.index(c)] = k
    assert (matrix.kills == kills).all()
    cost = [want[want["case_id"] == c]["cpu_ms"].sum() for c in cases.ids]
    assert np.allclose(matrix.cost, cost)


def test_an_empty_run_gives_an_empty_matrix(tmp_path: Path) -> None:
    (tmp_path / "run" / "results").mkdir(parents=True)
    matrix = write_kill_matrix(
        tmp_path / "run", [_program("p")], Cases(["a/1"], ["a"]), tmp_path / "m.parquet"
    )
    assert matrix.pairs == 0 and not matrix.kills.any() and matrix.kills.shape == (1, 1)
    assert pq.read_table(tmp_path / "m.parquet").num_rows == 0
