"""Running untrusted programs: one Sandbox protocol, several backends.

`get_sandbox()` picks the backend once per process: env GRIDJUDGE_SANDBOX=rlimit|bwrap|none
overrides; the default is the full `rlimit` isolation.
"""

from __future__ import annotations

import os
import threading

from pipeline.sandbox.base import FileSpec, Sandbox, Workspace
from pipeline.sandbox.errors import SandboxError

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

BACKENDS = ("rlimit", "bwrap", "none")
DEFAULT_BACKEND = "rlimit"

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
    """A new sandbox of backend `name`."""
    if name == "none":
        from pipeline.sandbox.plain import PlainSandbox

        return PlainSandbox()
    if name == "rlimit":
        from pipeline.sandbox.rlimit import RlimitSandbox

        return RlimitSandbox()
    if name == "bwrap":
        from pipeline.sandbox.bwrap import BwrapSandbox

        return BwrapSandbox()
    raise SandboxError(f"unknown sandbox backend {name!r} (known: {', '.join(BACKENDS)})")


def get_sandbox() -> Sandbox:
    """The process-wide sandbox (GRIDJUDGE_SANDBOX, else the default)."""
    name = os.environ.get("GRIDJUDGE_SANDBOX") or DEFAULT_BACKEND
    with _lock:
        if name not in _chosen:
            _chosen[name] = make(name)
        return _chosen[name]
