"""grade (and run, stress, verify) say in one line on stderr before any work when a
submission would get less than full isolation here, and run.json records the level a run
had."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.sandbox.isolation import isolation_level, probe


def _grade(tmp_path: Path, name: str) -> tuple[str, dict]:
    """grade's output (both streams) and its run.json; nothing of the line on stdout."""
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
    # on stderr: a user sees it, a program reading stdout does not
    assert "isolation: " not in done.stdout, done.stdout
    return done.output, json.loads((out / "run.json").read_text())


def test_unconfined_runs_say_so_and_record_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRIDJUDGE_SANDBOX", "none")
    from pipeline.sandbox.isolation import probed

    probed.cache_clear()
    try:
        output, info = _grade(tmp_path, "none")
    finally:
        probed.cache_clear()
    lines = [ln for ln in output.splitlines() if ln.startswith("isolation: ")]
    assert len(lines) == 1 and lines[0].startswith("isolation: none (")
    assert "gridjudge doctor" in lines[0]
    assert info["isolation"] == "none"


def test_the_line_says_the_level_here_unless_it_is_full(tmp_path: Path) -> None:
    """As whoever runs the suite (CI: root, full isolation; then an ordinary user on a
    cgroup v1 host, namespaces without cgroups): full says nothing, less says so once;
    run.json records the level either way."""
    level, why = isolation_level(probe())
    output, info = _grade(tmp_path, "here")
    lines = [ln for ln in output.splitlines() if ln.startswith("isolation: ")]
    if level == "full":
        assert lines == [], output
    else:
        gap = "`gridjudge doctor` says what would close the gap"
        assert lines == [f"isolation: {level} ({why}); {gap}"], output
    assert info["isolation"] == level
