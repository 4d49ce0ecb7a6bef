"""Files planted in a run folder the judge writes (issue 38): whoever owns `--out` can
put a symbolic link, a hard link or a file of theirs there at any time. Every file of
the run folder (the lock, run.json, the results parts, the summary, the gradebook, the
report, feedback) is opened relative to its folder's descriptor, never through a link,
and only when it is the judge's; a fresh `--out` holding anything but a `.lock` of the
judge's, or a run folder holding anything that is not gridjudge's, is refused in one
line. The target of a planted link is never touched, under every runner.

The two-user attack (a user's folder, root's grade) runs as root only; the same attack
with the judge's own files as targets runs as any user (and, in
tests/test_ordinary_user.py, as an ordinary user). Each command runs in a process of its
own, from the checkout, as a user would run it (and so that the problem plugins are
found as they are installed, not shadowed by tests/solvers)."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.results import store as run_folder

REPO = Path(__file__).resolve().parents[1]
GRIDJUDGE = "import sys; from pipeline.cli.app import main; sys.argv[0] = 'gridjudge'; main()"

SPOT = Path(__file__).resolve().parent / "submissions" / "spot"
# every runner a grade can use: the reference solver in the worker, a program forked
# from its fork server, spawned, and K cases per process
RUNNERS = {
    "in-process": ["-s", "solver:spot"],
    "fork-server": ["-s", str(SPOT / "ac_rotations.py")],
    "spawn": ["-s", str(SPOT / "ac_rotations.py"), "--no-fork-server"],
    "batch": ["-s", str(SPOT / "ac_rotations.py"), "--batch", "3"],
}
PRECIOUS = "precious: the judge must not touch this\n"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("c") / "spot"
    code, output = _cli("generate", "spot", "--count", "6", "--seed", "3", "--out", str(out))
    assert code == 0, output
    return out


@pytest.fixture(scope="module")
def finished(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run, scored, with its report: copied by each test that plants in it."""
    out = tmp_path_factory.mktemp("runs") / "done"
    code, output = _cli("grade", str(corpus), *RUNNERS["in-process"], "--out", str(out))
    assert code == 0, output
    return out


def _cli(*args: str) -> tuple[int, str]:
    if args[0] in ("grade", "generate"):
        args = (*args, "--address", "local-serial")
    env = {**os.environ, "GRIDJUDGE_RESULT_CACHE": "off", "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-c", GRIDJUDGE, *args],
        capture_output=True, text=True, cwd=REPO, env=env, check=False,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def _victim(folder: Path) -> Path:
    victim = folder / "victim"
    victim.write_text(PRECIOUS)
    victim.chmod(0o600)
    return victim


def _refused(code: int, output: str, *names: str) -> None:
    """Exit 2 and one error line naming the planted entry (report prints its tables
    before it writes)."""
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert code == 2 and len(errors) == 1 and "Traceback" not in output, output
    assert output.strip().splitlines()[-1] == errors[0], output
    assert any(n in errors[0] for n in names), output


def _copy(run: Path, to: Path) -> Path:
    """A copy of the run, without its kept policy (score writes it anew then)."""
    out = to / "run"
    shutil.copytree(run, out, symlinks=True)
    (out / "scoring.yaml").unlink()
    return out


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_lock_planted_as_a_link_in_a_fresh_out_is_refused(
    corpus: Path, tmp_path: Path, runner: str
) -> None:
    victim = _victim(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / run_folder.LOCK_FILE).symlink_to(victim)
    code, output = _cli("grade", str(corpus), *RUNNERS[runner], "--out", str(out))
    _refused(code, output, ".lock")
    assert "symbolic link" in output
    assert victim.read_text() == PRECIOUS
    assert sorted(p.name for p in out.iterdir()) == [run_folder.LOCK_FILE]


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_lock_planted_as_a_link_in_a_run_to_resume_is_refused(
    corpus: Path, finished: Path, tmp_path: Path, runner: str
) -> None:
    victim = _victim(tmp_path)
    out = _copy(finished, tmp_path)
    (out / run_folder.LOCK_FILE).unlink()
    (out / run_folder.LOCK_FILE).symlink_to(victim)
    args = ("grade", str(corpus), *RUNNERS[runner], "--out", str(out), "--resume")
    _refused(*_cli(*args), ".lock")
    assert victim.read_text() == PRECIOUS


def test_a_fresh_out_holding_a_file_of_its_own_or_a_folder_is_refused(
    corpus: Path, tmp_path: Path
) -> None:
    for planted in ("notes.txt", "results"):
        out = tmp_path / planted / "out"
        out.mkdir(parents=True)
        (out / planted).mkdir() if planted == "results" else (out / planted).write_text("x")
        code, output = _cli("grade", str(corpus), *RUNNERS["in-process"], "--out", str(out))
        _refused(code, output, planted)
        assert not (out / run_folder.RUN_JSON).exists()


def test_results_folder_planted_as_a_link_is_refused_on_resume(
    corpus: Path, finished: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = _copy(finished, tmp_path)
    parts = out / run_folder.RESULTS_DIR
    shutil.copytree(parts, elsewhere / "results")
    shutil.rmtree(parts)
    parts.symlink_to(elsewhere / "results", target_is_directory=True)
    before = sorted(p.name for p in (elsewhere / "results").iterdir())
    args = ("grade", str(corpus), *RUNNERS["in-process"], "--out", str(out), "--resume")
    _refused(*_cli(*args), "results")
    assert sorted(p.name for p in (elsewhere / "results").iterdir()) == before


# the temporary name of each file `report` and `score` (and the end of grade) write in
# a run folder, with the command that writes it
WRITTEN = {
    ".report.html.tmp": "report",
    ".summary.parquet.tmp": "report",
    ".gradebook.csv.tmp": "score",
    ".gradebook.parquet.tmp": "score",
    ".scoring.yaml.tmp": "score",
}


@pytest.mark.parametrize("name", WRITTEN)
def test_report_and_score_never_write_through_a_planted_hard_link(
    finished: Path, tmp_path: Path, name: str
) -> None:
    victim = _victim(tmp_path)
    out = _copy(finished, tmp_path)
    os.link(victim, out / name)
    _refused(*_cli(WRITTEN[name], str(out)), name)
    assert victim.read_text() == PRECIOUS


@pytest.mark.parametrize("name", WRITTEN)
def test_report_and_score_never_write_through_a_planted_link(
    finished: Path, tmp_path: Path, name: str
) -> None:
    victim = _victim(tmp_path)
    out = _copy(finished, tmp_path)
    (out / name).symlink_to(victim)
    _refused(*_cli(WRITTEN[name], str(out)), name)
    assert victim.read_text() == PRECIOUS


def test_feedback_folder_planted_as_a_link_is_refused(finished: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = _copy(finished, tmp_path)
    shutil.rmtree(out / "feedback")
    (out / "feedback").symlink_to(elsewhere, target_is_directory=True)
    _refused(*_cli("score", str(out)), "feedback")
    assert list(elsewhere.iterdir()) == []


# ------------------------------------------------------------ two users, as root


@pytest.fixture
def users_folder() -> Iterator[tuple[Path, pwd.struct_passwd]]:
    """A folder the user `nobody` owns, reachable by it (a fresh 0755 folder above)."""
    user = pwd.getpwnam("nobody")
    top = Path(tempfile.mkdtemp(prefix="gridjudge-two-users-"))
    top.chmod(0o755)
    owned = top / "users-out"
    owned.mkdir()
    os.chown(owned, user.pw_uid, user.pw_gid)
    try:
        yield owned, user
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _as_user(user: pwd.struct_passwd, *argv: str) -> None:
    subprocess.run(["runuser", "-u", user.pw_name, "--", *argv], check=True)


@pytest.mark.needs_root(reason="the judge of the two-user attack is root, the planter nobody")
@pytest.mark.parametrize("runner", RUNNERS)
def test_roots_grade_into_a_users_folder_never_writes_roots_file(
    corpus: Path, tmp_path: Path, users_folder: tuple[Path, pwd.struct_passwd], runner: str
) -> None:
    out, user = users_folder
    victim = _victim(tmp_path)  # root's, 0600, in a folder only root can enter
    _as_user(user, "ln", "-s", str(victim), str(out / run_folder.LOCK_FILE))
    code, output = _cli("grade", str(corpus), *RUNNERS[runner], "--out", str(out))
    _refused(code, output, ".lock")
    assert victim.read_text() == PRECIOUS and victim.stat().st_uid == 0
    # a `.lock` of the user's own (a plain file) is not the judge's either
    (out / run_folder.LOCK_FILE).unlink()
    _as_user(user, "touch", str(out / run_folder.LOCK_FILE))
    code, output = _cli("grade", str(corpus), *RUNNERS[runner], "--out", str(out))
    _refused(code, output, ".lock")
    assert "another user" in output
