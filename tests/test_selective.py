"""Selective grading (pipeline/grade/select.py), a run folder with an unreadable results
part (`grade --resume`, `report`), and two runs sharing one result cache at once."""

from __future__ import annotations

import marshal
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.generate import generate_corpus
from pipeline.corpus.store import iter_batches
from pipeline.grade import cache as cache_mod
from pipeline.grade import cache_key, engine
from pipeline.grade.select import SelectError, make_selection
from pipeline.jobs.config import JobSpec
from pipeline.problem.registry import get_problem
from pipeline.results import store as report
from tests.cli_output import without_isolation_line
from tests.run_summary import read_summary

REPO = Path(__file__).resolve().parents[1]
WRONG = REPO / "tests" / "submissions" / "spot" / "wa_counts_empty_board.py"


@pytest.fixture(scope="module")
def spot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("c") / "spot"
    generate_corpus(get_problem("spot"), 12, 3, out, families=["n2", "mirror", "empty_return"])
    return out


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    """(submission, case id) pairs given to a runner."""
    counts: Counter[tuple[str, str]] = Counter()
    real = engine.runner_for

    def counting(problem: Any, submission: Any, limits: Any, **kw: Any) -> Any:
        runner = real(problem, submission, limits, **kw)

        class Counting:
            limits = runner.limits

            def grade(self, cases: Any) -> Any:
                counts.update((submission.label, c) for c in cases.case_id.to_pylist())
                return runner.grade(cases)

            def close(self) -> None:
                runner.close()

        return Counting()

    monkeypatch.setattr(engine, "runner_for", counting)
    return counts


def grade(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["grade", *args, "--address", "local-serial"])
    return result.exit_code, without_isolation_line(result.output)


def pairs(run: Path, **where: str) -> set[tuple[str, str]]:
    table = report.load_results(run)
    for column, value in where.items():
        table = table.filter(pc.equal(table[column], value))
    return set(zip(table["submission"].to_pylist(), table["case_id"].to_pylist(), strict=True))


def test_only_failing_since_a_run_regrades_exactly_its_failures(
    spot: Path, tmp_path: Path, runs: Counter[tuple[str, str]]
) -> None:
    subs = ["-s", "solver:spot", "-s", str(WRONG)]
    code, output = grade(str(spot), *subs, "--out", str(tmp_path / "r1"), "--no-cache")
    assert code == 0, output
    every = pairs(tmp_path / "r1")
    failing = every - pairs(tmp_path / "r1", verdict="AC")
    assert failing and len(failing) < len(every)
    runs.clear()
    code, output = grade(
        str(spot), *subs, "--out", str(tmp_path / "r2"), "--no-cache",
        "--only", "failing", "--since", str(tmp_path / "r1"),
    )  # fmt: skip
    assert code == 0, output
    assert set(runs) == failing and sum(runs.values()) == len(failing)
    assert pairs(tmp_path / "r2") == failing


def test_family_case_and_submission_globs_select_pairs(
    spot: Path, tmp_path: Path, runs: Counter[tuple[str, str]]
) -> None:
    code, output = grade(
        str(spot), "-s", "solver:spot", "-s", "solver:spot@1", "--out", str(tmp_path / "r"),
        "--family", "n2", "--case", "*[02468]", "--only-submission", "*@1", "--no-cache",
    )  # fmt: skip
    assert code == 0, output
    got = pairs(tmp_path / "r")
    assert got and set(runs) == got
    assert all(s == "solver:spot@1" and c.startswith("n2/") and c[-1] in "02468" for s, c in got)


def test_only_new_and_changed(spot: Path, tmp_path: Path) -> None:
    program = tmp_path / "wrong.py"
    program.write_bytes(WRONG.read_bytes())
    code, _ = grade(str(spot), "-s", str(program), "--family", "n2", "--out", str(tmp_path / "a"))
    assert code == 0
    earlier = make_selection("new", tmp_path / "a")
    assert len(earlier.since) == len(pairs(tmp_path / "a"))
    code, output = grade(
        str(spot), "-s", str(program), "--out", str(tmp_path / "b"),
        "--only", "new", "--since", str(tmp_path / "a"),
    )  # fmt: skip
    assert code == 0, output
    every = {
        (str(program), c) for b in iter_batches(spot, columns=["case_id"]) for c in b[0].to_pylist()
    }
    assert pairs(tmp_path / "b") == every - pairs(tmp_path / "a")
    assert not any(c.startswith("n2/") for _, c in pairs(tmp_path / "b"))
    code, _ = grade(str(spot), "-s", str(program), "--out", str(tmp_path / "c"),
                    "--only", "changed", "--since", str(tmp_path / "a"))  # fmt: skip
    assert code == 0 and pairs(tmp_path / "c") == set()
    program.write_bytes(WRONG.read_bytes() + b"# changed\n")
    code, _ = grade(str(spot), "-s", str(program), "--out", str(tmp_path / "d"),
                    "--only", "changed", "--since", str(tmp_path / "a"))  # fmt: skip
    assert code == 0 and pairs(tmp_path / "d") == pairs(tmp_path / "a")


def test_bad_selections_are_one_line_errors(spot: Path, tmp_path: Path) -> None:
    with pytest.raises(SelectError, match="expected one of"):
        make_selection("broken", tmp_path)
    code, output = grade(str(spot), "-s", "solver:spot", "--out", str(tmp_path / "r"),
                         "--only", "failing")  # fmt: skip
    assert code == 2 and output.strip() == "error: --only and --since go together"


def test_run_configs_take_the_same_options(tmp_path: Path) -> None:
    job = JobSpec.model_validate(
        {"corpora": ["c"], "submissions": ["s"], "only": "failing", "since": "runs/x",
         "family": "n*", "cache": False}
    )  # fmt: skip
    kwargs = job.grade_kwargs()
    assert kwargs == {
        "only": "failing",
        "since": Path("runs/x"),
        "family": "n*",
        "cache": False,
    }


def _truncate_one_part(run: Path) -> tuple[Path, int]:
    """Cut the second results part in half; (the part, how many rows it held)."""
    part = sorted(report.results_dir(run).glob("part-*.parquet"))[1]
    rows = _rows_of(part)
    data = part.read_bytes()
    part.write_bytes(data[: len(data) // 2])
    return part, rows


def _rows_of(part: Path) -> int:
    return int(pq.ParquetFile(part).metadata.num_rows)


@pytest.mark.parametrize("cached", [True, False])
def test_resume_sets_an_unreadable_part_aside_and_regrades_exactly_its_pairs(
    spot: Path,
    tmp_path: Path,
    runs: Counter[tuple[str, str]],
    monkeypatch: pytest.MonkeyPatch,
    cached: bool,
) -> None:
    monkeypatch.setenv("GRIDJUDGE_RESULT_CACHE", str(tmp_path / "cache"))
    run = tmp_path / "run"
    code, _ = grade(str(spot), "-s", "solver:spot", "--out", str(run), "--chunk-size", "5")
    assert code == 0
    before = report.load_results(run)
    part, lost = _truncate_one_part(run)
    code, output = grade(str(spot), "-s", "solver:spot", "--out", str(run), "--chunk-size", "5")
    assert code == 2 and "corrupt parquet file" not in output  # --resume is needed
    runs.clear()
    resume = ["--resume"] if cached else ["--resume", "--no-cache"]
    code, output = grade(str(spot), "-s", "solver:spot", "--out", str(run), *resume)
    assert code == 0, output
    assert f"{part}: unreadable" in output and str(run / report.UNREADABLE_DIR) in output
    assert sum(runs.values()) == (0 if cached else lost)
    after = report.load_results(run)
    assert after.num_rows == before.num_rows
    assert sorted(after["case_id"].to_pylist()) == sorted(before["case_id"].to_pylist())
    assert report.read_run_json(run)["status"] == "done"


def test_report_names_an_unreadable_part_and_reports_the_rest(spot: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    code, _ = grade(str(spot), "-s", "solver:spot", "--out", str(run), "--chunk-size", "5")
    assert code == 0
    part = sorted(report.results_dir(run).glob("part-*.parquet"))[0]
    lost = _rows_of(part)
    part.write_bytes(part.read_bytes()[:100])
    result = CliRunner().invoke(app, ["report", str(run)])
    assert result.exit_code == 0, result.output
    assert f"{part.name}: unreadable" in result.output.replace("\n", "")
    summary = read_summary(run)
    assert summary.filter(pc.is_null(summary["family"]))["cases"].to_pylist() == [12 - lost]
    assert (run / "report.html").is_file()


CONCURRENT = """
import sys
from pathlib import Path
from pipeline.grade.driver import run_grade
from pipeline.grade.plan import GradeOptions, plan_grade
corpus, out, cache = map(Path, sys.argv[1:4])
options = GradeOptions(corpora=[corpus], submissions=["solver:clocks", "solver:clocks@1"],
                       out=out, address="local-serial", result_cache=cache, chunk_size=15)
print(run_grade(plan_grade(options)).rows)
"""


@pytest.mark.slow
def test_two_runs_at_once_share_the_cache_without_a_broken_entry(tmp_path: Path) -> None:
    corpus = tmp_path / "clocks"
    generate_corpus(get_problem("clocks"), 600, 5, corpus)
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CONCURRENT, str(corpus), str(tmp_path / f"r{i}"), str(cache)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for i in range(2)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert out.strip() == "1200"
    db = sqlite3.connect(cache / cache_mod.CACHE_FILE)
    entries = db.execute("SELECT key, graded_ms, row, digest FROM entries").fetchall()
    db.close()
    distinct = {
        cache_key.case_digest(i, e)
        for b in iter_batches(corpus, columns=["input", "expected"])
        for i, e in zip(b[0].to_pylist(), b[1].to_pylist(), strict=True)
    }  # a pair is known by its content: equal cases share their entries
    assert len(entries) == 2 * len(distinct)
    for key, graded_ms, row, digest in entries:
        assert cache_mod._entry_digest(key, graded_ms, row) == digest
        assert marshal.loads(row)[cache_mod.VERDICT] == "AC"
    again = subprocess.run(
        [sys.executable, "-c", CONCURRENT, str(corpus), str(tmp_path / "r3"), str(cache)],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    assert again.stdout.strip() == "1200"
    assert report.read_run_json(tmp_path / "r3")["rows_cached"] == 1200


def test_resume_grades_a_changed_submission_again_and_keeps_the_rest(
    spot: Path, tmp_path: Path, runs: Counter[tuple[str, str]]
) -> None:
    program = tmp_path / "wrong.py"
    program.write_bytes(WRONG.read_bytes())
    run = tmp_path / "run"
    subs = ["-s", "solver:spot", "-s", str(program), "--out", str(run), "--chunk-size", "5"]
    assert grade(str(spot), *subs)[0] == 0
    program.write_bytes(WRONG.read_bytes() + b"# changed\n")
    runs.clear()
    code, output = grade(str(spot), *subs, "--resume", "--no-cache")
    assert code == 0, output
    assert f"{program}: changed since the run" in output
    assert set(runs) == {(str(program), c) for _, c in pairs(run, submission="solver:spot")}
    table = report.load_results(run)
    assert table.num_rows == 24 and len(pairs(run)) == 24
    new_sha = report.read_run_json(run)["corpora"][0]["submissions"][1]["sha"]
    mine = table.filter(pc.equal(table["submission"], str(program)))
    assert set(mine["submission_sha"].to_pylist()) == {new_sha}


def test_a_cache_that_cannot_be_opened_is_a_one_line_error_before_any_work(
    spot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("GRIDJUDGE_RESULT_CACHE", str(tmp_path / "file" / "cache"))
    code, output = grade(str(spot), "-s", "solver:spot", "--out", str(tmp_path / "r"))
    lines = output.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "cannot open" in lines[0], output
    assert "--no-cache" in lines[0] and not (tmp_path / "r").exists()
    code, output = grade(str(spot), "-s", "solver:spot", "--out", str(tmp_path / "r"), "--no-cache")
    assert code == 0, output
