"""`gridjudge verify` on the team's small packages (tests/packages): every expectation
reported, exit 1 on a mismatch naming it, JUnit XML, the time limit derived from the
accepted submissions and the TLE margin, and the one-line errors."""

from __future__ import annotations

import compileall
import itertools
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.package.spec import read_package
from pipeline.package.submissions import FOLDERS, ExpectedSubmission
from pipeline.program.languages import all_languages
from pipeline.verify.expect import derive_time_limit, judge_submission, least_ms, slowest
from pipeline.verify.runs import SERIAL_RUNS, VerifyOptions, executor
from pipeline.verify.verification import verify_package
from tests.cli_output import without_isolation_line
from tests.test_languages_golden import usable

PACKAGES = Path(__file__).resolve().parent / "packages"
SERIAL = ("--address", "local-serial", "--repeat", "1")
SPIN = "while True:\n    pass\n"


def verify(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["verify", *args])
    return result.exit_code, without_isolation_line(result.output)


def copy(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(PACKAGES / name, tmp_path / name, symlinks=True))


def lines(output: str, status: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(status)]


@pytest.mark.parametrize(
    "name", ["average", "groups", "pairsum_cpp", "pairsum_py", "pairsum_testlib"]
)
def test_the_team_packages_verify(name: str) -> None:
    code, output = verify(str(PACKAGES / name), *SERIAL)
    assert code == 0, output
    subs = sorted(p for p in (PACKAGES / name / "submissions").rglob("*.py"))
    for sub in subs:  # one line per submission, and one per accepted margin
        rel = sub.relative_to(PACKAGES / name / "submissions").as_posix()
        assert f"PASS  {rel}: " in output, output
    assert "PASS  inputs: every input is valid" in output
    assert "PASS  time limit: 1 s" in output
    assert not lines(output, "FAIL") and "expectations hold" in output


def test_a_submission_in_the_wrong_folder_fails_by_name(tmp_path: Path) -> None:
    package = copy("average", tmp_path)
    (package / "submissions" / "wrong_answer" / "far.py").rename(
        package / "submissions" / "accepted" / "far.py"
    )
    junit = tmp_path / "out" / "verify.xml"
    code, output = verify(str(package), "--junit", str(junit), *SERIAL)
    assert code == 1, output
    failed = lines(output, "FAIL")
    # as problemtools reads it: the first rejected case decides, and grading stops there
    assert len(failed) == 1 and failed[0].startswith("FAIL  accepted/far.py: WA 1: verdict WA on ")
    assert failed[0].endswith(", expected AC; 2 not run after its first rejected case")
    assert "PASS  accepted/close.py: AC 3" in output
    assert "1 of 6 expectations failed" in output
    root = ET.parse(junit).getroot()
    suite = root.find("testsuite")
    assert suite is not None and suite.get("tests") == "6" and suite.get("failures") == "1"
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases if c.find("failure") is not None] == ["accepted/far.py"]
    kinds = {c.get("classname") for c in cases}
    assert kinds == {"input validation", "submission", "time limit"}


def test_a_prebuilt_executable_is_passed_over_as_problemtools_does(tmp_path: Path) -> None:
    package = copy("pairsum_py", tmp_path)
    built = package / "submissions" / "accepted" / "split.py.bin"  # a build left behind
    built.write_text("#!/bin/sh\necho 0\n")
    built.chmod(0o755)
    code, output = verify(str(package), *SERIAL)
    assert code == 0, output  # it would get WA everywhere if run
    assert "SKIP  accepted/split.py.bin: a prebuilt executable, no source: not run" in output


def test_byte_code_caches_beside_the_programs_are_not_programs(tmp_path: Path) -> None:
    package = copy("guess_py", tmp_path)
    # what running the Python validators and submissions in place leaves beside them
    compileall.compile_dir(package, quiet=1, force=True)
    caches = list(package.rglob("__pycache__"))
    assert len(caches) >= 3
    code, output = verify(str(package), *SERIAL)
    assert code == 0 and "__pycache__" not in output, output


def test_python_submissions_run_under_pypy_as_problemtools_runs_them(tmp_path: Path) -> None:
    if shutil.which("pypy3") is None:
        pytest.skip("pypy3 is not installed")
    package = copy("pairsum_py", tmp_path)
    # right only under PyPy, as a package's Python written for Kattis is timed there
    (package / "submissions" / "accepted" / "split.py").write_text(
        "import platform\nn = int(input())\n"
        "print(n, 0 if platform.python_implementation() == 'PyPy' else 1)\n"
    )
    code, output = verify(str(package), *SERIAL)  # by default, where pypy3 is installed
    assert code == 0, output
    code, output = verify(str(package), *SERIAL, "--python", "pypy3")
    assert code == 0, output
    code, output = verify(str(package), *SERIAL, "--python", "py3")
    assert code == 1 and "FAIL  accepted/split.py: WA" in output, output
    # a package that says its Python is CPython's (gridjudge's exports do) gets CPython
    yaml = package / "problem.yaml"
    yaml.write_text(yaml.read_text() + "\ngridjudge:\n  python: py3\n")
    code, output = verify(str(package), *SERIAL)
    assert code == 1 and "FAIL  accepted/split.py: WA" in output, output
    yaml.write_text(yaml.read_text().replace("python: py3", "python: jython"))
    code, output = verify(str(package), *SERIAL)
    assert code == 2 and "gridjudge.python must be one of py3, pypy3" in output, output
    code, output = verify(str(package), *SERIAL, "--python", "ruby")
    assert code == 2 and "--python ruby: one of py3, pypy3" in output, output


def test_a_wrong_answer_that_is_right_fails(tmp_path: Path) -> None:
    package = copy("pairsum_py", tmp_path)
    shutil.copy(
        package / "submissions" / "accepted" / "split.py",
        package / "submissions" / "wrong_answer" / "right.py",
    )
    code, output = verify(str(package), *SERIAL)
    assert code == 1, output
    assert "FAIL  wrong_answer/right.py: AC 2: verdict AC, expected WA" in output


def test_each_rejected_input_is_reported_and_the_rest_still_graded(tmp_path: Path) -> None:
    package = copy("average", tmp_path)
    for name in ("4", "5"):  # (2.in is a symlink to sample/1.in)
        (package / "data" / "secret" / f"{name}.in").write_text("3 4000\n")
        (package / "data" / "secret" / f"{name}.ans").write_text("2001.5\n")
    junit = tmp_path / "verify.xml"
    code, output = verify(str(package), "--junit", str(junit), *SERIAL)
    assert code == 1, output
    failed = lines(output, "FAIL")
    assert [f.split(":")[0] for f in failed] == [
        "FAIL  input data/secret/4.in",
        "FAIL  input data/secret/5.in",
    ]
    assert "rejected: input validator validate.py exit code 43" in failed[0]
    assert "PASS  accepted/close.py: AC 3" in output  # the three valid inputs
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "2"


def test_partially_accepted_score_is_checked(tmp_path: Path) -> None:
    package = copy("groups", tmp_path)
    (package / "submissions" / "submissions.yaml").write_text(
        "partially_accepted/small_only.py:\n  score: [40, 60]\n"
    )
    code, output = verify(str(package), *SERIAL)
    assert code == 1, output
    assert (
        "FAIL  partially_accepted/small_only.py: AC 4 WA 1; score 70 of 100: score 70, "
        "expected 40-60" in output
    )


def test_time_limit_is_derived_and_a_tle_submission_must_exceed_the_margin(
    tmp_path: Path,
) -> None:
    package = copy("pairsum_py", tmp_path)  # legacy, no time limit: 5 x the slowest accepted
    assert not read_package(package).time_limit_given
    tle = package / "submissions" / "time_limit_exceeded"
    tle.mkdir()
    (tle / "spin.py").write_text(SPIN)
    shutil.copy(package / "submissions" / "accepted" / "split.py", tle / "fast.py")
    work = tmp_path / "work"
    code, output = verify(
        str(package), "--work", str(work), "--address", "local-serial", "--repeat", "2"
    )
    assert code == 1, output
    assert "PASS  time limit: 1 s derived: slowest accepted case " in output
    assert "x 5, rounded up to a multiple of 1 s" in output
    # graded up to its first rejected case, as problemtools grades it: the other case is
    # not run
    spin = "PASS  time_limit_exceeded/spin.py: TLE 1: verdict TLE on sample/1"
    assert spin in output and "; 1 not run after its first rejected case" in output
    assert "PASS  margin time_limit_exceeded/spin.py: over limit x 2 = 2 s on 1 case" in output
    assert "FAIL  time_limit_exceeded/fast.py: AC 2: verdict AC, expected TLE" in output
    # legacy: under limit x margin is problemtools' warning ("sensitive to time limit")
    assert "WARN  margin time_limit_exceeded/fast.py: no case over limit x 2 = 2 s" in output
    # one run folder per submission, in the order graded, under each step's folder;
    # its cases far from any time that matters (milliseconds): run once, not repeated
    rows = [r for d in sorted((work / "accepted").iterdir()) for r in results(d)]
    assert rows and all(len(r["cpu_ms_runs"]) == 1 for r in rows)
    spun = [r for d in sorted((work / "margin").iterdir()) for r in results(d)]
    spin = [r for r in spun if "spin" in r["submission"]]
    assert {r["verdict"] for r in spin} == {"TLE"}
    # the TLE ran once, not once per repeat (engine._rounds); the case after it not at all
    assert sorted(r["tle_kind"] for r in spin) == ["cpu", "not-run"]
    assert [len(r["cpu_ms_runs"]) for r in spin if r["tle_kind"] == "cpu"] == [1]


def results(run: Path) -> list[dict[str, Any]]:
    return pq.read_table(run / "results").to_pylist()


def expected(folder: str, message: str = "") -> ExpectedSubmission:
    permitted, required = FOLDERS[folder]
    return ExpectedSubmission(Path(f"{folder}/x.py"), folder, permitted, required, None, message)


def rows(*verdicts: str, message: str = "") -> list[dict[str, object]]:
    return [
        {"case_id": f"secret/{i}", "verdict": v, "checker_msg": message, "cpu_ms": 1.0}
        for i, v in enumerate(verdicts)
    ]


def test_verdicts_are_judged_as_the_format_names_them() -> None:
    rte = expected("run_time_error")
    assert judge_submission(rte, "r", rows("AC", "MLE")).ok  # out of memory is a crash
    assert judge_submission(expected("wrong_answer"), "w", rows("AC", "PE")).ok
    ce = judge_submission(expected("wrong_answer"), "w", rows("CE", "CE"))
    assert not ce.ok and "CE on secret/0" in ce.detail and "no case got WA" in ce.detail
    je = judge_submission(expected("accepted"), "a", rows("AC", "JE"))
    assert not je.ok and je.detail.startswith("AC 1 JE 1: JE on secret/1")
    said = expected("wrong_answer", message="token 2")
    assert judge_submission(said, "w", rows("WA", message="WA: token 2 differs")).ok
    assert "no judge message contains" in judge_submission(said, "w", rows("WA")).detail
    partial = expected("partially_accepted")
    assert judge_submission(partial, "p", rows("AC", "WA"), score=(30.0, 100.0)).ok
    full = judge_submission(partial, "p", rows("AC", "AC"), score=(100.0, 100.0))
    assert not full.ok and "above 0, below 100" in full.detail


def test_a_served_case_is_timed_with_its_start_up_as_a_limit_is_derived() -> None:
    """The time a limit is derived from is the whole process's, as problemtools times a
    program: the least of a case's runs plus the start-up its server was charged (a
    PyPy program served by the zygote: 0.139 s of its own, 0.217 s with the
    interpreter's start-up; x 5 that is 1 s against 2 s)."""
    served = {"cpu_ms": 150.0, "cpu_ms_runs": [150.0, 139.0, 160.0], "start_cpu_ms": 78.0}
    spawned = {"cpu_ms": 180.0, "cpu_ms_runs": [180.0], "start_cpu_ms": 0.0}
    assert least_ms(served) == 217.0 and least_ms(spawned) == 180.0
    assert least_ms({"cpu_ms": 90.0, "cpu_ms_runs": None, "start_cpu_ms": None}) == 90.0
    assert slowest([spawned, served]) is served
    assert derive_time_limit(least_ms(served) or 0.0, 5.0, 1.0) == 2.0


def test_derive_time_limit() -> None:
    assert derive_time_limit(412.0, 5.0, 1.0) == 3.0
    assert derive_time_limit(500.0, 2.0, 1.0) == 1.0  # exactly a multiple: not one more
    assert derive_time_limit(3.0, 2.0, 1.0) == 1.0  # at least one resolution
    assert derive_time_limit(130.0, 2.0, 0.25) == 0.5
    assert derive_time_limit(1100.0, 1.5, 0.5) == 2.0


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    code, output = verify(str(tmp_path), *SERIAL)
    assert code == 2 and output.startswith("error: ") and "not a problem package" in output
    assert len(output.strip().splitlines()) == 1
    package = copy("average", tmp_path)
    shutil.rmtree(package / "submissions")
    code, output = verify(str(package), *SERIAL)
    assert code == 2 and "no submission in a verdict folder" in output, output
    assert len(output.strip().splitlines()) == 1


def test_author_submissions_run_as_problemtools_runs_them(tmp_path: Path) -> None:
    """A C++ submission is compiled as C++23 (problemtools' gnu++23), so one that uses
    std::to_underlying is accepted, not CE as under gridjudge's default cpp17."""
    usable(all_languages()["cpp23"])
    package = copy("average", tmp_path)
    (package / "submissions" / "accepted" / "modern.cpp").write_text(
        "#include <cstdio>\n#include <utility>\nenum class E : int { zero };\n"
        'int main() { long long a, b; std::scanf("%lld %lld", &a, &b);\n'
        '  std::printf("%.9f\\n", (a + b) / 2.0 + std::to_underlying(E::zero)); }\n'
    )
    code, output = verify(str(package), *SERIAL)
    assert code == 0, output
    assert "PASS  accepted/modern.cpp: AC 3" in output


def test_progress_tells_each_submission_and_the_derived_limit(tmp_path: Path) -> None:
    package = copy("average", tmp_path)
    code, output = verify(str(package), *SERIAL)
    assert code == 0, output
    told = [line for line in output.splitlines() if line.startswith("... ")]
    # the limit is given: nothing is measured, every submission is graded in one step;
    # the accepted submission at the limit, the wrong answer at limit x margin (read at
    # both, as problemtools reads it)
    assert told[0] == "... time limit: 1 s, given by the package"
    assert told[1].startswith("... accepted/close.py: AC 3 (at 1 s; 1 of 2 submissions graded")
    assert told[2].startswith("... wrong_answer/far.py: WA 1 (at 2 s; 2 of 2 submissions")
    assert len(told) == 3
    pairsum = copy("pairsum_py", tmp_path)  # no time limit given: measured, then derived
    (pairsum / "problem.yaml").write_text("name: Pair sum\nvalidation: custom\n")
    code, output = verify(str(pairsum), *SERIAL)
    told = [line for line in output.splitlines() if line.startswith("... ")]
    assert told[0] == "... measuring the time limit: accepted submissions at 60 s", output
    assert any(t.startswith("... time limit: 1 s derived: slowest accepted case") for t in told)


def test_budget_stops_between_submissions_and_names_what_was_not_checked(
    tmp_path: Path,
) -> None:
    """A clock that moves 6 s per look: the first submission is graded (6 s < 10 s), the
    next look (18 s) is over the budget."""
    package = copy("average", tmp_path)
    ticks = itertools.count(0, 6)
    options = VerifyOptions(
        package, repeat=1, address="local-serial", budget_s=10, clock=lambda: next(ticks)
    )
    result = verify_package(options)
    status = {c.name: c.status for c in result.checks}
    assert status["accepted/close.py"] == "PASS"
    assert status["wrong_answer/far.py"] == "SKIP" and not result.failures
    skipped = next(c for c in result.checks if c.name == "wrong_answer/far.py")
    assert skipped.detail == "not checked: the --budget ran out first"
    code, output = verify(str(package), *SERIAL, "--budget", "1e-9")  # nothing graded
    assert code == 0, output
    assert "SKIP  accepted/close.py: not checked" in output
    assert "SKIP  margin accepted/close.py: not checked" in output
    assert output.rstrip().endswith("; 3 not checked")
    code, output = verify(str(package), *SERIAL, "--budget", "0")
    assert code == 2 and "--budget must be a positive number" in output


def test_only_cases_whose_time_may_matter_are_repeated(tmp_path: Path) -> None:
    """A repeat only lowers the least of a case's runs, which is what verify reads: a
    case is repeated only when its first run reached the time that matters (here the
    derived limit's floor, 1 s / time_multiplier 2 = 0.5 s), never below it."""
    package = copy("average", tmp_path)
    yaml = package / "problem.yaml"
    yaml.write_text(yaml.read_text() + "  time_multiplier: 2\n")
    (package / ".timelimit").unlink()  # derived
    (package / "data" / "secret" / "3.in").write_text("10 20\n")
    (package / "data" / "secret" / "3.ans").write_text("15.0\n")
    # secret/1 (3 4) burns 0.6 s of CPU: over 0.5 s, repeated; secret/3 (10 20) 0.3 s
    # and the rest a few ms: below it, run once (a factor-2 rule repeated secret/3 too)
    (package / "submissions" / "accepted" / "slow.py").write_text(
        "import time\na, b = map(int, input().split())\n"
        "burn = {3: 0.6, 10: 0.3}.get(a, 0.0)\n"
        "t = time.process_time()\n"
        "while time.process_time() - t < burn:\n    pass\n"
        'print(f"{(a + b) / 2 + 1e-8:.9f}")\n'
    )
    work = tmp_path / "work"
    code, output = verify(
        str(package), "--work", str(work), "--address", "local-serial", "--repeat", "3"
    )
    assert code == 0 and "PASS  accepted/slow.py: AC 4" in output, output
    runs = {
        (r["submission"], r["case_id"]): len(r["cpu_ms_runs"])
        for d in sorted((work / "accepted").iterdir())
        for r in results(d)
        if r["tle_kind"] != "not-run"  # far.py's cases after its first WA
    }
    slow = {case: n for (sub, case), n in runs.items() if sub == "accepted/slow.py"}
    assert slow == {"sample/1": 1, "secret/1": 3, "secret/2": 1, "secret/3": 1}, runs
    assert {n for (sub, _), n in runs.items() if sub == "accepted/close.py"} == {1}


def test_a_small_package_is_graded_without_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert executor(None, SERIAL_RUNS) == "local-serial"
    assert executor(None, SERIAL_RUNS + 1) is None  # the embedded Ray
    assert executor("local", 1) == "local"  # asked for
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.5:6379")
    assert executor(None, 1) is None  # Cluster joins RAY_ADDRESS's
