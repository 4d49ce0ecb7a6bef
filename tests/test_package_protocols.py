"""The checker protocols as verdicts (pure: a checker's run -> the case's verdict), the
interactors' and the rule that makes an interactive case's verdict, and validator flags
per test data folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.grade.verdict import judge_interaction
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.package.protocols import interactive, protocol_for
from pipeline.package.protocols.contract import Case
from pipeline.problem.checkers import ACCEPTED, CheckResult
from pipeline.problem.registry import get_problem
from pipeline.schemas import Verdict

PACKAGES = Path(__file__).resolve().parent / "packages"


def run(exit_code: int | None = 0, **fields: object) -> ExecutionResult:
    return ExecutionResult(exit_code=exit_code, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("protocol", "result", "verdict", "says"),
    [
        ("kattis", run(42), "AC", ""),
        (
            "kattis",
            run(43, files={"judgemessage.txt": b"sum is 6\n  not 5\n"}),
            "WA",
            "sum is 6 not 5",
        ),
        ("kattis", run(43, files={"teammessage.txt": b"try again"}), "WA", "team: try again"),
        ("kattis", run(43, output=b"stdout is not the message"), "WA", ""),
        ("kattis", run(0), "JE", "exit code 0"),
        ("kattis", run(1, stderr_head=b"Traceback\nKeyError: 3\n"), "JE", "KeyError: 3"),
        ("kattis", run(None, signal=11), "JE", "signal 11"),
        ("kattis", run(42, cpu_exceeded=True), "JE", "ran out of time"),
        ("kattis", run(42, memory_exceeded=True), "JE", "ran out of memory"),
        ("kattis", run(42, judge_error="no launcher"), "JE", "no launcher"),
        ("testlib", run(0), "AC", ""),
        ("testlib", run(1, stderr_head=b"wrong answer 1st numbers differ"), "WA", "differ"),
        ("testlib", run(2, stderr_head=b"wrong output format"), "PE", "format"),
        ("testlib", run(4), "PE", ""),
        ("testlib", run(8), "PE", ""),
        ("testlib", run(3, stderr_head=b"answer is bad"), "JE", "FAIL: answer is bad"),
        ("testlib", run(7, stderr_head=b"points 0.5"), "WA", "partial points: points 0.5"),
        ("testlib", run(5), "JE", "exit code 5"),  # reserved by testlib
        ("testlib", run(130), "JE", "exit code 130"),  # above _pc(100)
        ("testlib", run(0, wall_exceeded=True), "JE", "ran out of time"),
    ],
)
def test_protocol_verdicts(protocol: str, result: ExecutionResult, verdict: str, says: str) -> None:
    check = protocol_for(protocol, scoring=False, bounded=True).verdict(result, CASE)
    assert str(check.verdict) == verdict
    assert says in check.message
    if verdict == "WA" and not says:
        assert check.message == ""
    assert check.score is None or protocol == "testlib"


CASE = Case("1 2\n", "3\n", "3\n")


@pytest.mark.parametrize(
    ("protocol", "result", "verdict", "score"),
    [
        # 2023-07 and later: score.txt multiplies the case's maximum (a fraction)
        (("kattis", True, True), run(42, files={"score.txt": b"0.25\n"}), "AC", 0.25),
        (("kattis", True, True), run(42), "AC", None),  # no score.txt: full (by verdict)
        (("kattis", True, True), run(42, files={"score.txt": b"1.5"}), "JE", None),
        (("kattis", True, True), run(42, files={"score.txt": b"many"}), "JE", None),
        (("kattis", True, True), run(43, files={"score.txt": b"0.5"}), "WA", None),
        (("kattis", False, True), run(42, files={"score.txt": b"0.5"}), "AC", None),  # pass-fail
        # legacy: score.txt is the case's score, worth score / accept_score (2 below)
        (("kattis", True, False), run(42, files={"score.txt": b"3"}), "AC", 1.5),
        (("kattis", True, False), run(42, files={"score.txt": b"-1"}), "JE", None),
        # testlib: quitp's points (a fraction), _pc(k) as exit 16 + k (k percent)
        (("testlib", True, True), run(7, stderr_head=b"points 0.4 close"), "WA", 0.4),
        (("testlib", True, True), run(7, stderr_head=b"points 1"), "AC", 1.0),
        (("testlib", True, True), run(7, stderr_head=b"points 3"), "JE", None),
        (("testlib", True, True), run(7, stderr_head=b"nothing"), "JE", None),
        (("testlib", True, True), run(16 + 30, stderr_head=b"partly"), "WA", 0.3),
        (("testlib", True, True), run(16 + 101), "JE", None),
    ],
)
def test_protocol_scores(
    protocol: tuple[str, bool, bool], result: ExecutionResult, verdict: str, score: float | None
) -> None:
    name, scoring, bounded = protocol
    case = Case("1 2\n", "3\n", "3\n", score_unit=1.0 if bounded else 2.0)
    check = protocol_for(name, scoring=scoring, bounded=bounded).verdict(result, case)
    assert (str(check.verdict), check.score) == (verdict, score)


def test_protocol_invocations() -> None:
    """What each program is given: Kattis the output on stdin and the feedback files read
    back, testlib the output as a file."""
    case = Case("in\n", "ans\n", "out\n", ("case_sensitive",))
    kattis = protocol_for("kattis", scoring=True, bounded=True).invocation(case)
    assert kattis.args == ["testcase.in", "testcase.ans", "./", "case_sensitive"]
    assert kattis.stdin == b"out\n" and "team.out" not in kattis.files
    assert set(kattis.read_back) == {"judgemessage.txt", "teammessage.txt", "score.txt"}
    testlib = protocol_for("testlib", scoring=True, bounded=True).invocation(case)
    assert testlib.args == ["testcase.in", "team.out", "testcase.ans"]
    assert testlib.files["team.out"] == b"out\n" and testlib.stdin == b""


def test_output_validator_flags_per_test_data_folder(tmp_path: Path) -> None:
    """problem.yaml's flags, then each folder's testdata.yaml's (inherited by sub-folders)."""
    package = Path(shutil.copytree(PACKAGES / "average", tmp_path / "p", symlinks=True))
    for name in ("2.in", "2.ans"):
        (package / "data/secret" / name).unlink()
    (package / "data/secret/group").mkdir()
    (package / "data/secret/group/1.in").write_text("5 6\n")
    (package / "data/secret/group/1.ans").write_text("5.5\n")
    (package / "data/secret/testdata.yaml").write_text(
        "output_validator_flags: float_absolute_tolerance 0.01\n"
    )
    problem = get_problem(str(package))
    off = {"1 2\n": "1.5\n", "3 4\n": "3.5\n", "5 6\n": "5.5\n"}
    got = {i: str(problem.check(i, a, f"{float(a) + 0.005}\n").verdict) for i, a in off.items()}
    # sample: problem.yaml's 1e-6; secret and its group: 1e-6 then 0.01 (the later wins)
    assert got == {"1 2\n": "WA", "3 4\n": "AC", "5 6\n": "AC"}
    # a case from elsewhere gets problem.yaml's flags
    assert str(problem.check("7 8\n", "7.5\n", "7.505\n").verdict) == "WA"


# --- interactive problems: the interactor's own verdict and the rule that combines it
# with the submission's run (grade.verdict.judge_interaction)


def test_an_interactor_that_writes_nextpass_and_rejects_is_a_judge_error() -> None:
    interactor = interactive.KattisInteractor()
    case = Case("5\n", "10\n", "")
    rejected = run(43, files={"nextpass.in": b"7\n"})
    assert interactor.verdict(rejected, case).verdict == Verdict.JE
    assert interactor.verdict(run(42, files={"nextpass.in": b"7\n"}), case).verdict == Verdict.AC
    assert interactor.verdict(run(0), case).verdict == Verdict.JE  # 0 is no verdict


def test_a_testlib_interactor_is_called_with_input_and_tout() -> None:
    call = interactive.TestlibInteractor().invocation(Case("5\n", "10\n", ""))
    assert call.args == ["testcase.in", "tout"] and call.read_back == ("tout",)
    assert interactive.TestlibInteractor().verdict(run(3), Case("", "", "")).verdict == Verdict.JE


LIMITS = Limits.from_seconds(1.0)
WRONG = CheckResult(Verdict.WA, "wrong")
BROKEN = CheckResult(Verdict.JE, "interactor crashed")


@pytest.mark.parametrize(
    ("submission", "check", "first", "verdict"),
    [
        (run(0), ACCEPTED, False, Verdict.AC),
        (run(0), WRONG, False, Verdict.WA),
        # the interactor failed: JE, whatever the submission did
        (run(None, cpu_exceeded=True, cpu_ms=1500.0), BROKEN, False, Verdict.JE),
        # it rejected first: WA, though the submission then crashed or ran out of time
        (run(None, signal=13), WRONG, True, Verdict.WA),
        (run(None, wall_exceeded=True), WRONG, True, Verdict.WA),
        # the submission ended first: its crash or time is the verdict
        (run(3), WRONG, False, Verdict.RE),
        (run(None, wall_exceeded=True), WRONG, False, Verdict.TLE),
        # accepted, then the submission crashed (ending second): RE
        (run(None, signal=6), ACCEPTED, True, Verdict.RE),
        (run(0, memory_exceeded=True), ACCEPTED, True, Verdict.MLE),
    ],
)
def test_the_verdict_of_an_interaction(
    submission: ExecutionResult, check: CheckResult, first: bool, verdict: Verdict
) -> None:
    assert judge_interaction(LIMITS, submission, check, first).verdict == verdict


def test_a_checker_that_cannot_start_is_the_judges_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    """checked_run, the one place a checker program runs (run_checker, the testlib checker
    after an interactor, a multi-pass validator): a run that raises is JE, no traceback."""
    from pipeline.package import programs
    from pipeline.package.protocols.kattis import KattisValidator

    def missing(*_args: object, **_kwargs: object) -> None:
        raise FileNotFoundError("validate: gone from this node")

    monkeypatch.setattr(programs.execute, "run", missing)
    case = Case("1 2\n", "3\n", "3\n")
    check, files = programs.checked_run(object(), KattisValidator(), case)  # type: ignore[arg-type]
    assert check.verdict == Verdict.JE and "gone from this node" in check.message
    assert files == {}
