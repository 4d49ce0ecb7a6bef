"""The cgroup v2 slots the files of tests/cgroup2 run in: the pool at the subtree this
process may use (the unified root as root, a delegated subtree as an ordinary user), the
default sandbox with its own pool, and one fixture that lends a slot of either."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.sandbox import isolation, make
from pipeline.sandbox.cgroups_v2 import Slot, SlotPool
from pipeline.sandbox.launched import LauncherSandbox


def _v2_root() -> Path:
    mounts = isolation.parse_mounts(Path("/proc/self/mounts").read_text())
    if mounts.unified != str(isolation.CGROUP_MOUNT) or mounts.v1:
        pytest.skip("not a cgroup v2 host (cgroup2 is not the only hierarchy at /sys/fs/cgroup)")
    own, _ = isolation.parse_proc_cgroup(Path("/proc/self/cgroup").read_text())
    subtree = isolation.v2_subtree(
        os.geteuid() == 0, mounts.unified, own, os.environ.get(isolation.CGROUP_ENV)
    )
    assert subtree.usable, f"no usable cgroup v2 subtree: {subtree}"
    assert subtree.path is not None
    return Path(subtree.path)


@pytest.fixture(scope="module")
def pool() -> Iterator[SlotPool]:
    """A slot pool of cgroups_v2 at this process's subtree."""
    made = SlotPool(_v2_root())
    yield made
    made.close()


@pytest.fixture(scope="module")
def box() -> Iterator[LauncherSandbox]:
    """The default sandbox, as grading makes it (with its own pool)."""
    sandbox = make("rlimit")
    assert isinstance(sandbox, LauncherSandbox)
    yield sandbox
    if sandbox.pool is not None:
        sandbox.pool.close()


@pytest.fixture
def slot(request: pytest.FixtureRequest) -> Iterator[Slot]:
    """A slot lent for one test, emptied and given back after it: of the default
    sandbox's pool where the test uses `box`, else of `pool`."""
    owner = request.getfixturevalue("box").pool if "box" in request.fixturenames else None
    lender = owner if owner is not None else request.getfixturevalue("pool")
    lent = lender.acquire()
    yield lent
    assert lent.kill_all()
    lender.release(lent)
