"""`gridjudge grade` without Ray (address local-serial): errors are one line before any
work starts; a serial run writes the run folder; --resume and run-folder rules;
distribute's serial executor."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.generate import generate_corpus
from pipeline.distribute.cluster import ChunkFailed, Cluster
from pipeline.problem.registry import get_problem
from pipeline.results import store as report
from tests.cli_output import without_isolation_line
from tests.fork_server_probe import require_fork_server
from tests.run_summary import read_summary

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("c") / "spot"
    generate_corpus(get_problem("spot"), 12, 3, out, families=["n2", "mirror"])
    return out


def grade(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["grade", *args, "--address", "local-serial"])
    return result.exit_code, without_isolation_line(result.output)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{missing}", "-s", "solver:spot"], "does not exist"),
        (["{corpus}", "-s", "nonexistent.cpp"], "no such file"),
        (["{corpus}", "-s", "cobol:x.cbl"], "unknown language"),
        (["{corpus}", "-s", "solver:spot@9"], "has no solver"),
        (["{corpus}", "-s", "solver:gomoku"], "no corpus of problem 'gomoku'"),
        (["{corpus}", "-s", "solver:spot", "-s", "solver:spot"], "given twice"),
        (["{corpus}", "-s", "solver:spot", "--batch", "0"], "at least 1"),
        (["{corpus}", "-s", "solver:spot", "--time-limit", "-1"], "must be positive"),
        (
            ["{corpus}", "-s", "solver:spot", "--time-limit", "1e9"],
            "--time-limit must lie in 0.01-3600 s, not 1000000000",
        ),
        (
            ["{corpus}", "-s", "solver:spot", "--memory-limit", "99999999"],
            "--memory-limit must lie in 4-1048576 MB, not 99999999",
        ),
        (["{corpus}", "{corpus}", "-s", "solver:spot"], "appears twice in the corpora"),
    ],
)
def test_bad_input_fails_with_one_line_before_any_work(
    corpus: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "run"
    argv = [a.format(corpus=corpus, missing=tmp_path / "nope") for a in args]
    code, output = grade(*argv, "--out", str(out))
    assert code == 2, output
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], output
    assert not out.exists()


def test_a_folder_that_is_not_a_corpus_is_refused(tmp_path: Path) -> None:
    (tmp_path / "junk").mkdir()
    code, output = grade(str(tmp_path / "junk"), "-s", "solver:spot", "--out", str(tmp_path / "r"))
    assert code == 2 and "is not a corpus" in output


def test_serial_grade_writes_run_folder_and_resume_does_nothing_twice(
    corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    code, output = grade(str(corpus), "-s", "solver:spot", "-s", "solver:spot@1", "--out", str(out))
    assert code == 0, output
    assert "graded 24 pairs" in output
    info = report.read_run_json(out)
    assert info["status"] == "done" and info["verdicts"] == {"AC": 24}
    assert read_summary(out).num_rows > 0
    parts = sorted(report.results_dir(out).glob("part-*.parquet"))

    code, output = grade(str(corpus), "-s", "solver:spot", "--out", str(out))
    assert code == 2 and "already holds a run" in output

    code, output = grade(
        str(corpus), "-s", "solver:spot", "-s", "solver:spot@1", "--out", str(out), "--resume"
    )
    assert code == 0, output
    assert f"nothing left to grade: all 24 pairs were already in {out}" in output
    assert sorted(report.results_dir(out).glob("part-*.parquet")) == parts

    code, output = grade(
        str(corpus), "-s", "solver:spot", "--out", str(out), "--resume", "--repeat", "2"
    )
    assert code == 2 and "repeat=1, not 2" in output


def test_resume_grades_only_a_new_submission(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert grade(str(corpus), "-s", "solver:spot", "--out", str(out))[0] == 0
    code, output = grade(
        str(corpus), "-s", "solver:spot", "-s", "solver:spot@1", "--out", str(out), "--resume"
    )
    assert code == 0 and f"graded 12 pairs, 12 resumed, into {out} on serial" in output
    rows = report.load_results(out, columns=["submission"]).column(0).to_pylist()
    assert sorted(set(rows)) == ["solver:spot", "solver:spot@1"] and len(rows) == 24


def test_batched_cpp_submission_serially(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = grade(
        str(corpus), "-s", f"cpp17:{BENCH / 'spot.cpp'}", "--out", str(out), "--batch", "5"
    )
    assert code == 0, output
    rows = report.load_results(out, columns=["verdict", "batch_size"]).to_pylist()
    assert [r["verdict"] for r in rows] == ["AC"] * 12
    assert max(r["batch_size"] for r in rows) == 5


def _boom(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x * 10


def test_serial_cluster_runs_the_same_chunk_function_in_order() -> None:
    with Cluster("local-serial") as cluster:
        assert cluster.describe() == "serial (in-process)"
        assert list(cluster.map_unordered(_boom, [1, 2])) == [(1, 10), (2, 20)]
        with pytest.raises(ChunkFailed, match="ValueError: three"):
            list(cluster.map_unordered(_boom, [1, 3]))


def test_repeat_keeps_every_timing_per_row(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    subs = ["-s", "solver:spot", "-s", f"cpp17:{BENCH / 'spot.cpp'}"]
    code, output = grade(str(corpus), *subs, "--out", str(out), "--repeat", "3")
    assert code == 0, output
    rows = report.load_results(out).to_pylist()
    assert len(rows) == 24 and {r["verdict"] for r in rows} == {"AC"}
    for r in rows:
        assert len(r["cpu_ms_runs"]) == 3 and len(r["wall_ms_runs"]) == 3
        assert r["cpu_ms"] == sorted(r["cpu_ms_runs"])[1]  # the median of the three
    assert report.read_run_json(out)["repeat"] == 3


def test_an_unreachable_cluster_address_fails_fast_with_one_line(
    corpus: Path, tmp_path: Path
) -> None:
    result = CliRunner().invoke(
        app,
        [
            "grade",
            str(corpus),
            "-s",
            "solver:spot",
            "--out",
            str(tmp_path / "r"),
            "--address",
            "127.0.0.1:1",
        ],
    )
    assert result.exit_code == 2
    last = result.output.strip().splitlines()[-1]  # (after the progress bar's line)
    assert last.startswith("error: cannot reach a Ray cluster at 127.0.0.1:1")
    assert report.read_run_json(tmp_path / "r")["status"] == "failed"


@pytest.mark.parametrize(
    ("flag", "runner"), [("--fork-server", "fork-server"), ("--no-fork-server", "spawn")]
)
def test_the_fork_server_flag_chooses_how_cases_run(
    corpus: Path, tmp_path: Path, flag: str, runner: str
) -> None:
    if flag == "--fork-server":
        require_fork_server()
    out = tmp_path / "run"
    code, output = grade(str(corpus), "-s", f"cpp17:{BENCH / 'spot.cpp'}", "--out", str(out), flag)
    assert code == 0, output
    rows = report.load_results(out, columns=["verdict", "runner"]).to_pylist()
    assert {(r["verdict"], r["runner"]) for r in rows} == {("AC", runner)}
