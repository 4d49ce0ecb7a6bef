"""The tree remover on trees a hostile program could build: deeper than Python's
recursion limit and the fd limit, unreadable and unwritable directories, odd names,
links pointing out of the tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.sandbox.base import QUARANTINE, runs_root, sweep_stale_runs
from pipeline.sandbox.remove import remove_tree

DEPTH = 5000


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A folder on tmpfs, where run folders live (5000 levels on a disk take seconds)."""
    shm = Path("/dev/shm")
    where = Path(tempfile.mkdtemp(dir=shm if shm.is_dir() else None))
    yield where
    shutil.rmtree(where, ignore_errors=True)


def deep_chain(top: Path, depth: int) -> None:
    """A chain of `depth` directories under `top`, built fd-relative (no path is short
    enough to name the bottom), with a file at every 100th level."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for level in range(depth):
            os.mkdir("d", dir_fd=fd)
            sub = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = sub
            if level % 100 == 0:
                os.close(os.open("f\nx y", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
    finally:
        os.close(fd)


def test_removes_a_tree_deeper_than_recursion_and_fd_limits(scratch: Path) -> None:
    top = scratch / "t"
    top.mkdir()
    deep_chain(top, DEPTH)
    assert remove_tree(top)
    assert not top.exists()


def test_removes_locked_dirs_and_odd_names_without_following_links(scratch: Path) -> None:
    outside = scratch / "outside"
    outside.mkdir()
    (outside / "keep").write_text("judge data")
    top = scratch / "t"
    for name in ("a", "a/-rf", "a/..x", "a/\x01\udcff"):
        (top / name).mkdir(parents=True)
    (top / "a" / "-rf" / "file").write_text("x")
    (top / "a" / "link").symlink_to(outside)
    (top / "a" / "dirlink").symlink_to(outside, target_is_directory=True)
    os.chmod(top / "a" / "-rf", 0)
    os.chmod(top / "a", 0o500)
    assert remove_tree(top)
    assert not top.exists()
    assert (outside / "keep").read_text() == "judge data"


def test_a_missing_path_is_removed_already(scratch: Path) -> None:
    assert remove_tree(scratch / "nothing")


def test_the_sweep_removes_deep_stale_runs_and_quarantines_what_it_cannot(
    scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRIDJUDGE_RUNS", str(scratch / "runs"))
    child = subprocess.Popen(["true"])
    child.wait()  # a judge that died: its pid is free now
    stale = runs_root() / f"run-{child.pid}-deep"
    (stale / "box").mkdir(parents=True)
    deep_chain(stale / "box", DEPTH)
    assert sweep_stale_runs() == 1
    assert not stale.exists()

    stuck = runs_root() / f"run-{child.pid}-stuck"
    stuck.mkdir()
    calls: list[Path] = []

    def fails(path: Path | str) -> bool:
        calls.append(Path(path))
        return False

    monkeypatch.setattr("pipeline.sandbox.base.remove_tree", fails)
    assert sweep_stale_runs() == 0  # no exception: quarantined
    kept = runs_root() / f"{QUARANTINE}{stuck.name}"
    assert kept.is_dir() and not stuck.exists()
    monkeypatch.undo()
    monkeypatch.setenv("GRIDJUDGE_RUNS", str(scratch / "runs"))
    assert sweep_stale_runs() == 1  # swept again later
    assert not kept.exists()
