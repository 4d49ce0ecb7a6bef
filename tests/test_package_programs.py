"""A package's programs as the package format defines them (tests/packages): a 2025-09
`output_validator/` is one program, its sources compiled together with its header
(`guess_split`); multi-file submissions start where problemtools and BAPCtools start
them (a Python folder's `__main__.py`, Java's `Main` among several classes with a main);
a multi-pass validator's `nextpass.in` is the next pass's input, the validator's input
file included, while the rest of the feedback folder is kept (`relay`, batch and
interactive); a program folder with `build` / `run` scripts is built and run by them
(`scripted`). Each is graded under spawn and the fork server; `import` of a package
needs no `--problem`."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.package.spec import read_package
from pipeline.package.submissions import read_submissions
from pipeline.program.languages import get_language, missing
from pipeline.verify.expect import Check
from pipeline.verify.prepare import include_checks, specs_of
from tests.fork_server_probe import require_fork_server

PACKAGES = Path(__file__).resolve().parent / "packages"
SERIAL = ("--address", "local-serial")


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


@pytest.fixture(autouse=True)
def _no_result_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRIDJUDGE_RESULT_CACHE", "off")


def needs(*languages: str) -> None:
    for language in languages:
        reason = missing(get_language(language))
        if reason is not None:
            pytest.skip(f"no {language} toolchain here: {reason}")


@pytest.fixture(params=[False, True], ids=["spawn", "fork-server"])
def fork(request: pytest.FixtureRequest) -> bool:
    needs("cpp", "python")
    if request.param:
        require_fork_server()
    return bool(request.param)


def runner_flag(fork: bool) -> str:
    return "--fork-server" if fork else "--no-fork-server"


def graded(package: Path, tmp_path: Path, fork: bool, *subs: Path) -> dict[tuple[str, str], Any]:
    """(submission file or folder name, case id) -> its results row."""
    corpus, run = tmp_path / "corpus", tmp_path / "run"
    code, output = cli("import", str(package), "--problem", str(package), "--out", str(corpus))
    assert code == 0, output
    specs = [a for s in subs for a in ("-s", str(s))]
    code, output = cli("grade", str(corpus), *specs, "--out", str(run), *SERIAL, runner_flag(fork))
    assert code == 0, output
    rows = pq.read_table(run / "results").to_pylist()
    return {(Path(r["submission"]).name, r["case_id"]): r for r in rows}


def verified(name: str, fork: bool, package: Path | None = None) -> str:
    folder = package or PACKAGES / name
    code, output = cli("verify", str(folder), *SERIAL, "--repeat", "1", runner_flag(fork))
    assert code == 0, output
    assert "FAIL" not in output and "expectations hold" in output, output
    return output


def test_a_header_split_interactor_is_one_program(tmp_path: Path, fork: bool) -> None:
    """validate.cc + rules.cc + validate.h in `output_validator/`: compiled together, the
    folder on the include path (validate.cc has `#include <validate.h>`); gridjudge
    used to take each source for a validator of its own."""
    package = PACKAGES / "guess_split"
    subs = package / "submissions"
    rows = graded(
        package, tmp_path, fork, subs / "accepted/bisect.py", subs / "wrong_answer/always_one.py"
    )
    for case in ("sample/1", "secret/1", "secret/2"):
        row = rows["bisect.py", case]
        assert row["verdict"] == "AC", row
    rejected = rows["always_one.py", "secret/2"]
    assert (rejected["verdict"], rejected["checker_msg"]) == ("WA", "more than 10 guesses")


def test_multi_file_submissions_start_at_the_tools_entry_point(tmp_path: Path, fork: bool) -> None:
    """A Python folder starts at `__main__.py` (not `__init__.py`, the first by name);
    a Java folder whose Helper has a main of its own starts at Main. Graded against
    guess_cpp's interactor (the same game), and verified in their own package."""
    needs("java")
    subs = PACKAGES / "guess_split/submissions/accepted"
    rows = graded(PACKAGES / "guess_cpp", tmp_path, fork, subs / "bisect_pkg", subs / "bisect_java")
    for name in ("bisect_pkg", "bisect_java"):
        for case in ("sample/1", "secret/1", "secret/2"):
            assert rows[name, case]["verdict"] == "AC", rows[name, case]
    output = verified("guess_split", fork)
    assert "PASS  accepted/bisect_pkg: AC 3" in output, output
    assert "PASS  accepted/bisect_java: AC 3" in output, output


@pytest.mark.parametrize("name", ["relay", "relay_interactive"])
def test_nextpass_in_is_the_next_pass_input(name: str, tmp_path: Path, fork: bool) -> None:
    """Each pass's validator reads the pass from its input file: nextpass.in of the pass
    before (were it the case's .in, pass 2 would be judged as pass 1); nextpass.in is
    gone from the feedback folder after it is taken (else pass 3 would ask for a
    fourth), and the judge message written by every pass is kept."""
    package = PACKAGES / name
    subs = package / "submissions"
    rows = graded(
        package,
        tmp_path,
        fork,
        subs / "accepted/adds.py",
        subs / "wrong_answer/last_pass_off.py",
    )
    for case, start in (("sample/1", 7), ("secret/1", 0), ("secret/2", 40)):
        row = rows["adds.py", case]
        said = "pass 1 ok; pass 2 ok; pass 3 ok;"
        assert (row["verdict"], row["checker_msg"]) == ("AC", f"pass 3: {said}"), row
        off = rows["last_pass_off.py", case]
        wanted = start + 6
        assert off["verdict"] == "WA", off
        said = f"pass 1 ok; pass 2 ok; pass 3: wanted {wanted}, got {wanted + 1}"
        assert off["checker_msg"] == f"pass 3: {said}", off
    verified(name, fork)


def test_build_and_run_scripts(tmp_path: Path, fork: bool) -> None:
    """`output_validator/` holds build, run and check.c: build compiles the checker with
    cc, run starts it; the input validator `range/` has a run script only."""
    needs("c11")
    verified("scripted", fork)
    package = PACKAGES / "scripted"
    subs = package / "submissions"
    rows = graded(package, tmp_path, fork, subs / "wrong_answer/subtracts.py")
    row = rows["subtracts.py", "sample/1"]
    assert (row["verdict"], row["checker_msg"]) == ("WA", "built checker: wanted 5, got -1")


def test_a_run_script_validator_rejects_an_input(tmp_path: Path) -> None:
    needs("python")
    package = Path(shutil.copytree(PACKAGES / "scripted", tmp_path / "scripted"))
    (package / "data/secret/2.in").write_text("1000 1001\n")
    corpus = str(tmp_path / "corpus")
    code, output = cli("import", str(package), "--problem", str(package), "--out", corpus)
    assert code == 2, output
    assert "data/secret/2.in: input rejected: input validator range exit code 43" in output


def test_a_build_that_fails_is_a_judge_error(tmp_path: Path) -> None:
    needs("python")
    package = Path(shutil.copytree(PACKAGES / "scripted", tmp_path / "scripted"))
    (package / "output_validator/build").write_text("#!/bin/sh\necho no compiler today\nexit 3\n")
    rows = graded(package, tmp_path, False, package / "submissions/accepted/adds.py")
    row = rows["adds.py", "sample/1"]
    assert row["verdict"] == "JE", row
    assert "output_validator did not compile: no compiler today" in row["checker_msg"], row


def test_which_files_are_the_output_validator(tmp_path: Path) -> None:
    """2025-09 `output_validator/` with files: the folder is the program; with only
    folders in it (gridjudge's earlier reading): each folder; legacy
    `output_validators/`: each file or folder, headers aside."""
    # imported here: the module's other tests run on a gridjudge without it
    from pipeline.package.problem import output_programs

    assert output_programs(read_package(PACKAGES / "guess_split")) == [
        PACKAGES / "guess_split/output_validator"
    ]
    assert output_programs(read_package(PACKAGES / "triple")) == [
        PACKAGES / "triple/output_validator/passes"
    ]
    noted = Path(shutil.copytree(PACKAGES / "triple", tmp_path / "triple"))
    (noted / "output_validator/README.md").write_text("the validator is in passes/\n")
    assert output_programs(read_package(noted)) == [noted / "output_validator/passes"]
    legacy = tmp_path / "legacy"
    (legacy / "output_validators").mkdir(parents=True)
    (legacy / "problem.yaml").write_text("validation: custom\n")
    for name in ("check.cc", "check.h"):
        (legacy / "output_validators" / name).write_text("")
    assert output_programs(read_package(legacy)) == [legacy / "output_validators/check.cc"]


def test_import_without_problem(tmp_path: Path) -> None:
    """A package is its own problem; anything else still needs --problem (one line)."""
    code, output = cli("import", str(PACKAGES / "relay"), "--out", str(tmp_path / "corpus"))
    assert code == 0 and "imported 3 cases" in output, output
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "1.in").write_text("1\n")
    code, output = cli("import", str(folder), "--out", str(tmp_path / "other"))
    assert code == 2, output
    assert output.strip().splitlines()[-1].endswith("name its problem with --problem"), output


def test_included_code_is_built_with_every_submission(tmp_path: Path, fork: bool) -> None:
    """`include/` (2023-07): C gets the default grader.c and grader.h, C++ the default
    header and its own grader.cpp, Python its helper module; the package's grader.cpp
    replaces the submission's own (which prints 0), and a Python submission still starts
    at its own file, not at the helper sorted before it. Through `grade` (a submission
    from outside the package gets them too) and `verify`."""
    needs("c11")
    package = PACKAGES / "included"
    subs = package / "submissions"
    accepted = ("twice.c", "twice.cpp", "twice.py", "override")
    rows = graded(
        package,
        tmp_path,
        fork,
        *(subs / "accepted" / name for name in accepted),
        subs / "wrong_answer/thrice.py",
    )
    for case, answer in (("sample/1", 6), ("secret/1", 42), ("secret/2", 1000)):
        for name in accepted:
            assert rows[name, case]["verdict"] == "AC", rows[name, case]
        wrong = rows["thrice.py", case]
        assert (wrong["verdict"], wrong["checker_msg"]) == (
            "WA",
            f"token 1: expected '{answer}', got '{answer // 2 * 3}'",
        ), wrong
    output = verified("included", fork)
    folders = "include/cpp, include/default, include/python3"
    assert f"PASS  included code: built with every submission: {folders}" in output, output


def test_included_code_the_format_does_not_allow(tmp_path: Path) -> None:
    """A legacy package's include/default fails verify (the legacy format has none, and
    problemtools errs); a folder naming no language here is a warning; included files
    over the bound, or a folder inside a language's folder, are refused in one line when
    the package is read (the files are read into the problem, shipped to every worker)."""
    package = tmp_path / "included"
    shutil.copytree(PACKAGES / "included", package)
    (package / "include" / "fortran").mkdir()
    (package / "include" / "fortran" / "grader.f90").write_text("end\n")
    [warned] = include_checks(read_package(package))
    assert (warned.status, warned.detail.rsplit("; ", 1)[-1]) == (
        "WARN",
        "fortran: no language gridjudge runs, not included",
    ), warned
    (package / "problem.yaml").write_text("name: Double it\nlimits:\n  time_limit: 2\n")
    [failed] = include_checks(read_package(package))
    assert (failed.status, failed.detail) == (
        "FAIL",
        "include/default: the legacy format has no default includes (2023-07 on)",
    ), failed
    big = package / "include" / "cpp" / "tables.h"
    with big.open("wb") as out:
        out.truncate(17 << 20)  # sparse: read as 17 MB of zeros
    code, output = cli("import", str(package), "--out", str(tmp_path / "corpus"))
    assert code == 2, output
    assert output.strip().splitlines() == [f"error: {package / 'include'}: over 16 MB"], output
    big.unlink()
    (package / "include" / "cpp" / "Vector").mkdir()
    code, output = cli("import", str(package), "--out", str(tmp_path / "corpus"))
    assert code == 2, output
    assert output.strip().splitlines() == [
        f"error: {package / 'include/cpp/Vector'}: not a file (a language's files lie side by side)"
    ], output


@pytest.mark.parametrize(
    ("version", "status"), [("2023-07", "FAIL"), ("2025-09", "WARN"), ("legacy", "FAIL")]
)
def test_a_submission_over_the_code_limit(tmp_path: Path, version: str, status: str) -> None:
    """`limits.code` (KiB, default 128): a submission over it is a failure that is not
    run in the legacy and 2023-07 formats (problemtools errs and skips it), a warning in
    2025-09 (BAPCtools warns), and passes once the package raises the limit."""
    package = tmp_path / "included"
    shutil.copytree(PACKAGES / "included", package)
    shutil.rmtree(package / "include" / "default")  # none in the legacy format
    yaml = f"problem_format_version: {version}\nname: Double it\n"
    (package / "problem.yaml").write_text(yaml)
    big = package / "submissions" / "accepted" / "tabled.py"
    big.write_text("print(2 * int(input()))\n" + "#" * (129 << 10) + "\n")
    checks: list[Check] = []
    specs = specs_of(read_package(package), read_submissions(package), checks)
    [over] = [c for c in checks if c.name.endswith("accepted/tabled.py")]
    assert over.status == status, over
    assert over.detail.startswith("129.0 KiB of source, over limits.code (128 KiB)"), over
    assert ("accepted/tabled.py" in specs) == (status == "WARN")
    (package / "problem.yaml").write_text(yaml + "limits:\n  code: 130\n")
    checks = []
    specs = specs_of(read_package(package), read_submissions(package), checks)
    assert "accepted/tabled.py" in specs and not checks, checks
