"""`verify` reads verdicts as the format's own tool does (problemtools for the legacy and
2023-07 formats: a submission's verdict is its first rejected case's), tells
gridjudge's stricter findings as WARN lines that `--strict` fails, feeds the output
validator junk, and derives a time limit from the least of a case's runs."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pyarrow as pa
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.package.spec import read_package
from pipeline.package.submissions import FOLDERS, ExpectedSubmission
from pipeline.verify.expect import at_limit, judge_submission, tle_margin
from pipeline.verify.verdicts import FolderRules, format_verdict
from pipeline.verify.verification import _time_limit

PACKAGES = Path(__file__).resolve().parent / "packages"
SERIAL = ("--address", "local-serial", "--repeat", "1")


def verify(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["verify", *args])
    return result.exit_code, result.output


def copy(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(PACKAGES / name, tmp_path / name, symlinks=True))


def line(output: str, name: str) -> str:
    """The check line of `name` (its status first)."""
    found = [x for x in output.splitlines() if x[6:].startswith(f"{name}: ")]
    assert len(found) == 1, output
    return found[0]


def test_a_wrong_answer_that_times_out_later_passes_as_problemtools_and_fails_strict(
    tmp_path: Path,
) -> None:
    """late_tle's wrong answer is WA on the sample (the first case in the format's order)
    and spins on secret/2: problemtools stops at the WA and passes it."""
    package = copy("late_tle", tmp_path)
    code, output = verify(str(package), *SERIAL)
    assert code == 0, output
    wrong = line(output, "wrong_answer/late_spin.py")
    assert wrong.startswith("PASS  wrong_answer/late_spin.py: WA 1: verdict WA on sample/1")
    assert wrong.endswith("; 2 not run after its first rejected case")  # as problemtools
    code, output = verify(str(package), *SERIAL, "--strict")  # every case graded
    assert code == 1, output
    wrong = line(output, "wrong_answer/late_spin.py")
    assert wrong.startswith("FAIL  wrong_answer/late_spin.py: AC 1 TLE 1 WA 1: verdict WA")
    assert "stricter than the format's tool: TLE on secret/2" in wrong
    assert wrong.endswith("(--strict)") and "1 of 5 expectations failed" in output


def test_a_later_timeout_graded_anyway_is_a_warning(tmp_path: Path) -> None:
    """A folder that grades on past a rejection (`on_reject: continue`) and takes its
    first rejection's verdict (`first_error`): every case runs, the format's verdict is
    still WA, and the later TLE is told as a warning."""
    package = copy("late_tle", tmp_path)
    (package / "data" / "testdata.yaml").write_text(
        "on_reject: continue\ngrader_flags: first_error\n"
    )
    junit = tmp_path / "verify.xml"
    code, output = verify(str(package), *SERIAL, "--junit", str(junit))
    assert code == 0, output
    wrong = line(output, "wrong_answer/late_spin.py")
    assert wrong.startswith(
        "WARN  wrong_answer/late_spin.py: AC 1 TLE 1 WA 1: verdict WA on sample/1"
    )
    assert "stricter than the format's tool: TLE on secret/2" in wrong
    assert output.rstrip().endswith("all 5 expectations hold (time limit 1 s); 1 warning")
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "0"
    told = [c.findtext("system-out") or "" for c in suite.findall("testcase")]
    assert sum(t.startswith("warning: ") for t in told) == 1
    code, output = verify(str(package), *SERIAL, "--strict")
    assert code == 1 and line(output, "wrong_answer/late_spin.py").startswith("FAIL"), output
    # the worst verdict (problemtools' default aggregation) of a folder grading on: TLE
    (package / "data" / "testdata.yaml").write_text("on_reject: continue\n")
    code, output = verify(str(package), *SERIAL)
    assert code == 1, output
    assert "verdict TLE on secret/2" in line(output, "wrong_answer/late_spin.py")


def test_a_tle_submission_is_judged_at_the_limit_from_its_runs_at_the_margin(
    tmp_path: Path,
) -> None:
    """1.15 s of CPU, then a wrong answer: TLE at the 1 s limit, WA at limit x 2, as
    problemtools judges it (one run at the higher limit, read at both): the submission
    holds, its margin is a warning ("sensitive to time limit"), a failure with --strict.
    (The run needs its 1.15 s of CPU within the 5 s wall limit of limit x 2: on a machine
    loaded past about 8 runnable processes a core it is a wall-clock TLE instead.)"""
    package = copy("late_tle", tmp_path)
    tle = package / "submissions" / "time_limit_exceeded"
    tle.mkdir()
    slow_wrong = (
        "import time\nn = int(input())\nt = time.process_time()\n"
        "while time.process_time() - t < 1.15:\n    pass\nprint(2 * n + 1)\n"
    )
    (tle / "slow_wrong.py").write_text(slow_wrong)
    # the same as a wrong answer: TLE at the limit, WA at limit x 2: "OK with extra time"
    (package / "submissions" / "wrong_answer" / "slow_wrong.py").write_text(slow_wrong)
    code, output = verify(str(package), *SERIAL)
    assert code == 0, output
    assert line(output, "time_limit_exceeded/slow_wrong.py").startswith(
        "PASS  time_limit_exceeded/slow_wrong.py: TLE 1: verdict TLE on sample/1"
    )
    wrong = line(output, "wrong_answer/slow_wrong.py")
    assert wrong.startswith("WARN  wrong_answer/slow_wrong.py: TLE 1: verdict TLE on sample/1")
    assert "WA on sample/1" in wrong and "at limit x margin: sensitive to the time limit" in wrong
    margin = line(output, "margin time_limit_exceeded/slow_wrong.py")
    assert margin.startswith(
        "WARN  margin time_limit_exceeded/slow_wrong.py: no case over limit x 2"
    )
    code, output = verify(str(package), *SERIAL, "--strict")
    assert code == 1
    assert line(output, "margin time_limit_exceeded/slow_wrong.py").startswith("FAIL")
    assert line(output, "wrong_answer/slow_wrong.py").startswith("FAIL")


def test_rows_at_limit_x_margin_are_read_at_the_limit() -> None:
    rows = [
        {"case_id": "sample/1", "verdict": "AC", "cpu_ms": 800.0},
        {"case_id": "secret/1", "verdict": "WA", "cpu_ms": 1300.0},
    ]
    seen = at_limit(rows, 1.0)
    assert [r["verdict"] for r in seen] == ["AC", "TLE"] and rows[1]["verdict"] == "WA"
    sub = ExpectedSubmission(Path("time_limit_exceeded/x.py"), "time_limit_exceeded",
                             *FOLDERS["time_limit_exceeded"])  # fmt: skip
    assert judge_submission(sub, "x", seen, rules={"": FolderRules()}).status == "PASS"
    assert judge_submission(sub, "x", rows, rules={"": FolderRules()}).status == "FAIL"
    # a wrong answer TLE at the limit and WA at limit x 2: problemtools' "OK with extra
    # time", with its warning
    wrong = ExpectedSubmission(Path("wrong_answer/x.py"), "wrong_answer",
                               *FOLDERS["wrong_answer"])  # fmt: skip
    rules = {"": FolderRules()}
    assert judge_submission(wrong, "x", seen, rules=rules).status == "FAIL"
    assert judge_submission(wrong, "x", seen, rules=rules, high=rows).status == "WARN"
    assert judge_submission(wrong, "x", seen, rules=rules, high=seen).status == "FAIL"
    # no TLE at limit x 2: problemtools' warning (legacy, 2023-07), else a failure
    assert tle_margin("x", rows, 1.0, 2.0, warn=True).status == "WARN"
    assert tle_margin("x", rows, 1.0, 2.0).status == "FAIL"


def test_an_output_validator_writing_a_score_on_wa_fails(tmp_path: Path) -> None:
    """score_on_wa's validator writes score.txt before it judges, so a WA carries a
    score: problemtools' judge error, found by feeding the validator junk output."""
    package = copy("score_on_wa", tmp_path)
    code, output = verify(str(package), *SERIAL)
    assert code == 1, output
    fed = line(output, "output validator")
    assert fed.startswith(
        "FAIL  output validator: an empty output on sample/1: WA with a score.txt"
    )
    assert line(output, "accepted/echo.py").startswith("PASS")
    source = (package / "output_validator" / "validate.py").read_text()
    # a validator that crashes on an output it cannot parse (a new folder: a package's
    # problem is read once per path)
    validator = copy("score_on_wa", tmp_path / "crash") / "output_validator" / "validate.py"
    validator.write_text(source.replace("team = ", "int(sys.stdin.read().split()[0])\nteam = "))
    code, output = verify(str(validator.parents[1]), *SERIAL)
    assert code == 1, output
    fed = line(output, "output validator")
    assert fed.startswith("FAIL  output validator: an empty output on sample/1: judge error")
    # the score written only with an AC: every junk output is a clean WA
    validator = copy("score_on_wa", tmp_path / "clean") / "output_validator" / "validate.py"
    validator.write_text(source.replace("with open(feedback", "if right:\n  with open(feedback"))
    code, output = verify(str(validator.parents[1]), *SERIAL)
    assert code == 0, output
    assert line(output, "output validator").startswith(
        "PASS  output validator: 7 junk outputs on 2 cases: no crash, no score.txt on a WA"
    )


def test_junk_findings_on_a_2025_09_package_are_warnings(tmp_path: Path) -> None:
    """BAPCtools, the 2025-09 format's tool, feeds the validator no junk: there the same
    score on a rejection is a WARN line, which --strict fails."""
    package = copy("score_on_wa", tmp_path)
    yaml = package / "problem.yaml"
    yaml.write_text(yaml.read_text().replace("2023-07-draft", "2025-09"))
    code, output = verify(str(package), *SERIAL)
    assert code == 0, output
    assert line(output, "output validator") == (
        "WARN  output validator: an empty output on sample/1: WA with a score.txt (a score "
        "on a rejection: a judge error) (a warning on a 2025-09 package: BAPCtools feeds no junk)"
    )
    code, output = verify(str(package), *SERIAL, "--strict")
    assert code == 1, output


def test_the_limit_is_derived_from_the_least_of_a_cases_runs() -> None:
    """Load only adds CPU time: of the runs 230, 190 and 400 ms the median (230 ms x 5 =
    1.15 s) would derive 2 s, the least (190 ms x 5 = 0.95 s) the 1 s an unloaded machine
    derives; 0.95 s sits within 10 % of the 1 s boundary: a warning says so."""
    package = read_package(PACKAGES / "pairsum_py")  # legacy, no limit: time_multiplier 5
    accepted = pa.Table.from_pylist(
        [
            {
                "submission": "accepted/a.py",
                "case_id": "secret/1",
                "cpu_ms": 230.0,
                "cpu_ms_runs": [230.0, 190.0, 400.0],
            },
            {
                "submission": "accepted/a.py",
                "case_id": "secret/2",
                "cpu_ms": 120.0,
                "cpu_ms_runs": [120.0],
            },
        ]
    )
    limit, check = _time_limit(package, accepted)
    assert limit == 1.0
    assert "slowest accepted case 0.190 s (accepted/a.py, secret/1" in check.detail
    assert check.status == "WARN" and "within 10% of the 1 s rounding boundary" in check.detail
    far = accepted.set_column(
        accepted.schema.get_field_index("cpu_ms_runs"),
        "cpu_ms_runs",
        pa.array([[300.0, 290.0, 310.0], [120.0]]),
    )
    limit, check = _time_limit(package, far)  # 1.45 s: 2 s, far from a boundary
    assert limit == 2.0 and check.status == "PASS", check.detail


def test_the_format_verdict_follows_the_folders_rules() -> None:
    verdicts = {"sample/1": "AC", "secret/a/1": "WA", "secret/a/2": "TLE", "secret/b/1": "RE"}
    breaking = {"": FolderRules()}
    got = format_verdict(verdicts, breaking)
    assert got is not None and (got.verdict, got.case_id) == ("WA", "secret/a/1")
    on = {"": FolderRules("continue"), "secret": FolderRules("continue"),
          "secret/a": FolderRules("continue")}  # fmt: skip
    worst = format_verdict(verdicts, on)  # problemtools' worst_error: RTE before TLE, WA
    assert worst is not None and (worst.verdict, worst.case_id) == ("RE", "secret/b/1")
    first = {k: FolderRules("continue", ("first_error",)) for k in on}
    got = format_verdict(verdicts, first)
    assert got is not None and (got.verdict, got.case_id) == ("WA", "secret/a/1")
    lenient = {"": FolderRules("continue", ("accept_if_any_accepted",))}
    got = format_verdict(verdicts, {**on, **lenient})
    assert got is not None and got.verdict == "AC"
    # the format's order is by name, not natural: secret/10 comes before secret/9
    got = format_verdict({"secret/9": "TLE", "secret/10": "WA"}, breaking)
    assert got is not None and (got.verdict, got.case_id) == ("WA", "secret/10")
    assert format_verdict({}, breaking) is None
