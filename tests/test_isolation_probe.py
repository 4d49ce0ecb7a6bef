"""The isolation probe's parsers on fixture text (cgroup mounts, /proc/self/cgroup), the
delegated-subtree check on a fake tree, and the level each combination of facts gives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.sandbox import isolation
from pipeline.sandbox.isolation import (
    CgroupMounts,
    cgroup_version,
    isolation_level,
    parse_mounts,
    parse_proc_cgroup,
    v2_subtree,
)
from tests._isolation_facts import make_facts

# this machine's: cgroup v1 controllers, systemd's named hierarchy, an unused cgroup2
HYBRID_MOUNTS = """\
tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0
cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0
cgroup /sys/fs/cgroup/cpuacct cgroup rw,relatime,cpuacct 0 0
cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0
cgroup /sys/fs/cgroup/pids cgroup rw,relatime,pids 0 0
cgroup /sys/fs/cgroup/systemd cgroup rw,relatime,name=systemd 0 0
cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0
"""
# Debian 12, Ubuntu 22.04+, Fedora: the unified hierarchy only
UNIFIED_MOUNTS = """\
proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate 0 0
/dev/sda1 /mnt/my\\040disk ext4 rw,relatime 0 0
"""
COMBINED_V1 = "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,cpu,cpuacct 0 0\n"

PROC_CGROUP_HYBRID = """\
9:name=systemd:/
4:memory:/process_api/ed76
2:cpu,cpuacct:/
0::/
"""
PROC_CGROUP_DELEGATED = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/run-r1.scope\n"


def test_parse_mounts_hybrid() -> None:
    mounts = parse_mounts(HYBRID_MOUNTS)
    assert mounts.unified == "/sys/fs/cgroup/unified"
    assert mounts.v1["memory"] == "/sys/fs/cgroup/memory"
    assert mounts.v1["name=systemd"] == "/sys/fs/cgroup/systemd"
    assert "relatime" not in mounts.v1 and "rw" not in mounts.v1
    assert cgroup_version(mounts, ("hugetlb",)) == "hybrid"
    assert cgroup_version(mounts, ()) == "v1"


def test_parse_mounts_unified_and_combined_controllers() -> None:
    mounts = parse_mounts(UNIFIED_MOUNTS)
    assert mounts == CgroupMounts({}, "/sys/fs/cgroup")
    assert cgroup_version(mounts, ("memory", "pids")) == "v2"
    both = parse_mounts(COMBINED_V1)
    assert both.v1 == {"cpu": "/sys/fs/cgroup/cpu,cpuacct", "cpuacct": "/sys/fs/cgroup/cpu,cpuacct"}
    assert cgroup_version(parse_mounts(""), ()) == "none"


def test_parse_mounts_unescapes_spaces() -> None:
    text = "cgroup2 /sys/fs/my\\040cgroup cgroup2 rw 0 0\n"
    assert parse_mounts(text).unified == "/sys/fs/my cgroup"


def test_parse_proc_cgroup() -> None:
    v2, v1 = parse_proc_cgroup(PROC_CGROUP_HYBRID)
    assert v2 == "/"
    assert v1 == {"name=systemd": "/", "memory": "/process_api/ed76", "cpu": "/", "cpuacct": "/"}
    v2, v1 = parse_proc_cgroup(PROC_CGROUP_DELEGATED + "garbage line\n")
    assert v2 == "/user.slice/user-1000.slice/user@1000.service/app.slice/run-r1.scope"
    assert v1 == {}
    assert parse_proc_cgroup("4:memory:/x\n") == (None, {"memory": "/x"})


def _fake_cgroup(path: Path, controllers: str) -> Path:
    path.mkdir(parents=True)
    for name in ("cgroup.procs", "cgroup.subtree_control"):
        (path / name).write_text("")
    (path / "cgroup.controllers").write_text(controllers + "\n")
    return path


def test_v2_subtree_from_proc_self_cgroup(tmp_path: Path) -> None:
    scope = "/user.slice/run-r1.scope"
    _fake_cgroup(tmp_path / scope.lstrip("/"), "cpu memory pids")
    found = v2_subtree(False, str(tmp_path), scope, None)
    assert found.path == str(tmp_path / "user.slice/run-r1.scope")
    assert found.source == "/proc/self/cgroup"
    assert found.writable and found.missing == () and found.usable


def test_v2_subtree_env_root_and_missing_controllers(tmp_path: Path) -> None:
    given = _fake_cgroup(tmp_path / "given", "pids")
    found = v2_subtree(False, str(tmp_path), "/elsewhere", str(given))
    assert (found.path, found.source) == (str(given), isolation.CGROUP_ENV)
    assert found.missing == ("memory",) and not found.usable
    as_root = v2_subtree(True, str(tmp_path), "/elsewhere", None)
    assert (as_root.path, as_root.source) == (str(tmp_path), "unified root")
    assert not v2_subtree(False, None, "/x", None).usable
    assert v2_subtree(False, str(tmp_path), None, None).path is None


def test_v2_subtree_without_its_control_files_is_not_writable(tmp_path: Path) -> None:
    _fake_cgroup(tmp_path / "theirs", "memory pids")
    (tmp_path / "theirs" / "cgroup.subtree_control").unlink()
    found = v2_subtree(False, str(tmp_path), "/theirs", None)
    assert not found.writable and not found.usable


def test_isolation_levels() -> None:
    assert isolation_level(make_facts())[0] == "full"
    assert isolation_level(make_facts(v1_writable=False))[0] == "namespaces without cgroups"
    user = make_facts(root=False, namespaces=False, v1_writable=False)
    assert isolation_level(user)[0] == "rlimits only"
    assert isolation_level(make_facts(sandbox_backend="none"))[0] == "none"
    delegated = isolation.CgroupV2Subtree(
        "/sys/fs/cgroup/x", "/proc/self/cgroup", True, ("memory", "pids")
    )
    v2_only = make_facts(v1_writable=False, v2=delegated)
    assert isolation_level(v2_only)[0] == "full"


def test_a_judge_in_its_leaf_finds_the_delegated_subtree_above_it(tmp_path: Path) -> None:
    """A worker forked from a judge that moved itself into `<subtree>/judge` puts its
    slots in the same subtree, not one level deeper."""
    scope = _fake_cgroup(tmp_path / "run-r1.scope", "memory pids")
    _fake_cgroup(scope / isolation.JUDGE_LEAF, "memory pids")
    found = v2_subtree(False, str(tmp_path), f"/run-r1.scope/{isolation.JUDGE_LEAF}", None)
    assert found.path == str(scope)


def test_slot_hierarchy_prefers_writable_v1_then_a_usable_v2_subtree() -> None:
    usable = isolation.CgroupV2Subtree("/sys/fs/cgroup", "unified root", True, ("memory", "pids"))
    unusable = isolation.CgroupV2Subtree("/sys/fs/cgroup/x", "/proc/self/cgroup", False, ())
    assert isolation.slot_hierarchy(make_facts(v1_writable=True, v2=usable)) == "v1"
    assert isolation.slot_hierarchy(make_facts(v1_writable=False, v2=usable)) == "v2"
    assert isolation.slot_hierarchy(make_facts(v1_writable=False, v2=unusable)) == ""


def test_an_ordinary_user_with_namespaces_is_isolated_and_not_refused() -> None:
    user = make_facts(root=False, user="alice", namespaces=True, v1_writable=False)
    level, why = isolation_level(user)
    assert level == "namespaces without cgroups" and "user namespace" in why
    assert isolation.refusal(user) is None


def _no_allowance(monkeypatch: pytest.MonkeyPatch) -> None:
    """The allowance unset, and unset again after the test (admit sets it)."""
    monkeypatch.setenv(isolation.ALLOW_UNSANDBOXED_ENV, "")
    monkeypatch.delenv(isolation.ALLOW_UNSANDBOXED_ENV)


def test_no_isolation_is_refused_naming_cause_and_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_allowance(monkeypatch)
    blocked = isolation.UserNamespaces(
        False, "unshare: unshare failed: No space left on device", {"user.max_user_namespaces": "0"}
    )
    user = make_facts(root=False, user="alice", userns=blocked, namespaces=False, v1_writable=False)
    why = isolation.refusal(user)
    assert why is not None and "\n" not in why
    assert "No space left on device" in why
    assert "sudo sysctl -w user.max_user_namespaces=15000" in why
    assert "--allow-unsandboxed" in why
    with pytest.raises(isolation.IsolationRefused):
        isolation.admit(False, user)
    assert os.environ.get(isolation.ALLOW_UNSANDBOXED_ENV) is None
    isolation.admit(True, user)  # allowed: the sandboxes of this process and its workers
    assert os.environ[isolation.ALLOW_UNSANDBOXED_ENV] == "1"
    isolation.admit(False, user)  # the env allows it too (a worker, a later job)


def test_isolated_machines_need_no_allowance(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_allowance(monkeypatch)
    isolation.admit(False, make_facts())
    assert isolation.ALLOW_UNSANDBOXED_ENV not in os.environ
