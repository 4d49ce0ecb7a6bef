"""grade (and run, stress, verify) say in one line before any work when a submission
would get less than full isolation here, and run.json records the level a run had."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.program.isolation import isolation_level, probe


def _grade(tmp_path: Path, name: str) -> tuple[str, dict]:
    runner = CliRunner()
    corpus = tmp_path / "corpus"
    if not corpus.exists():
        made = runner.invoke(app, ["generate", "clocks", "--count", "2", "--out", str(corpus),
                                   "--address", "local-serial"])  # fmt: skip
        assert made.exit_code == 0, made.output
    out = tmp_path / name
    done = runner.invoke(app, ["grade", str(corpus), "-s", "solver:clocks", "--out", str(out),
                               "--address", "local-serial"])  # fmt: skip
    assert done.exit_code == 0, done.output
    return done.output, json.loads((out / "run.json").read_text())


def test_unconfined_runs_say_so_and_record_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRIDJUDGE_SANDBOX", "none")
    from pipeline.program.isolation import probed

    probed.cache_clear()
    try:
        output, info = _grade(tmp_path, "none")
    finally:
        probed.cache_clear()
    lines = [ln for ln in output.splitlines() if ln.startswith("isolation: ")]
    assert len(lines) == 1 and lines[0].startswith("isolation: none (")
    assert "gridjudge doctor" in lines[0]
    assert info["isolation"] == "none"


def test_full_isolation_says_nothing_and_records_it(tmp_path: Path) -> None:
    level, why = isolation_level(probe())
    if level != "full":
        pytest.skip(f"this machine gives {level} isolation ({why})")
    output, info = _grade(tmp_path, "full")
    assert "isolation: " not in output
    assert info["isolation"] == "full"
