"""Running untrusted programs: one Sandbox protocol, several backends.

`get_sandbox()` picks the backend once per process: env GRIDJUDGE_SANDBOX=rlimit|bwrap|none
overrides; the default is the full `rlimit` isolation.
"""

from __future__ import annotations

import os
import threading

from pipeline.sandbox.base import FileSpec, Sandbox, Workspace
from pipeline.sandbox.errors import SandboxError
from pipeline.sandbox.features import BACKENDS, FULL

__all__ = [
    "BACKENDS",
    "FileSpec",
    "Sandbox",
    "SandboxError",
    "Workspace",
    "get_sandbox",
    "make",
    "use",
]

DEFAULT_BACKEND = FULL.name

_lock = threading.Lock()
_chosen: dict[str, Sandbox] = {}


def use(sandbox: Sandbox | None) -> None:
    """Makes `sandbox` the process-wide one (tests: a FakeSandbox); None forgets it."""
    name = os.environ.get("GRIDJUDGE_SANDBOX") or DEFAULT_BACKEND
    with _lock:
        if sandbox is None:
            _chosen.pop(name, None)
        else:
            _chosen[name] = sandbox


def make(name: str) -> Sandbox:
    """A new sandbox of backend `name` (features.BACKENDS)."""
    features = BACKENDS.get(name)
    if features is None:
        known = ", ".join(BACKENDS)
        raise SandboxError(f"unknown sandbox backend {name!r} (known: {known})")
    from pipeline.sandbox.launched import LauncherSandbox

    return LauncherSandbox(features)


def get_sandbox() -> Sandbox:
    """The process-wide sandbox (GRIDJUDGE_SANDBOX, else the default)."""
    name = os.environ.get("GRIDJUDGE_SANDBOX") or DEFAULT_BACKEND
    with _lock:
        if name not in _chosen:
            _chosen[name] = make(name)
        return _chosen[name]
