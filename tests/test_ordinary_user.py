"""The sandbox of an ordinary user, where it makes its namespaces inside a user
namespace: the attacks that need what only root can set up for the user (host folders
under /opt and /var, a secret in the user's home) and the fork-server attacks
(tests/test_forkserver.py) run again as an unprivileged user and must give the same
verdicts as under root (the battery's files name them). The rest of the battery, and
the rest of the suite, run as an ordinary user in .ci/run's second `make test`.

CI runs as root: this test makes the user once (`useradd`, idempotent), plants a secret
in its home, and runs pytest as it through `runuser` (tests/as_user.py: the checkout and
interpreter bound where it can read them), with CI=true so that a skip there fails.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.as_user import bound_command

USER = "gridjudge-test"
# the user's files a submission must not see (ac_no_judge_files.py looks for them)
SECRET = ".ssh/id_gridjudge_test"
SUITES = ("tests/test_hostile.py", "tests/test_forkserver.py")
# of the battery, the attacks on the host folders and the user's secret root plants, and
# the tests that read them (test_hostile.chosen runs just these programs)
ROOTS_PLANTS = (
    "ac_no_writable_host_folder",
    "ac_compile_sees_no_host_files",
    "ac_view_details",
    "ac_write_outside_scratch",
    "ac_no_judge_files",
    "test_host_folders_are_planted",
    "test_a_compile_error_quotes_no_host_file",
)
SELECTED = " or ".join((*ROOTS_PLANTS, "test_forkserver"))
TIMEOUT_S = 1200


def _as(user: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["runuser", "-u", user, "--", *argv], capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="session")
def ordinary_user() -> pwd.struct_passwd:
    """An unprivileged user with a home holding a secret; skips where user namespaces are
    off (a machine may lack them; CI=true makes that a failure)."""
    for tool in ("useradd", "runuser", "unshare"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} not found")
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        made = subprocess.run(
            ["useradd", "--create-home", "--shell", "/bin/sh", USER],
            capture_output=True,
            text=True,
            check=False,
        )
        if made.returncode != 0 and "already exists" not in made.stderr:
            raise RuntimeError(f"useradd {USER}: {made.stderr.strip()}") from None
        entry = pwd.getpwnam(USER)
    home = Path(entry.pw_dir)
    home.mkdir(parents=True, exist_ok=True)
    secret = home / SECRET
    secret.parent.mkdir(mode=0o700, exist_ok=True)
    secret.write_text("SECRET\n")
    for path in (home, secret.parent, secret):
        os.chown(path, entry.pw_uid, entry.pw_gid)
    os.chmod(secret, 0o600)
    probe = _as(USER, "unshare", "--user", "--map-current-user", "true")
    if probe.returncode != 0:
        pytest.skip(f"no user namespaces for an ordinary user here: {probe.stderr.strip()}")
    return entry


@pytest.fixture
def host_folders(ordinary_user: pwd.struct_passwd) -> Iterator[int]:
    """A free loopback port N and the battery's folders under /var and /opt for it, made
    by root and given to the user (it cannot make them itself)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        number = probe.getsockname()[1]
    folders = [Path(f"/var/gj_sessions_{number}"), Path(f"/opt/gj_corpus_{number}")]
    for folder in folders:
        folder.mkdir()
        os.chown(folder, ordinary_user.pw_uid, ordinary_user.pw_gid)
    try:
        yield number
    finally:
        for folder in (*folders, Path(f"/tmp/gj_secret_{number}")):
            shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.needs_root(reason="making a test user and running as it (CI's root run does)")
def test_hostile_battery_and_fork_server_attacks_as_an_ordinary_user(
    ordinary_user: pwd.struct_passwd, host_folders: int
) -> None:
    home = ordinary_user.pw_dir
    env = {
        "HOME": home,
        "USER": USER,
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "CI": "true",  # a skip as the user is a failure
        "GRIDJUDGE_TEST_PORT": str(host_folders),
    }
    at = Path(tempfile.mkdtemp(prefix="gridjudge-user-"))
    os.chmod(at, 0o755)
    try:
        command = bound_command(
            USER,
            env,
            ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", "-k", SELECTED, *SUITES],
            at,
        )
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
        )
    finally:
        shutil.rmtree(at, ignore_errors=True)
    tail = (done.stdout + done.stderr)[-4000:]
    assert done.returncode == 0, tail
    assert " passed" in tail, tail
    # CI=true failed any other skip; a test needing root says so (tests/conftest.py)
    skips = [line for line in tail.splitlines() if line.startswith("SKIPPED")]
    assert all(": needs root: " in line for line in skips), tail
