"""Shared fixtures. Nothing here starts Ray unless a test asks for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture
def golden_dir() -> Path:
    """../shared/golden, as laid beside the checkout for sessions and CI."""
    path = SHARED / "golden"
    if not path.is_dir():
        pytest.skip(f"golden corpus not found at {path} (../shared is absent)")
    return path


class _SharedRay:
    """One embedded local Ray shared by the tests that ask for `ray_cluster` (an idle Ray
    costs ~700 MB and 3-4 s to start). Ray allows one connection per process, so before a
    test marked `ray` that manages its own Ray (without this fixture) the shared one is
    stopped; the next test asking for it starts it again."""

    def __init__(self) -> None:
        self.cluster: Any = None

    def get(self) -> Any:
        import ray

        if self.cluster is None or not ray.is_initialized():
            from pipeline.distribute.cluster import Cluster

            self.close()
            self.cluster = Cluster("local", num_cpus=2).__enter__()
        return self.cluster

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.__exit__(None, None, None)
            self.cluster = None


_SHARED_RAY = _SharedRay()


@pytest.fixture
def ray_cluster() -> Any:
    """The shared embedded local Ray: an entered pipeline.distribute.cluster.Cluster
    (`cluster.gcs_address()` lets a subprocess join it). Only tests that ask start it."""
    return _SHARED_RAY.get()


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("ray") and "ray_cluster" not in getattr(item, "fixturenames", ()):
        _SHARED_RAY.close()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _SHARED_RAY.close()
