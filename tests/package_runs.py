"""Fixtures of the tests that verify or generate packages whose programs are Python
(imported by the modules that use them): caches of their own under tmp_path (a first
run does the work: `pytestmark = pytest.mark.usefixtures("own_caches")`), and each test
under spawn and the fork server."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.program.languages import get_language, missing
from tests.fork_server_probe import require_fork_server


@pytest.fixture
def own_caches(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Builds and generated cases cached under tmp_path, no result cache."""
    monkeypatch.setenv("GRIDJUDGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("GRIDJUDGE_RESULT_CACHE", "off")


@pytest.fixture(params=[False, True], ids=["spawn", "fork-server"])
def fork(request: pytest.FixtureRequest) -> bool:
    """Whether the package's programs are served by fork servers (else spawned)."""
    reason = missing(get_language("python"))
    if reason is not None:
        pytest.skip(f"no python toolchain here: {reason}")
    if request.param:
        require_fork_server()
    return bool(request.param)
