"""`gridjudge solve` and `gridjudge validate` for problem setters."""

from __future__ import annotations

import random
from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.problem.registry import all_problems

runner = CliRunner()

BAD_SPOT = "2\n1 1 +\n1 1 -\n2 2 -\n1 2 +\n0\n"  # move 3 removes a spot that is not there


def _needs(*problems: str) -> None:
    """The test's problems must be installed: a plugin missing is a failure, not a skip."""
    missing = [p for p in problems if p not in all_problems()]
    assert not missing, f"problem(s) not installed: {', '.join(missing)}"


def test_solve_spot_sample_from_stdin_and_file(golden_dir: Path) -> None:
    _needs("spot")
    sample = golden_dir / "spot" / "sample" / "0001.in"
    expected = sample.with_suffix(".ans").read_text()
    from_stdin = runner.invoke(app, ["solve", "spot"], input=sample.read_text())
    assert from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.stdout == expected
    from_file = runner.invoke(app, ["solve", "spot", str(sample), "--solver", "1"])
    assert from_file.exit_code == 0 and from_file.stdout == expected


def test_solve_versions_differ_where_the_rules_do(golden_dir: Path) -> None:
    _needs("spot")
    case = golden_dir / "spot" / "empty_return" / "0001.in"
    default = runner.invoke(app, ["solve", "spot", str(case)])
    seed = runner.invoke(app, ["solve", "spot", str(case), "--solver", "seed-reading"])
    assert default.exit_code == seed.exit_code == 0
    assert default.stdout == case.with_suffix(".ans").read_text()
    assert seed.stdout != default.stdout


def test_solve_several_games_one_line_each() -> None:
    _needs("spot")
    p = all_problems()["spot"]
    rng = random.Random(1)
    cases = [p.generate(rng, "rot90") for _ in range(3)] + [p.generate(rng, "long_draw")]
    assert p.join is not None
    result = runner.invoke(app, ["solve", "spot"], input=p.join(cases))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [p.solve(c).strip() for c in cases]
    assert result.stdout.splitlines()[-1] == "Draw"


def test_solve_empty_answers_are_one_empty_line() -> None:
    _needs("clocks", "gomoku")
    clocks = runner.invoke(app, ["solve", "clocks"], input="12 12 12\n12 12 12\n12 12 12\n")
    assert clocks.exit_code == 0 and clocks.stdout == "\n"
    gomoku = runner.invoke(app, ["solve", "gomoku"], input="xxxxxxx\n" * 7)
    assert gomoku.exit_code == 0 and gomoku.stdout == "\n"
    three = runner.invoke(app, ["solve", "gomoku"], input="xoooxxx\n" + "xxxxxxx\n" * 6)
    assert three.stdout == "活三\n"


def _one_line_error(args: list[str], stdin: str | None = None) -> str:
    result = runner.invoke(app, args, input=stdin)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


def test_solve_errors_are_one_line(tmp_path: Path) -> None:
    _needs("spot")
    assert "invalid input: game 1, move 3 (line 4): '-' on an empty square (2,2)" in (
        _one_line_error(["solve", "spot"], BAD_SPOT)
    )
    assert "spot has no solver '9'" in _one_line_error(["solve", "spot", "--solver", "9"], "")
    assert "unknown problem 'nope'" in _one_line_error(["solve", "nope"], "")
    assert "cannot read" in _one_line_error(["solve", "spot", str(tmp_path / "missing.in")])


def test_validate_accepts_and_rejects(tmp_path: Path, golden_dir: Path) -> None:
    _needs("spot", "clocks")
    ok = runner.invoke(app, ["validate", "spot", str(golden_dir / "spot" / "sample" / "0001.in")])
    assert ok.exit_code == 0 and ok.stdout.strip() == "valid"
    bad = runner.invoke(app, ["validate", "spot"], input=BAD_SPOT)
    assert bad.exit_code == 1
    assert "'-' on an empty square (2,2)" in bad.stderr and "valid" not in bad.stdout
    path = tmp_path / "clocks.in"
    path.write_text("3 6 9\n12 12 7\n3 6 9 9\n")
    both = runner.invoke(app, ["validate", "clocks", str(path)])
    assert both.exit_code == 1
    messages = both.stderr.splitlines()
    assert len(messages) == 2, messages  # every violated rule, one line each
    assert "clock F: '7'" in messages[0] and "line 3: expected 3 numbers, got 4" in messages[1]
