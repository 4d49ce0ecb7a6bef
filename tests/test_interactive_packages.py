"""Interactive and multi-pass packages the team wrote (tests/packages): `verify` gives
the verdicts their folders promise, under spawn and the fork server, and `grade` gives
each case's verdict by the format's rules, with its transcript (in the results, the
report and `inspect`); a crashing interactor is a judge error; a multi-pass validator
runs three passes with its feedback files kept between them, and asking for more than
`validation_passes` is a judge error; a testlib interactor's `tout` goes to the testlib
checker; a hostile submission finds nothing of the interactor's."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.program.languages import get_language, missing
from tests.fork_server_probe import require_fork_server

HERE = Path(__file__).resolve().parent
PACKAGES = HERE / "packages"
SERIAL = ("--address", "local-serial")


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


@pytest.fixture(autouse=True)
def _no_result_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRIDJUDGE_RESULT_CACHE", "off")


@pytest.fixture(params=[False, True], ids=["spawn", "fork-server"])
def fork(request: pytest.FixtureRequest) -> bool:
    for language in ("cpp", "python"):
        reason = missing(get_language(language))
        if reason is not None:
            pytest.skip(f"no {language} toolchain here: {reason}")
    if request.param:
        require_fork_server()
    return bool(request.param)


def runner_flag(fork: bool) -> str:
    return "--fork-server" if fork else "--no-fork-server"


def copy(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(PACKAGES / name, tmp_path / name, symlinks=True))


def graded(
    package: Path, tmp_path: Path, fork: bool, *subs: Path, flags: tuple[str, ...] = ()
) -> dict[tuple[str, str], Any]:
    """(submission file name, case id) -> its results row (`flags`: more of grade's)."""
    corpus, run = tmp_path / "corpus", tmp_path / "run"
    code, output = cli("import", str(package), "--problem", str(package), "--out", str(corpus))
    assert code == 0, output
    specs = [a for s in subs for a in ("-s", str(s))]
    code, output = cli(
        "grade", str(corpus), *specs, "--out", str(run), *SERIAL, runner_flag(fork), *flags
    )
    assert code == 0, output
    rows = pq.read_table(run / "results").to_pylist()
    return {(Path(r["submission"]).name, r["case_id"]): r for r in rows}


@pytest.mark.parametrize("name", ["guess_cpp", "guess_py", "guess_testlib", "triple"])
def test_the_interactive_and_multi_pass_packages_verify(name: str, fork: bool) -> None:
    code, output = cli("verify", str(PACKAGES / name), *SERIAL, "--repeat", "1", runner_flag(fork))
    assert code == 0, output
    subs = sorted(p for p in (PACKAGES / name / "submissions").rglob("*.*"))
    assert subs
    for sub in subs:
        rel = sub.relative_to(PACKAGES / name / "submissions").as_posix()
        assert f"PASS  {rel}: " in output, output
    assert "FAIL" not in output and "expectations hold" in output, output


def guesses(secret: int) -> list[int]:
    """The bisection's guesses for `secret`, computed here on its own."""
    low, high, out = 1, 1000, []
    while True:
        mid = (low + high) // 2
        out.append(mid)
        if mid == secret:
            return out
        low, high = (low, mid - 1) if mid > secret else (mid + 1, high)


def test_each_case_has_its_verdict_and_transcript(tmp_path: Path, fork: bool) -> None:
    package = PACKAGES / "guess_cpp"
    subs = package / "submissions"
    rows = graded(
        package, tmp_path, fork,
        subs / "accepted/bisect.cpp", subs / "wrong_answer/upwards.py",
        subs / "wrong_answer/gives_up.py", subs / "run_time_error/crashes.py",
        subs / "run_time_error/crash_after_correct.cpp",
    )  # fmt: skip
    runner = "fork-server" if fork else "spawn"
    accepted = rows["bisect.cpp", "sample/1"]
    assert accepted["verdict"] == "AC" and accepted["runner"] == runner, accepted
    lines = []
    for guess in guesses(537):
        reply = "correct" if guess == 537 else ("lower" if guess > 537 else "higher")
        lines += [f"> {guess}\\n", f"< {reply}\\n"]
    assert accepted["transcript"].splitlines() == lines
    # the interactor rejects first (out of guesses): WA with its judge message
    upwards = rows["upwards.py", "secret/2"]
    assert (upwards["verdict"], upwards["checker_msg"]) == ("WA", "10 guesses used")
    assert rows["upwards.py", "secret/1"]["verdict"] == "AC"  # the secret 1: first guess
    # ends without a guess, exit 0: the interactor's rejection is the verdict
    gave_up = rows["gives_up.py", "secret/1"]
    assert (gave_up["verdict"], gave_up["checker_msg"]) == ("WA", "no guess")
    assert gave_up["transcript"] == ""
    # ends first with a crash: RTE, even though the interactor then rejects
    crashed = rows["crashes.py", "sample/1"]
    assert crashed["verdict"] == "RE" and crashed["exit_code"] == 3, crashed
    assert crashed["transcript"].splitlines()[0] == "> 500\\n"
    # the interactor accepts and ends first; the crash after it is still the verdict
    late = rows["crash_after_correct.cpp", "secret/2"]
    assert late["verdict"] == "RE" and late["signal"] == 6, late

    run = tmp_path / "run"
    report = (run / "report.html").read_text()
    assert "transcript (&gt; submission, &lt; judge)" in report and "&gt; 500\\n" in report
    code, output = cli("inspect", str(run), "--case", "secret/2", "-s", upwards["submission"])
    assert code == 0 and "on secret/2: WA (10 guesses used)" in output, output
    assert "> 1\\n\n< higher\\n\n> 2\\n" in output
    code, output = cli(
        "inspect", str(run), "--case", "sample/1", "-s", accepted["submission"], "--transcript"
    )
    assert code == 0, output
    assert output.splitlines()[1:] == lines and ", run again: AC" in output
    for args, says in (
        (("--case", "nope"), "no results for case 'nope'"),
        (("--case", "sample/1", "-s", "nosuch", "--transcript"), "no submission 'nosuch'"),
    ):
        code, output = cli("inspect", str(run), *args)
        assert code == 2 and says in output and output.count("\n") == 1, output


def test_joined_pipes_give_the_same_verdicts_without_a_transcript(
    tmp_path: Path, fork: bool
) -> None:
    # --no-transcripts (verify's way): no judge between the two programs, nothing kept;
    # which side ended first, and so each verdict, as through the relay
    subs = PACKAGES / "guess_cpp/submissions"
    chosen = [
        subs / "accepted/bisect.cpp", subs / "wrong_answer/upwards.py",
        subs / "wrong_answer/gives_up.py", subs / "run_time_error/crashes.py",
        subs / "run_time_error/crash_after_correct.cpp",
        subs / "time_limit_exceeded/never_flushes.cpp",
    ]  # fmt: skip
    relayed = graded(PACKAGES / "guess_cpp", tmp_path / "relayed", fork, *chosen)
    joined = graded(
        PACKAGES / "guess_cpp", tmp_path / "joined", fork, *chosen, flags=("--no-transcripts",)
    )
    assert joined.keys() == relayed.keys()
    said = {k: (r["verdict"], r["checker_msg"], r["tle_kind"]) for k, r in relayed.items()}
    assert {k: (r["verdict"], r["checker_msg"], r["tle_kind"]) for k, r in joined.items()} == said
    assert {r["verdict"] for r in joined.values()} >= {"AC", "WA", "RE", "TLE"}
    assert all(r["transcript"] is None for r in joined.values())
    assert all(r["transcript"] is not None for r in relayed.values())


def test_a_submission_that_never_answers_gets_tle(tmp_path: Path, fork: bool) -> None:
    package = PACKAGES / "guess_cpp"
    rows = graded(
        package, tmp_path, fork, package / "submissions/time_limit_exceeded/never_flushes.cpp"
    )
    row = rows["never_flushes.cpp", "secret/1"]
    # it waits to read what the interactor waits for: ended as idle, not run again
    assert row["verdict"] == "TLE" and row["tle_kind"] == "idle", row
    assert row["cpu_ms"] < 500 and row["transcript"] == "", row
    assert row["checker_msg"].startswith("idle: "), row


@pytest.mark.parametrize("interactor", ["crashes.py", "crashes.cpp"])
def test_an_interactor_that_crashes_is_a_judge_error(
    tmp_path: Path, fork: bool, interactor: str
) -> None:
    package = copy("guess_py", tmp_path)
    folder = package / "output_validators/interactor"
    shutil.rmtree(folder)
    folder.mkdir()
    shutil.copy(HERE / "interact" / interactor, folder / interactor)
    rows = graded(package, tmp_path, fork, package / "submissions/accepted/bisect.cpp")
    assert rows["bisect.cpp", "secret/1"]["verdict"] == "AC"
    crashed = rows["bisect.cpp", "secret/2"]  # the secret 1000
    assert crashed["verdict"] == "JE", crashed
    said = "interactor bug" if interactor.endswith(".py") else "signal 6"
    assert said in crashed["checker_msg"], crashed


def test_three_passes_keep_the_feedback_files_between_them(tmp_path: Path, fork: bool) -> None:
    package = copy("triple", tmp_path)
    subs = package / "submissions"
    rows = graded(
        package, tmp_path, fork, subs / "accepted/doubles.py", subs / "wrong_answer/small_only.py"
    )
    for case, x in (("sample/1", 3), ("secret/1", 5), ("secret/2", 1)):
        assert rows["doubles.py", case]["verdict"] == "AC"
        # small_only doubles y < 10 only: the first pass whose input reaches 10 fails
        values = [x * 2**k for k in range(3)]
        failing = next((k for k, y in enumerate(values, 1) if y >= 10), None)
        row = rows["small_only.py", case]
        if failing is None:
            assert row["verdict"] == "AC"
            continue
        y = values[failing - 1]
        assert row["verdict"] == "WA", row
        # the pass number is the validator's own count, kept in its feedback dir
        assert f"pass {failing}: wanted {2 * y}, got {y + 1}" in row["checker_msg"], row


def test_more_passes_than_the_limit_is_a_judge_error(tmp_path: Path, fork: bool) -> None:
    package = copy("triple", tmp_path)
    yaml = package / "problem.yaml"
    yaml.write_text(yaml.read_text().replace("validation_passes: 3", "validation_passes: 2"))
    rows = graded(package, tmp_path, fork, package / "submissions/accepted/doubles.py")
    row = rows["doubles.py", "secret/1"]
    assert row["verdict"] == "JE" and "asked for pass 3 of 2" in row["checker_msg"], row


def test_the_testlib_checker_judges_what_the_interactor_wrote(tmp_path: Path, fork: bool) -> None:
    package = PACKAGES / "guess_testlib"
    subs = package / "submissions"
    rows = graded(
        package,
        tmp_path,
        fork,
        subs / "accepted/bisect.py",
        subs / "wrong_answer/eleven_guesses.py",
    )
    assert {rows["bisect.py", c]["verdict"] for c in ("sample/1", "secret/1", "secret/2")} == {"AC"}
    # 11 guesses for the secret 1: the interactor allows 12, the checker 10
    checked = rows["eleven_guesses.py", "secret/1"]
    assert (checked["verdict"], checked["checker_msg"]) == ("WA", "wrong answer: 11 guesses")
    told = rows["eleven_guesses.py", "sample/1"]
    assert (told["verdict"], told["checker_msg"]) == ("WA", "wrong answer: no guess")


@pytest.mark.parametrize(
    ("backend", "fork"),
    [("rlimit", False), ("rlimit", True), ("bwrap", False)],
    ids=["spawn", "fork-server", "bwrap"],
)
def test_a_submission_finds_nothing_of_the_interactors(
    tmp_path: Path, fork: bool, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for language in ("cpp", "python"):
        reason = missing(get_language(language))
        if reason is not None:
            pytest.skip(f"no {language} toolchain here: {reason}")
    if fork:
        require_fork_server()
    if backend == "bwrap":
        if shutil.which("bwrap") is None:
            pytest.skip("no bwrap on this machine")
        monkeypatch.setenv("GRIDJUDGE_SANDBOX", "bwrap")
    package = PACKAGES / "guess_cpp"
    rows = graded(package, tmp_path, fork, HERE / "interact/peeks.py")
    assert {r["runner"] for r in rows.values()} == {"fork-server" if fork else "spawn"}
    for case in ("sample/1", "secret/1", "secret/2"):
        row = rows["peeks.py", case]
        # its first line is what it found; the interactor rejects it, and the judge then
        # ends the submission, so whether its "1" got through is a matter of timing
        lines = row["transcript"].splitlines()
        assert lines[:1] == ["> found nothing\\n"], row
        assert lines[1:] in ([], ["> 1\\n"]), row
        assert row["verdict"] == "WA", row


def test_an_interactive_multi_pass_problem_runs_the_interaction_again(
    tmp_path: Path, fork: bool
) -> None:
    package = copy("guess_py", tmp_path)
    shutil.rmtree(package / "output_validators")
    (package / "output_validator").mkdir()
    shutil.copy(HERE / "interact/guess_twice.py", package / "output_validator/guess_twice.py")
    (package / "problem.yaml").write_text(
        "problem_format_version: 2023-07\ntype: interactive multi-pass\nname: Twice\n"
        "limits:\n  time_limit: 1\n"
    )
    rows = graded(package, tmp_path, fork, package / "submissions/accepted/bisect.cpp")
    for case, secret in (("sample/1", 537), ("secret/1", 1), ("secret/2", 1000)):
        row = rows["bisect.cpp", case]
        assert row["verdict"] == "AC", row
        first, second = row["transcript"].split("\n---\n")
        assert first.splitlines()[-1] == "< correct\\n"
        again = secret + 1 if secret < 1000 else secret - 1
        assert second.splitlines()[-2:] == [f"> {again}\\n", "< correct\\n"]
