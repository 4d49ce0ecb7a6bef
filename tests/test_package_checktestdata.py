"""checktestdata input validators (`.ctd`, through the PyPI checktestdata package, run in
the sandbox as a Python program) beside a Python validator and a viva validator that
gridjudge cannot run (one line, the others still run)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.package.spec import PackageError
from pipeline.problem.registry import get_problem

SERIAL = ("--address", "local-serial", "--repeat", "1")
# one number from 1 to 1000 on a line, then the end of the file
CTD = "INT(1, 1000, n) NEWLINE\nEOF\n"
# rejects 13 (and shows the flags it got); the ctd script is given none
NOT_13 = """\
import sys
assert sys.argv[1:] == ["strict"], sys.argv
sys.exit(43 if int(sys.stdin.read()) == 13 else 42)
"""


def package(root: Path, inputs: dict[str, str], ctd: str = CTD) -> Path:
    for rel, text in inputs.items():
        path = root / "data" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        value = text.split()[0] if text.split() else "0"
        answer = 2 * int(value) if value.isdigit() else 0
        path.with_suffix(".ans").write_text(f"{answer}\n")
    (root / "data" / "testdata.yaml").write_text("input_validator_flags: strict\n")
    validators = root / "input_validators"
    validators.mkdir()
    (validators / "format.ctd").write_text(ctd)
    (validators / "not13.py").write_text(NOT_13)
    (validators / "bounds.viva").write_text('<viva version="0.1">\n')
    (root / "problem.yaml").write_text("name: Double\nlimits:\n  time_limit: 2\n")
    (root / "submissions" / "accepted").mkdir(parents=True)
    (root / "submissions" / "accepted" / "double.py").write_text("print(2 * int(input()))\n")
    return root


def verify(root: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["verify", str(root), *SERIAL])
    return result.exit_code, result.output


def test_each_validator_judges_and_viva_is_one_line(tmp_path: Path) -> None:
    inputs = {
        "sample/1.in": "2\n",
        "secret/1.in": "5\n",
        "secret/2.in": "13\n",  # valid format; not13.py rejects it
        "secret/3.in": "1001\n",  # out of the ctd script's range
        "secret/4.in": "7 \n",  # a space the script does not allow
    }
    root = package(tmp_path / "p", inputs)
    problem = get_problem(str(root))
    assert problem.validate("5\n") == []
    rejected = problem.validate("1001\n")
    assert len(rejected) == 1 and "format.ctd exit code 43" in rejected[0]
    code, output = verify(root)
    assert code == 1, output
    fails = sorted(line.split(":")[0] for line in output.splitlines() if line.startswith("FAIL"))
    assert fails == [f"FAIL  input data/secret/{n}.in" for n in (2, 3, 4)], output
    assert "not13.py exit code 43" in output and "format.ctd exit code 43" in output
    skip = [line for line in output.splitlines() if line.startswith("SKIP")]
    assert skip == [
        "SKIP  input validator: bounds.viva: viva validators are not supported; not run"
    ]
    assert "PASS  accepted/double.py: AC 2" in output  # the two valid inputs
    assert output.rstrip().endswith("; 1 not checked")


def test_a_valid_package_verifies(tmp_path: Path) -> None:
    root = package(tmp_path / "p", {"sample/1.in": "2\n", "secret/1.in": "1000\n"})
    imported = CliRunner().invoke(
        app, ["import", str(root), "--problem", str(root), "--out", str(tmp_path / "c")]
    )
    assert imported.exit_code == 0, imported.output
    assert "imported 2 cases" in imported.output
    assert "note: bounds.viva: viva validators are not supported; not run" in imported.output
    code, output = verify(root)
    assert code == 0, output
    assert "PASS  inputs: every input is valid: 2 inputs, 2 input validators" in output


def test_a_script_that_does_not_parse_is_one_line(tmp_path: Path) -> None:
    root = package(tmp_path / "p", {"secret/1.in": "2\n"}, ctd="INT(1, 1000, n NEWLINE\n")
    with pytest.raises(PackageError, match=r"format\.ctd.*checktestdata"):
        get_problem(str(root))
    result = CliRunner().invoke(
        app, ["import", str(root), "--problem", str(root), "--out", str(tmp_path / "c")]
    )
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
