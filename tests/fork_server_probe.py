"""Whether the fork server can serve on this machine, found by serving one case.

Tests of the fork server skip only where it cannot run, and they say why; they do not
ask whether the judge is root. What the fork server needs (the configured sandbox with
namespaces and a private filesystem, a writable cgroup or none, the preload library) is
decided by the sandbox and the fork server themselves: this probe goes through the same
`execute.start_server` that grading uses, so when that learns to run
for an ordinary user, the tests run there too, unchanged.
"""

from __future__ import annotations

import functools
import shutil

import pytest

from pipeline.limits import Limits
from pipeline.program import execute
from pipeline.program.submission import parse_spec, prepare
from pipeline.sandbox.base import RunRequest
from pipeline.sandbox.forkserver import ForkServerUnavailable
from tests._fake_problem import make_problem

LIMITS = Limits.from_seconds(1.0, memory_mb=256, wall_ms=4000)
CAT = "cat"  # dynamically linked on every system the judge supports: preloaded


@functools.cache
def fork_server_unavailable() -> str | None:
    """None when a fork server started here serves a case (`cat` echoing its stdin);
    else why not, in words. Probed once per test session."""
    path = shutil.which(CAT)
    if path is None:
        return f"no {CAT} to probe the fork server with"
    problem = make_problem()
    try:
        server = execute.start_server(prepare(parse_spec(path), problem), LIMITS)
    except ForkServerUnavailable as exc:
        return str(exc)
    try:
        result = server.run(RunRequest(LIMITS, b"1 2\n"))
    finally:
        server.close()
    if result.judge_error or result.output != b"1 2\n":
        return f"a fork server started but did not serve: {result.judge_error or result}"
    return None


def require_fork_server() -> None:
    """Skips the calling test where the fork server cannot run (a user's machine may
    lack what it needs; under CI=true the skip is a failure, tests/conftest.py)."""
    reason = fork_server_unavailable()
    if reason is not None:
        pytest.skip(f"the fork server cannot run here: {reason}")
