"""Isolation facts for tests of the pure logic above the probe (levels, doctor rows)."""

from __future__ import annotations

import dataclasses

from pipeline.sandbox import isolation

NO_V2 = isolation.CgroupV2Subtree(None, "no cgroup2 mount", False, ())


def make_facts(**changes: object) -> isolation.Facts:
    """Root on a cgroup v1 host with everything usable, with `changes` applied."""
    base = isolation.Facts(
        root=True,
        user="root",
        userns=isolation.UserNamespaces(True, ""),
        namespaces=True,
        cgroup_version="v1",
        v1_controllers=isolation.V1_CONTROLLERS,
        v1_writable=True,
        unified_mount=None,
        unified_controllers=(),
        v2=NO_V2,
        bwrap="/usr/bin/bwrap",
        bwrap_usable=True,
        bwrap_detail="",
        sandbox_backend="rlimit",
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]
