"""An embedded Ray's session files and token are its user's alone: another local user
reads none of Ray's files (logs, sockets, session metadata), finds no token file in a
home it may traverse, and cannot pass the token check (pipeline/distribute/private_session.py).

The driver runs with a home others may traverse (0755, as useradd makes it here) and
Ray's base folder in a fresh 1777 folder (as /tmp), so that only this session's files
are looked at."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.distribute.private_session import private_root

REPO = Path(__file__).resolve().parents[1]

DRIVER = """
import json, operator, os, sys
from pathlib import Path
import ray
from pipeline.distribute.cluster import Cluster

with Cluster("local", num_cpus=1) as cluster:
    assert list(cluster.map_unordered(operator.neg, [1])) == [(1, -1)]  # a worker started
    token = os.environ.get("RAY_AUTH_TOKEN") or (Path.home() / ".ray/auth_token").read_text()
    session = ray._private.worker._global_node.get_session_dir_path()
    print(json.dumps({"session": session, "token": token.strip()}), flush=True)
    sys.stdin.readline()  # until the test has looked
"""

# what another user tries: every file under the folders given, read; every process's
# environment and command line, searched for the token
ATTACKER = """
import glob, os, sys
token = sys.stdin.readline().strip()
found = []
for top in sys.argv[1:]:
    for folder, dirs, files in os.walk(top):
        for name in files:
            try:
                with open(os.path.join(folder, name), "rb") as fh:
                    fh.read(1)
                found.append("read " + os.path.join(folder, name))
            except OSError:
                pass
for path in glob.glob("/proc/[0-9]*/environ") + glob.glob("/proc/[0-9]*/cmdline"):
    try:
        with open(path, "rb") as fh:
            if token.encode() in fh.read():
                found.append("token in " + path)
    except OSError:
        pass
print("\\n".join(found))
"""


@dataclass
class Session:
    home: Path
    base: Path
    session: Path
    token: str


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    """A driver's embedded Ray with a worker started, kept running while the tests look."""
    # (short: Ray's socket paths beneath it must stay under 108 bytes)
    home, base = Path(tempfile.mkdtemp(prefix="gjh")), Path(tempfile.mkdtemp(prefix="gjt"))
    os.chmod(home, 0o755)
    os.chmod(base, 0o1777)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAY_", "TMPDIR"))}
    env.update(HOME=str(home), RAY_TMPDIR=str(base), PYTHONPATH=str(REPO))
    driver = subprocess.Popen(
        [sys.executable, "-c", DRIVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )
    assert driver.stdout is not None and driver.stdin is not None
    try:
        line = driver.stdout.readline()
        assert line, driver.communicate(timeout=60)[1][-3000:]
        facts = json.loads(line)
        yield Session(home, base, Path(facts["session"]), facts["token"])
    finally:
        driver.communicate("done\n", timeout=120)
        for top in (home, base):
            shutil.rmtree(top, ignore_errors=True)


@pytest.mark.ray
def test_the_session_lies_in_a_folder_only_its_user_enters_and_no_token_file(
    session: Session,
) -> None:
    assert session.session.is_relative_to(session.base)
    private = session.base / session.session.relative_to(session.base).parts[0]
    info = private.lstat()
    assert stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()
    assert stat.S_IMODE(info.st_mode) == 0o700, oct(info.st_mode)
    assert sorted(p.name for p in session.base.iterdir()) == [private.name]
    assert not (session.home / ".ray").exists(), list((session.home / ".ray").iterdir())
    assert len(session.token) >= 32


@pytest.mark.ray
@pytest.mark.needs_root(reason="reading the files as another user needs a second user (runuser)")
def test_another_user_reads_no_file_of_the_session_and_finds_no_token(
    session: Session,
) -> None:
    looks_in = [str(session.base), str(session.home)]
    attacker = subprocess.run(
        ["runuser", "-u", "nobody", "--", "/usr/bin/python3", "-c", ATTACKER, *looks_in],
        input=session.token + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert attacker.returncode == 0, attacker.stderr
    assert attacker.stdout.strip() == "", attacker.stdout[:3000]


def test_a_folder_of_the_users_own_is_tightened(tmp_path: Path) -> None:
    mine = tmp_path / f"gridjudge-{os.geteuid()}"
    mine.mkdir(mode=0o777)
    os.chmod(mine, 0o777)  # as an earlier Ray left it
    assert private_root(tmp_path) == mine
    assert stat.S_IMODE(mine.stat().st_mode) == 0o700


def test_a_name_taken_by_something_else_is_never_used(tmp_path: Path) -> None:
    """Someone made the name first (here a link to a folder of theirs): the session
    goes to a fresh folder of its own and the link's target is left as it was."""
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o777)
    os.chmod(theirs, 0o777)
    (tmp_path / f"gridjudge-{os.geteuid()}").symlink_to(theirs)
    root = private_root(tmp_path)
    assert root.parent == tmp_path and root.name.startswith(f"gridjudge-{os.geteuid()}-")
    assert stat.S_IMODE(root.lstat().st_mode) == 0o700 and not root.is_symlink()
    assert stat.S_IMODE(theirs.stat().st_mode) == 0o777 and list(theirs.iterdir()) == []
