"""`problems` and `import` through the CLI, and their one-line errors."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.store import read_table
from pipeline.problem.registry import all_problems
from tests.cli_output import without_isolation_line

runner = CliRunner()


def _needs(problem: str) -> None:
    """The test's problem must be installed: a plugin missing is a failure, not a skip."""
    assert problem in all_problems(), f"problem {problem!r} is not installed"


def test_help_lists_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("problems", "import", "solve", "validate"):
        assert command in result.output


def test_problems_table() -> None:
    result = runner.invoke(app, ["problems"])
    assert result.exit_code == 0, result.output
    for name, problem in all_problems().items():
        assert name in result.output
        assert problem.default_solver in result.output


def test_import_golden_spot_round_trip(golden_dir: Path, tmp_path: Path) -> None:
    _needs("spot")
    src = golden_dir / "spot"
    result = runner.invoke(
        app, ["import", str(src), "--problem", "spot", "--out", str(tmp_path / "c")]
    )
    assert result.exit_code == 0, result.output
    ins = sorted(src.rglob("*.in"))
    rows = read_table(tmp_path / "c").to_pylist()
    assert len(rows) == len(ins)
    by_id = {r["case_id"]: r for r in rows}
    for path in ins:
        rel = path.relative_to(src).with_suffix("").as_posix()
        row = by_id[rel]
        assert row["family"] == path.parent.name
        assert row["input"] == path.read_text()
        assert row["expected"] == path.with_suffix(".ans").read_text()


def _one_line_error(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    output = without_isolation_line(result.output)
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ")
    return lines[0]


def test_import_errors_are_one_line(tmp_path: Path) -> None:
    some = next(iter(all_problems()))
    assert "no such file or folder" in _one_line_error(
        ["import", str(tmp_path / "missing"), "--problem", some, "--out", str(tmp_path / "o")]
    )
    assert "unknown problem 'nope'" in _one_line_error(
        ["import", str(tmp_path), "--problem", "nope", "--out", str(tmp_path / "o")]
    )
    (tmp_path / "src" / "fam").mkdir(parents=True)
    (tmp_path / "src" / "fam" / "0001.in").write_text("x\n")
    (tmp_path / "src" / "fam" / "0002.ans").write_text("y\n")
    assert "answer file without a matching .in" in _one_line_error(
        ["import", str(tmp_path / "src"), "--problem", some, "--out", str(tmp_path / "o")]
    )


def test_corrupt_corpus_is_one_line(tmp_path: Path, golden_dir: Path) -> None:
    _needs("spot")
    out = tmp_path / "c"
    assert (
        runner.invoke(
            app, ["import", str(golden_dir / "spot"), "--problem", "spot", "--out", str(out)]
        ).exit_code
        == 0
    )
    ok = runner.invoke(app, ["inspect", str(out)])
    assert ok.exit_code == 0 and "ok: parts match the manifest" in ok.output
    next(out.glob("part-*.parquet")).write_bytes(b"garbage")
    assert "corrupt parquet file" in _one_line_error(["inspect", str(out)])
    assert "no _corpus.json" in _one_line_error(["inspect", str(tmp_path)])


def test_import_uncuttable_multicase_file(tmp_path: Path) -> None:
    _needs("spot")
    (tmp_path / "games.in").write_text("3\n1 1 +\n")  # a game with too few move lines
    assert "cannot cut into cases" in _one_line_error(
        ["import", str(tmp_path / "games.in"), "--problem", "spot", "--out", str(tmp_path / "o")]
    )


def test_an_out_folder_that_cannot_be_made_is_one_line(tmp_path: Path, golden_dir: Path) -> None:
    """An --out beneath a file (as root, the one unwritable place every uid has): the
    path and the reason, exit 2, for the commands that make run or corpus folders."""
    _needs("spot")
    corpus = tmp_path / "c"
    made = ["import", str(golden_dir / "spot"), "--problem", "spot", "--out", str(corpus)]
    assert runner.invoke(app, made).exit_code == 0
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out = str(blocker / "out")
    commands = [
        ["import", str(golden_dir / "spot"), "--problem", "spot", "--out", out],
        ["grade", str(corpus), "-s", "solver:spot", "--address", "local-serial", "--out", out],
        ["demo", "--problem", "spot", "--cases", "1", "--out", out],
    ]
    for args in commands:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        line = _one_line_error(args)
        assert out in line and "Not a directory" in line, (args, line)
