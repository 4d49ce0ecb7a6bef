"""Fair time verdicts with real sandboxed programs: a TLE killed by the wall clock under
the CPU limit is run again alone and, still wall-killed, marked `tle_kind` "wall"; with
--max-tle a submission stops after that many TLEs, its other cases marked not run."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.generate import generate_corpus
from pipeline.grade.cases import Cases
from pipeline.grade.rows import GRADED_SCHEMA
from pipeline.grade.runners import Graded
from pipeline.grade.time_verdicts import confirm_wall_tles
from pipeline.problem.registry import get_problem
from pipeline.results import store as report
from pipeline.scoring.gradebook import GRADEBOOK_PARQUET


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("c") / "spot"
    generate_corpus(get_problem("spot"), 10, 3, out, families=["n2"])
    return out


def invoke(corpus: Path, program: Path, out: Path, *args: str) -> str:
    """`grade` at 80 columns (as COLUMNS=80 on a terminal); its output."""
    argv = ["grade", str(corpus), "-s", f"py3:{program}", "--out", str(out)]
    argv += ["--address", "local-serial", "--no-cache", "--time-limit", "0.2", *args]
    result = CliRunner().invoke(app, argv, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


def grade(corpus: Path, program: Path, out: Path, *args: str) -> list[dict]:
    invoke(corpus, program, out, *args)
    return sorted(report.load_results(out).to_pylist(), key=lambda r: r["case_id"])


def test_a_sleeping_program_is_a_wall_tle_marked_as_such(corpus: Path, tmp_path: Path) -> None:
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import time\ntime.sleep(60)\n")
    output = invoke(corpus, sleeper, tmp_path / "run", "--case", "*1")  # one case: id ends in 1
    rows = report.load_results(tmp_path / "run").to_pylist()
    assert rows and {r["verdict"] for r in rows} == {"TLE"}
    assert {r["tle_kind"] for r in rows} == {"wall"}
    assert all(r["cpu_ms"] <= 200 for r in rows)
    assert all("again when run alone" in r["checker_msg"] for r in rows)
    book = pq.read_table(tmp_path / "run" / GRADEBOOK_PARQUET).to_pylist()
    assert book[0]["n_TLE_wall"] == len(rows) and book[0]["n_not_run"] == 0
    assert "TLE wall / not run" in (tmp_path / "run" / "report.html").read_text()
    # the terminal summary marks it too, within 80 columns: the TLE and TLE-wall counts
    header = next(line for line in output.splitlines() if "TLE wall" in line)
    assert "not run" not in header  # a mark no row has gets no column
    mine = next(line for line in output.splitlines() if "│ spot " in line)  # the row's 1st line
    cells = [c.strip() for c in mine.split("│")]
    heads = [c.strip() for c in header.split("┃")]
    assert cells[heads.index("TLE")] == cells[heads.index("TLE wall")] == str(len(rows))
    assert max(len(line) for line in output.splitlines() if line[:1] in "┏┃┡│└") <= 80


def test_max_tle_stops_an_infinite_loop_after_n_tles(corpus: Path, tmp_path: Path) -> None:
    loop = tmp_path / "loop.py"
    loop.write_text("while True:\n    pass\n")
    rows = grade(corpus, loop, tmp_path / "run", "--max-tle", "2")
    assert len(rows) == 10 and {r["verdict"] for r in rows} == {"TLE"}
    kinds = [r["tle_kind"] for r in rows]
    assert kinds.count("cpu") == 2 and kinds.count("not-run") == 8
    assert all(r["cpu_ms"] is None for r in rows if r["tle_kind"] == "not-run")
    assert all(r["cpu_ms"] > 200 for r in rows if r["tle_kind"] == "cpu")
    book = pq.read_table(tmp_path / "run" / GRADEBOOK_PARQUET).to_pylist()
    assert book[0]["n_not_run"] == 8 and book[0]["n_TLE"] == 10
    assert report.read_run_json(tmp_path / "run")["max_tle"] == 2


def test_an_infinite_loop_is_a_cpu_tle_not_rerun(corpus: Path, tmp_path: Path) -> None:
    loop = tmp_path / "loop.py"
    loop.write_text("while True:\n    pass\n")
    rows = grade(corpus, loop, tmp_path / "run", "--case", "*2")
    assert rows and {r["tle_kind"] for r in rows} == {"cpu"}
    assert not any("again" in (r["checker_msg"] or "") for r in rows)


class _Twice:
    """A runner whose first run of a case is wall-killed under the CPU limit and whose
    rerun passes (pure code: the rule, not the sandbox)."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def grade(self, cases: Cases) -> Graded:
        self.calls.append(len(cases))
        first = len(self.calls) == 1
        rows = [
            {"verdict": "TLE" if first else "AC", "cpu_ms": 5.0, "wall_ms": 1400.0, "batch_size": 1}
            for _ in range(len(cases))
        ]
        return Graded(pa.Table.from_pylist(rows, schema=GRADED_SCHEMA))

    def close(self) -> None:
        pass


def test_a_wall_tle_that_passes_alone_counts_as_its_rerun() -> None:
    cases = Cases.of([{"case_id": "a", "input": "x"}, {"case_id": "b", "input": "y"}])
    runner = _Twice()
    got = confirm_wall_tles(runner, cases, runner.grade(cases), cpu_limit_ms=200.0)
    assert runner.calls == [2, 2]
    assert got.table.column("verdict").to_pylist() == ["AC", "AC"]
    assert got.table.column("tle_kind").to_pylist() == [None, None]
