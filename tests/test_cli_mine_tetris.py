"""`gridjudge solve` and `gridjudge validate` on mine and tetris files."""

from __future__ import annotations

import random
from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.problem.registry import get_problem

runner = CliRunner()


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_solve_mine_file_with_fifty_cases(tmp_path: Path) -> None:
    mine = get_problem("mine")
    rng = random.Random(50)
    cases = [mine.generate(rng, rng.choice(["tiny", "small", "random", "edge"])) for _ in range(50)]
    assert mine.join is not None
    text = mine.join(cases)
    path = _write(tmp_path, "fifty.in", text)
    result = runner.invoke(app, ["solve", "mine", path])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 50
    for i, (line, one) in enumerate(zip(lines, cases, strict=True), 1):
        verdict = mine.solve(one).split(": ")[1].strip()
        assert line == f"Case #{i}: {verdict}"
    # the plain version gives the same file answer
    plain = runner.invoke(app, ["solve", "mine", path, "--solver", "1"])
    assert plain.exit_code == 0 and plain.stdout == result.stdout
    valid = runner.invoke(app, ["validate", "mine", path])
    assert valid.exit_code == 0 and valid.stdout.strip() == "valid"


def test_solve_mine_from_stdin_with_search_version() -> None:
    text = "2\n3 3 0\n3 3 1\n1 1\n"
    result = runner.invoke(app, ["solve", "mine", "--solver", "search"], input=text)
    assert result.exit_code == 0, result.output
    assert result.stdout == "Case #1: Xiemao\nCase #2: Fanglaoshi\n"


def test_validate_mine_names_rule_and_place(tmp_path: Path) -> None:
    text = "2\n4 4 2\n0 0\n2 2\n5 5 2\n3 4\n3 4\n"
    path = _write(tmp_path, "bad.in", text)
    result = runner.invoke(app, ["validate", "mine", path])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "case 1: number cell (1,1) borders two blank regions",
        "case 2: mine (3,4) listed twice (again as mine 2)",
    ]
    solved = runner.invoke(app, ["solve", "mine", path])
    assert solved.exit_code == 2
    assert solved.stderr.strip() == (
        "error: invalid input: case 1: number cell (1,1) borders two blank regions"
    )


def test_solve_mine_malformed_is_one_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.in", "1\n2 2 1\n0 x\n")
    result = runner.invoke(app, ["solve", "mine", path])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: invalid input: line 3: unexpected character 'x'"


def test_solve_and_validate_tetris(tmp_path: Path) -> None:
    text = "4 4\n0000\n0000\n0000\n0000\n4 4\n0000\n0010\n0100\n0000\n"
    path = _write(tmp_path, "sample.in", text)
    for solver in ("1", "2"):
        result = runner.invoke(app, ["solve", "tetris", path, "--solver", solver])
        assert result.exit_code == 0, result.output
        assert result.stdout == "Yes\nNo\n"
    valid = runner.invoke(app, ["validate", "tetris", path])
    assert valid.exit_code == 0 and valid.stdout.strip() == "valid"


def test_tetris_bad_input_and_unknown_solver(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.in", "2 2\n00\n0a\n")
    result = runner.invoke(app, ["validate", "tetris", path])
    assert result.exit_code == 1
    assert result.stderr.strip() == "case 1: row 2 holds 'a' (only 0 and 1)"
    solved = runner.invoke(app, ["solve", "tetris", path])
    assert solved.exit_code == 2
    assert solved.stderr.strip() == "error: invalid input: case 1: row 2 holds 'a' (only 0 and 1)"
    good = _write(tmp_path, "good.in", "2 2\n00\n00\n")
    unknown = runner.invoke(app, ["solve", "tetris", good, "--solver", "9"])
    assert unknown.exit_code == 2
    assert "tetris has no solver '9' (has: 1, 2)" in unknown.stderr
