"""`gridjudge strength` on a tiny problem package (a + b, in Python): every mutant
universalmutator makes of the accepted submission, the package's rejected submission,
the kill matrix, the survivors and the minimal `data/` folder. Runs without Ray
(`--address local-serial`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app

ACCEPTED = """\
import sys


def main():
    a, b = map(int, sys.stdin.read().split())
    unused = 0
    print(a + b)


main()
"""
SERIAL = ("--address", "local-serial")
CASES = ["1 2", "0 0", "-5 3", "100 -100", "7 7", "123456 654321", "-1 -1"]


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pkg") / "add"
    (root / "submissions" / "accepted").mkdir(parents=True)
    (root / "submissions" / "wrong_answer").mkdir(parents=True)
    (root / "problem.yaml").write_text("name: Add two numbers\n")
    (root / "submissions" / "accepted" / "add.py").write_text(ACCEPTED)
    wrong = ACCEPTED.replace("a + b", "abs(a) + b")
    (root / "submissions" / "wrong_answer" / "absolute.py").write_text(wrong)
    for n, text in enumerate(CASES):
        folder = root / "data" / ("sample" if n == 0 else "secret")
        folder.mkdir(parents=True, exist_ok=True)
        a, b = map(int, text.split())
        (folder / f"{n}.in").write_text(text + "\n")
        (folder / f"{n}.ans").write_text(f"{a + b}\n")
    return root


@pytest.fixture(scope="module")
def strength_run(package: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("strength") / "out"
    result = CliRunner().invoke(
        app,
        [
            "strength",
            str(package),
            "--out",
            str(out),
            "--mutants",
            "1000",  # every mutant the tool makes of the 10 lines
            "--address",
            "local-serial",
        ],
    )
    assert result.exit_code == 0, result.output
    return out, result.stdout


def _changed_line(mutant: Path) -> str:
    """The one line a mutant changed (universalmutator changes one)."""
    lines = (mutant / "add.py").read_text().splitlines()
    return next(m for m, a in zip(lines, ACCEPTED.splitlines(), strict=False) if m != a)


def test_a_mutant_that_fails_to_compile_is_dropped_and_counted(
    strength_run: tuple[Path, str],
) -> None:
    out, stdout = strength_run
    figures = json.loads((out / "strength.json").read_text())
    assert figures["mutants_compile_failed"] >= 1  # `break;` outside a loop, for one
    made = figures["mutants_sampled"]
    assert figures["programs_by_kind"]["mutant"] == made - figures["mutants_compile_failed"]
    graded = set(pd.read_parquet(out / "matrix.parquet")["program"])
    kept = {p.name for p in (out / "mutants").iterdir()}
    assert {p for p in graded if ".m" in p} == kept
    assert all("break" not in _changed_line(out / "mutants" / m) for m in kept)
    assert f"{figures['mutants_compile_failed']} did not compile (dropped)" in stdout


def test_an_equivalent_mutant_survives(strength_run: tuple[Path, str]) -> None:
    out, stdout = strength_run
    programs = pd.read_parquet(out / "programs.parquet").set_index("program")
    equivalent = [
        m.name for m in (out / "mutants").iterdir() if "unused" in _changed_line(m)
    ]  # `unused = 1`, `unused = -1`: the program's output is the same
    assert equivalent
    for label in equivalent:
        assert pd.isna(programs.loc[label, "first_kill"])
        assert programs.loc[label, "kills"] == 0
    survivors = json.loads((out / "strength.json").read_text())["survivors"]
    assert set(equivalent) <= set(survivors)
    matrix = pd.read_parquet(out / "matrix.parquet")
    assert set(matrix[matrix["program"].isin(equivalent)]["verdict"]) == {"AC"}
    assert "survivors (" in stdout


def test_the_rejected_submission_is_killed_by_a_negative_case(
    strength_run: tuple[Path, str],
) -> None:
    out, _ = strength_run
    programs = pd.read_parquet(out / "programs.parquet").set_index("program")
    rejected = programs.loc["wrong_answer/absolute.py"]
    assert rejected["kind"] == "rejected" and rejected["origin"] == "wrong_answer"
    assert rejected["first_kill"] == "secret/2"  # -5 3: the first case with a negative a


def test_the_minimal_data_folder_kills_what_the_full_one_kills(
    strength_run: tuple[Path, str], package: Path, tmp_path: Path
) -> None:
    out, _ = strength_run
    cases = pd.read_parquet(out / "cases.parquet")
    chosen = set(cases[cases["minimal"]]["case_id"])
    matrix = pd.read_parquet(out / "matrix.parquet")
    killed = set(matrix[matrix["killed"]]["program"])
    on_minimal = matrix[matrix["case_id"].isin(chosen) & matrix["killed"]]
    assert set(on_minimal["program"]) == killed
    secret = {p.stem for p in (out / "data" / "secret").glob("*.in")}
    assert {f"secret/{s}" for s in secret} == {c for c in chosen if c.startswith("secret/")}
    assert sorted(p.name for p in (out / "data" / "sample").iterdir()) == ["0.ans", "0.in"]
    # the package with the minimal data folder: grading the programs again on it
    # rejects exactly the programs the full data rejected
    copy = tmp_path / "add"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("data"))
    shutil.copytree(out / "data", copy / "data")
    again = tmp_path / "again"
    result = CliRunner().invoke(
        app,
        ["strength", str(copy), "--out", str(again), "--mutants", "1000", *SERIAL],
    )
    assert result.exit_code == 0, result.output
    matrix = pd.read_parquet(again / "matrix.parquet")
    assert set(matrix[matrix["killed"]]["program"]) == killed


def test_an_input_the_validators_reject_is_left_out_and_said(package: Path, tmp_path: Path) -> None:
    copy = tmp_path / "add"
    shutil.copytree(package, copy)
    (copy / "input_validators").mkdir()
    (copy / "input_validators" / "validate.py").write_text(
        "import sys\n"
        "tokens = sys.stdin.read().split()\n"
        "ok = len(tokens) == 2 and all(t.lstrip('-').isdigit() for t in tokens)\n"
        "sys.exit(42 if ok else 43)\n"
    )
    (copy / "data" / "secret" / "bad.in").write_text("1 x\n")
    (copy / "data" / "secret" / "bad.ans").write_text("1\n")
    out = tmp_path / "s"
    result = CliRunner().invoke(app, ["strength", str(copy), "--out", str(out), *SERIAL])
    assert result.exit_code == 0, result.output
    assert "left out: input data/secret/bad.in: rejected" in result.stdout
    matrix = pd.read_parquet(out / "matrix.parquet")
    assert "secret/bad" not in set(matrix["case_id"])
    assert set(matrix["program"]) == {"wrong_answer/absolute.py"}
    # nor is it in the minimal data folder
    assert not list((out / "data" / "secret").glob("bad.*"))


def test_sources_of_one_name_and_a_language_gridjudge_lacks(package: Path, tmp_path: Path) -> None:
    copy = tmp_path / "add"
    shutil.copytree(package, copy)
    (copy / "submissions" / "accepted" / "add.lisp").write_text("(print 1)\n")
    out = tmp_path / "s"
    argv = ["strength", str(copy), "--out", str(out), "--mutants", "4", *SERIAL]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    assert "not mutated: add.lisp:" in result.stdout and "no language uses .lisp" in result.stdout
    # given with --mutate, the same source is an error of one line
    argv = ["strength", str(copy), "--out", str(tmp_path / "t"), "--mutants", "4", *SERIAL]
    result = CliRunner().invoke(
        app, [*argv, "--mutate", str(copy / "submissions/accepted/add.lisp")]
    )
    assert result.exit_code == 2 and "no language uses .lisp" in result.output.splitlines()[-1]
    # two sources of one file name: their mutants are told apart
    other = tmp_path / "other" / "add.py"
    other.parent.mkdir()
    other.write_text(ACCEPTED.replace("a + b", "b + a"))
    both = ["--mutate", str(copy / "submissions/accepted/add.py"), "--mutate", str(other)]
    argv = ["strength", str(copy), "--out", str(tmp_path / "u"), "--mutants", "1000", *SERIAL]
    result = CliRunner().invoke(app, [*argv, *both])
    assert result.exit_code == 0, result.output
    names = {p.name.split(".m")[0] for p in (tmp_path / "u" / "mutants").iterdir()}
    assert names == {"add.py.0", "add.py.1"}
