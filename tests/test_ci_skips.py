"""tests/conftest.py turns a skip into a failure under CI=true (and only there): CI must
have everything a test needs. Checked by running pytest on tiny test files with it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")

TESTS = """
import pytest

def test_passes():
    pass

def test_skips():
    pytest.skip("needs a GPU")

@pytest.mark.skipif(True, reason="not on this OS")
def test_marked_skip():
    pass

@pytest.mark.xfail(reason="known bug", strict=True)
def test_expected_failure():
    assert False
"""

MODULE_SKIP = """
import pytest

pytest.importorskip("no_such_module_anywhere")

def test_never_collected():
    pass
"""


def run_pytest(tmp_path: Path, source: str, ci: str | None) -> subprocess.CompletedProcess[str]:
    (tmp_path / "conftest.py").write_text(CONFTEST.read_text())
    (tmp_path / "test_tiny.py").write_text(source)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    if ci is not None:
        env["CI"] = ci
    # hypothesis' plugin is not needed here and costs seconds to load
    args = ["-rA", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "test_tiny.py"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_skip_fails_under_ci(tmp_path: Path) -> None:
    run = run_pytest(tmp_path, TESTS, "true")
    out = run.stdout
    assert run.returncode == 1, out
    assert "1 failed, 1 passed, 1 xfailed, 1 error" in out, out  # a skip in setup: an error
    assert "FAILED test_tiny.py::test_skips - skipped under CI=true" in out, out
    assert "ERROR test_tiny.py::test_marked_skip - skipped under CI=true" in out, out
    assert "needs a GPU" in out and "not on this OS" in out, out


def test_a_module_level_skip_fails_under_ci(tmp_path: Path) -> None:
    run = run_pytest(tmp_path, MODULE_SKIP, "true")
    assert run.returncode != 0, run.stdout
    assert "ERROR test_tiny.py" in run.stdout, run.stdout
    assert "no_such_module_anywhere" in run.stdout, run.stdout


@pytest.mark.parametrize("ci", [None, "false"])
def test_a_skip_stays_a_skip_outside_ci(tmp_path: Path, ci: str | None) -> None:
    run = run_pytest(tmp_path, TESTS, ci)
    assert run.returncode == 0, run.stdout
    assert "1 passed, 2 skipped, 1 xfailed" in run.stdout, run.stdout
    run = run_pytest(tmp_path, MODULE_SKIP, ci)
    assert run.returncode == 5, run.stdout  # nothing ran: the module was skipped
    assert "1 skipped" in run.stdout, run.stdout


ROOT_ONLY = """
import pytest

@pytest.mark.needs_root(reason="writes /opt")
def test_root_only():
    pass

def test_unmarked_says_it_needs_root():
    pytest.skip("needs root: writes /opt")
"""


def test_only_a_needs_root_skip_of_an_ordinary_user_passes_under_ci(tmp_path: Path) -> None:
    """CI runs the suite as root and as an ordinary user: a test marked needs_root runs
    as root and, as anyone else, skips saying why without failing; a skip that only says
    the same words fails under CI as any other."""
    run = run_pytest(tmp_path, ROOT_ONLY, "true")
    out = run.stdout
    assert run.returncode == 1, out
    assert "FAILED test_tiny.py::test_unmarked_says_it_needs_root - skipped under CI" in out, out
    if os.geteuid() == 0:
        assert "1 failed, 1 passed" in out, out
    else:
        assert "1 failed, 1 skipped" in out, out
        assert re.search(r"^SKIPPED \[1\] \S+: needs root: writes /opt$", out, re.M), out
