"""The sandbox's one user-facing error, in a module of its own so that the package and its
backends can all raise it without importing each other."""

from __future__ import annotations

from pipeline.errors import GridjudgeError


class SandboxError(GridjudgeError):
    """A sandbox backend cannot be used here; one line for the user."""


class ForkServerUnavailable(Exception):
    """This program or this sandbox cannot serve cases by forking: spawn them instead
    (the message says why)."""
