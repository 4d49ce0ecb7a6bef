"""Shared fixtures. Nothing here starts Ray unless a test asks for it. Under CI=true a
skipped test fails: a test may skip only for what a user's machine can lack, and CI must
have it all; the one exception is a test marked needs_root in a run as another user."""

from __future__ import annotations

import os
from collections.abc import Generator
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


@pytest.fixture(autouse=True)
def _no_result_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test takes rows from the user's result cache, nor leaves any there: tests of the
    cache name their own folder (GradeOptions.result_cache, GRIDJUDGE_RESULT_CACHE)."""
    monkeypatch.setenv("GRIDJUDGE_RESULT_CACHE", "off")


@pytest.fixture(autouse=True)
def _no_inherited_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables are as wide as the tests' own COLUMNS say, not the caller's: a terminal's
    width, or pytest-xdist's workers, which are given the controller's."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


# a test marked `needs_root(reason)` skips with this and its reason for any other user:
# CI runs the suite as root and as an ordinary user (.ci/run), and only this skip, in
# the ordinary user's run, is not a failure under CI=true
NEEDS_ROOT = "needs root: "


def _root_only(item: pytest.Item) -> str | None:
    """The skip reason of a test marked needs_root run by a user other than root."""
    marker = item.get_closest_marker("needs_root")
    if marker is None or os.geteuid() == 0:
        return None
    reason = marker.kwargs.get("reason") or (marker.args[0] if marker.args else "")
    if not reason:
        raise pytest.UsageError(f"{item.nodeid}: needs_root without a reason")
    return NEEDS_ROOT + reason


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # a skip mark: skipped before its fixtures are set up, reported at the test's line
    for item in items:
        root_only = _root_only(item)
        if root_only is not None:
            item.add_marker(pytest.mark.skip(reason=root_only))


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("ray") and "ray_cluster" not in getattr(item, "fixturenames", ()):
        _SHARED_RAY.close()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _SHARED_RAY.close()


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def _fail_skip_in_ci(
    report: pytest.TestReport | pytest.CollectReport, root_only: str | None = None
) -> None:
    if report.skipped and _in_ci() and not hasattr(report, "wasxfail"):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        if root_only is not None and reason == f"Skipped: {root_only}":
            return  # this test's own needs_root skip, in a run as an ordinary user
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, where nothing may be missing: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    outcome = yield
    _fail_skip_in_ci(outcome.get_result(), _root_only(item))


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    _fail_skip_in_ci(outcome.get_result())
