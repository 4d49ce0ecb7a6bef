"""Run configs: validation with one-line errors naming the field, and `gridjudge run`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import yaml
from pydantic import BaseModel
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.jobs.config import ConfigError, load_config
from pipeline.results.store import load_results, read_run_json

REPO = Path(__file__).resolve().parents[1]

GOOD = """
out: out
address: local-serial
corpora:
  clocks: {generate: {problem: clocks, count: 30, seed: 3}}
  gomoku: {generate: {problem: gomoku, count: 20, seed: 3}}
jobs:
  clocks:
    corpora: [clocks]
    submissions: ["solver:clocks@2", "solver:clocks@1"]
    repeat: 2
  gomoku:
    corpora: [gomoku]
    submissions: ["solver:gomoku"]
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "job.yaml"
    path.write_text(text)
    return path


def test_paths_are_relative_to_the_config(tmp_path: Path) -> None:
    cfg = load_config(_write(tmp_path, GOOD))
    assert cfg.out == tmp_path / "out"
    assert cfg.corpus_path("clocks") == tmp_path / "out" / "corpora" / "clocks"
    assert cfg.jobs["clocks"].grade_kwargs() == {"repeat": 2}
    assert cfg.jobs["gomoku"].grade_kwargs() == {}  # unset: the library's defaults


def test_a_job_may_turn_the_fork_server_off(tmp_path: Path) -> None:
    text = GOOD.replace("    repeat: 2\n", "    repeat: 2\n    fork_server: false\n")
    cfg = load_config(_write(tmp_path, text))
    assert cfg.jobs["clocks"].grade_kwargs() == {"repeat": 2, "fork_server": False}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            GOOD.replace("repeat: 2", "repeats: 2"),
            "jobs.clocks: unknown setting `repeats` - did you mean `repeat`?",
        ),
        (GOOD.replace("repeat: 2", "repeat: 0"), "jobs.clocks.repeat: Input should be"),
        (
            GOOD.replace("repeat: 2", "time_limit: 1e9"),
            "jobs.clocks.time_limit: Input should be less than or equal to 3600",
        ),
        (GOOD.replace("corpora: [gomoku]", "corpora: [gomokuu]"), "unknown corpus 'gomokuu'"),
        (GOOD.replace("count: 30", "count: many"), "corpora.clocks.generate.count"),
        ("out: [1, 2", "not valid YAML"),
        ("- a list", "expected a mapping"),
    ],
)
def test_bad_configs_name_the_field(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[")) as info:
        load_config(_write(tmp_path, text))
    assert "\n" not in str(info.value)


def _paths_in(value: Any) -> Iterator[Path]:
    """Every Path a loaded config holds, however deep."""
    if isinstance(value, Path):
        yield value
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _paths_in(getattr(value, name))
    elif isinstance(value, dict):
        for item in value.values():
            yield from _paths_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _paths_in(item)


def test_misspelled_keys_are_named_with_the_nearest_known_key(tmp_path: Path) -> None:
    text = GOOD.replace('submissions: ["solver:gomoku"]', 'submision: ["solver:gomoku"]')
    text = text.replace("repeat: 2", "repeat: 2\n    time_limt: 2").replace("out: out", "ot: out")
    with pytest.raises(ConfigError) as info:
        load_config(_write(tmp_path, text))
    message = str(info.value)
    assert "\n" not in message
    assert "unknown setting `ot` - did you mean `out`?" in message
    assert "jobs.clocks: unknown setting `time_limt` - did you mean `time_limit`?" in message
    assert "jobs.gomoku: unknown setting `submision` - did you mean `submissions`?" in message
    assert "Field required" not in message and "more" not in message  # their consequence


def test_an_unknown_key_far_from_any_lists_the_known_ones(tmp_path: Path) -> None:
    text = GOOD.replace("repeat: 2", "repeat: 2\n    colour: blue")
    with pytest.raises(ConfigError, match=r"jobs.clocks: unknown setting `colour` \(known: "):
        load_config(_write(tmp_path, text))


def test_shipped_example_config_validates() -> None:
    """The examples the docs point at load as written, and every file of the checkout
    they name (submission sets, policies) is there, found relative to the config."""
    shipped = sorted((REPO / "configs").glob("*.yaml"))
    assert shipped, "no example config in configs/"
    for path in shipped:
        written = yaml.safe_load(path.read_text(encoding="utf-8"))
        cfg = load_config(path)
        assert set(cfg.jobs) == set(written["jobs"]) and set(cfg.corpora) == set(written["corpora"])
        named = [p.resolve() for p in _paths_in(cfg)]  # relative ones were made absolute
        out = cfg.out.resolve()  # made by run
        inputs = [p for p in named if p.is_relative_to(REPO) and not p.is_relative_to(out)]
        assert inputs, f"{path.name} names no file of the checkout"
        assert [p for p in inputs if not p.exists()] == []


def test_run_config_end_to_end_and_resume(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == 0, result.output
    clocks = tmp_path / "out" / "runs" / "clocks"
    rows = load_results(clocks).to_pylist()
    assert len(rows) == 60 and {r["verdict"] for r in rows} == {"AC"}
    assert all(len(r["cpu_ms_runs"]) == 2 for r in rows)
    assert (clocks / "report.html").is_file()
    assert read_run_json(clocks)["status"] == "done"
    assert len(load_results(tmp_path / "out" / "runs" / "gomoku")) == 20
    # The same config again: corpora reused, every pair already done.
    again = CliRunner().invoke(app, ["run", str(path)])
    assert again.exit_code == 0, again.output
    assert "(existing)" in again.output
    assert "0 new results, 0 from the result cache, 60 already done" in again.output
    assert len(load_results(clocks)) == 60


def test_run_counts_rows_from_the_result_cache_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second run into another folder grades nothing: its rows come from the cache,
    and it says so instead of calling them new."""
    monkeypatch.setenv("GRIDJUDGE_RESULT_CACHE", str(tmp_path / "result-cache"))
    first = CliRunner().invoke(app, ["run", str(_write(tmp_path, GOOD))])
    assert first.exit_code == 0, first.output
    assert "job clocks: 60 new results, 0 from the result cache, 0 already done" in first.output
    other = tmp_path / "other"
    other.mkdir()
    second = CliRunner().invoke(app, ["run", str(_write(other, GOOD))])
    assert second.exit_code == 0, second.output
    assert "job clocks: 0 new results, 60 from the result cache, 0 already done" in second.output


def test_run_with_a_bad_config_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", str(tmp_path / "missing.yaml")])
    assert result.exit_code == 2
    assert result.output.strip().startswith("error: ")
    assert len(result.output.strip().splitlines()) == 1


COMPARED = """
out: out
address: local-serial
corpora:
  spot: {generate: {problem: spot, count: 24, seed: 5, families: [empty_return, n2]}}
jobs:
  versions:
    corpora: [spot]
    submissions: ["solver:spot@2", "solver:spot@seed-reading"]
    compare: {a: "solver:spot@2", b: "solver:spot@seed-reading", fail_on: FAIL_ON,
              junit: junit.xml}
"""


@pytest.mark.parametrize(("fail_on", "code"), [("regression", 1), ("never", 0)])
def test_run_config_compare_gate(tmp_path: Path, fail_on: str, code: int) -> None:
    path = _write(tmp_path, COMPARED.replace("FAIL_ON", fail_on))
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == code, result.output
    assert "compare solver:spot@2 -> solver:spot@seed-reading: regression" in result.output
    assert (tmp_path / "out" / "runs" / "versions" / "compare" / "compare.parquet").is_file()
    assert "<failure" in (tmp_path / "junit.xml").read_text()


def test_compare_must_name_job_submissions(tmp_path: Path) -> None:
    text = COMPARED.replace("FAIL_ON", "never").replace(
        'b: "solver:spot@seed-reading"', 'b: "solver:spot@1"'
    )
    with pytest.raises(ConfigError, match="not one of its submissions"):
        load_config(_write(tmp_path, text))


CLASS = """
out: out
address: local-serial
corpora:
  clocks: {generate: {problem: clocks, count: 24, seed: 2, families: [all12, random, one_move]}}
jobs:
  class:
    corpora: [clocks]
    submissions:
      - "solver:clocks"
      - {dir: subs}
      - {list: class.csv}
    scoring:
      groups:
        - {name: corner, families: [all12], points: 20, aggregate: all}
        - {name: rest, families: ["*"], points: 80, aggregate: {threshold: 3}}
"""


def test_run_config_grades_submission_sets_under_its_scoring(tmp_path: Path) -> None:
    (tmp_path / "subs").mkdir()
    ac = (REPO / "tests" / "submissions" / "clocks" / "ac_search.py").read_text()
    (tmp_path / "subs" / "s10.py").write_text(ac)
    (tmp_path / "subs" / "s2.py").write_text("print(1)\n")
    (tmp_path / "class.csv").write_text("id,path\ns1,subs/s10.py\n")
    result = CliRunner().invoke(app, ["run", str(_write(tmp_path, CLASS))])
    assert result.exit_code == 0, result.output
    run = tmp_path / "out" / "runs" / "class"
    book = pq.read_table(run / "gradebook.parquet").to_pylist()
    assert [r["submission"] for r in book] == ["s1", "s2", "s10", "solver:clocks"]
    assert [r["score"] for r in book] == [100, 0, 100, 100]
    assert {r["max_score"] for r in book} == {100} and "points_corner" in book[0]
    assert (run / "report.html").is_file() and (run / "feedback" / "s2.md").is_file()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "aggregate: all}",
            "aggregate: all, bonus: 1}",
            "jobs.class.scoring: groups.0: unknown setting `bonus`",
        ),
        ("{list: class.csv}", "{lst: class.csv}", "submissions"),
        ("{list: class.csv}", "{list: class.csv, dir: subs}", "either {dir: FOLDER}"),
    ],
)
def test_bad_class_configs_name_the_field(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)) as info:
        load_config(_write(tmp_path, CLASS.replace(old, new)))
    assert "\n" not in str(info.value)
