"""`problems` and `report` fit the terminal's width (COLUMNS), leaving out the least
needed columns and naming them; a wide terminal shows every column."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.problem.registry import all_problems
from pipeline.results.store import write_results_part, write_run_json
from pipeline.schemas import RESULTS_SCHEMA

SUBMISSION = "datasets/examples/spot/a_long_name_for_a_submission_file.cpp"


def _invoke(columns: int, *args: str) -> Any:
    result = CliRunner(env={"COLUMNS": str(columns)}).invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def _widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def test_problems_fits_80_columns_and_names_what_it_left_out() -> None:
    text = _invoke(80, "problems").output
    assert _widest(text) <= 80
    for name in all_problems():
        assert name in text
    assert "left out to fit 80 columns: title, I/O" in text
    wide = _invoke(250, "problems").output
    assert "left out" not in wide and "title" in wide and "I/O" in wide


def _run(path: Path) -> Path:
    rows = []
    for i in range(12):
        row: dict[str, Any] = {name: None for name in RESULTS_SCHEMA.names}
        row.update(
            run_id="r1",
            submission=SUBMISSION,
            submission_sha="s",
            problem="spot",
            case_id=f"fam{i % 3}/{i:07d}",
            family=f"fam{i % 3}",
            verdict=("AC", "WA", "TLE", "AC")[i % 4],
            cpu_ms=1.5 * i,
            attempt=1,
            batch_size=1,
        )
        rows.append(row)
    write_results_part(path, rows)
    write_run_json(path, {"problem": "spot"})
    return path


def test_report_fits_80_columns(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    text = _invoke(80, "report", str(run), "--families").output
    table = text.split("wrote ")[0]
    assert _widest(table) <= 80
    assert "AC" in table and "WA" in table and "TLE" in table and "pass" in table
    assert "left out to fit 80 columns" in table
    wide = _invoke(250, "report", str(run), "--families").output
    assert "left out" not in wide and "cpu p95 ms" in wide and "first failing case" in wide


def test_languages_fits_80_columns() -> None:
    text = _invoke(80, "languages", "c11", "py3").output
    assert _widest(text) <= 80
    assert "c11" in text and "py3" in text and "gcc" in text
    assert "left out to fit 80 columns" in text
