"""A sandbox that cannot make namespaces (an ordinary user without user namespaces)
runs nothing unless running without isolation was allowed, and rows then say so."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from pipeline import sandbox as sandbox_module
from pipeline.limits import Limits
from pipeline.program.execute import run
from pipeline.program.submission import parse_spec, prepare
from pipeline.sandbox import isolation
from pipeline.sandbox.base import RunRequest
from pipeline.sandbox.features import FULL
from pipeline.sandbox.launched import UNSANDBOXED, LauncherSandbox
from tests._fake_problem import make_problem

LIMITS = Limits.from_seconds(1.0, memory_mb=256, wall_ms=4000)


def _unsandboxed() -> LauncherSandbox:
    """What an ordinary user's sandbox is where no namespaces can be made: the program
    as the judge's uid, no namespaces."""
    box = LauncherSandbox(replace(FULL, namespaces=False, drop_uid=False, cgroups=False))
    assert box.unsandboxed
    return box


def test_refused_unless_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(isolation.ALLOW_UNSANDBOXED_ENV, "")
    monkeypatch.delenv(isolation.ALLOW_UNSANDBOXED_ENV)
    box = _unsandboxed()
    refused = box.run(["true"], RunRequest(LIMITS))
    assert refused.judge_error is not None and "not allowed" in refused.judge_error
    monkeypatch.setenv(isolation.ALLOW_UNSANDBOXED_ENV, "1")
    allowed = box.run(["true"], RunRequest(LIMITS))
    assert allowed.judge_error is None and allowed.exit_code == 0


def test_rows_of_an_allowed_run_say_unsandboxed(monkeypatch: pytest.MonkeyPatch) -> None:
    cat = shutil.which("cat")
    if cat is None:
        pytest.skip("no cat")
    monkeypatch.setenv(isolation.ALLOW_UNSANDBOXED_ENV, "1")
    monkeypatch.setenv("GRIDJUDGE_SANDBOX", "rlimit")
    sandbox_module.use(_unsandboxed())
    try:
        result = run(prepare(parse_spec(cat), make_problem()), b"7\n", limits=LIMITS)
    finally:
        sandbox_module.use(None)
    assert result.output == b"7\n"
    assert result.extra["runner"] == f"spawn ({UNSANDBOXED})"


def test_an_isolated_sandbox_is_not_unsandboxed() -> None:
    assert not LauncherSandbox().unsandboxed
