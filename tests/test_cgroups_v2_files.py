"""cgroups_v2's file logic on a fake cgroup tree (this machine mounts cgroup v1): what it
writes to set a run's limits, how it reads the counters, the judge moved into a leaf
before controllers are handed on. The kernel's side runs in `make test-cgroup2`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.sandbox import cgroups_v2
from pipeline.sandbox.cgroups import sweep_stale
from pipeline.sandbox.cgroups_v2 import (
    HELPER_MEMORY,
    HELPER_PROCESSES,
    CgroupV2Error,
    Slot,
    enable_controllers,
    parse_keyed,
    prepare_root,
)

MEMORY_EVENTS = "low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n"
CPU_STAT = "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\nnr_periods 0\n"


def test_parse_keyed() -> None:
    assert parse_keyed(MEMORY_EVENTS)["oom_kill"] == 1
    assert parse_keyed(CPU_STAT) == {
        "usage_usec": 1500,
        "user_usec": 1000,
        "system_usec": 500,
        "nr_periods": 0,
    }
    assert parse_keyed("populated 0\nfrozen 0\n")["populated"] == 0
    assert parse_keyed("junk\nkey notanumber\n") == {}


def fake_cgroup(path: Path, *, controllers: str = "cpu memory pids", typed: bool = True) -> Path:
    """A directory holding what the kernel would put in a cgroup (typed: not the root)."""
    path.mkdir(parents=True, exist_ok=True)
    files = {
        "cgroup.controllers": controllers + "\n",
        "cgroup.subtree_control": "",
        "cgroup.procs": "",
        "cgroup.events": "populated 0\nfrozen 0\n",
        "memory.events": MEMORY_EVENTS,
        "memory.current": "4096\n",
        "cpu.stat": CPU_STAT,
    }
    if typed:
        files["cgroup.type"] = "domain\n"
    for name, text in files.items():
        (path / name).write_text(text)
    return path


def test_prepare_root_at_the_hierarchy_root_enables_controllers(tmp_path: Path) -> None:
    root = fake_cgroup(tmp_path, typed=False)
    (root / "cgroup.procs").write_text("1\n")  # the root cgroup may hold processes
    fake_cgroup(root / "gridjudge")
    base = prepare_root(root)
    assert base == root / "gridjudge"
    assert not (root / "judge").exists()
    for path in (root, base):
        assert (path / "cgroup.subtree_control").read_text() == "+memory +pids"


def test_prepare_root_of_a_delegated_subtree_moves_its_processes_to_a_leaf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = fake_cgroup(tmp_path / "run-r1.scope")
    (root / "cgroup.procs").write_text(f"{os.getpid()}\n")
    moved: list[str] = []

    def write(path: Path, value: str) -> None:
        moved.append(f"{path.relative_to(tmp_path)}={value}")
        (root / "cgroup.procs").write_text("")  # the kernel moves it out of the root
        path.write_text(value)

    fake_cgroup(root / "gridjudge")
    monkeypatch.setattr(cgroups_v2, "write_file", write)
    prepare_root(root)
    assert moved[0] == f"run-r1.scope/judge/cgroup.procs={os.getpid()}"
    assert moved[1] == "run-r1.scope/cgroup.subtree_control=+memory +pids"


def test_enable_controllers_names_what_is_not_delegated(tmp_path: Path) -> None:
    path = fake_cgroup(tmp_path / "x", controllers="cpu pids")
    with pytest.raises(CgroupV2Error, match=r"controller\(s\) memory not delegated"):
        enable_controllers(path)
    (path / "cgroup.subtree_control").write_text("memory pids\n")
    (path / "cgroup.controllers").write_text("memory pids\n")
    enable_controllers(path)  # already enabled: nothing written
    assert (path / "cgroup.subtree_control").read_text() == "memory pids\n"


def test_prepare_root_refuses_a_root_it_cannot_write(tmp_path: Path) -> None:
    with pytest.raises(CgroupV2Error, match="cannot hold cgroup v2 slots"):
        prepare_root(tmp_path / "absent")


def test_slot_prepare_writes_limits_and_resets_counters(tmp_path: Path) -> None:
    fake_cgroup(tmp_path / "7-0")
    (tmp_path / "7-0" / "memory.swap.max").write_text("max\n")
    slot = Slot.create("7-0", tmp_path)
    assert (slot.path / "memory.swap.max").read_text() == "0"
    slot.prepare(processes=10, memory_bytes=64 << 20)
    assert (slot.path / "pids.max").read_text() == str(10 + HELPER_PROCESSES)
    assert (slot.path / "memory.max").read_text() == str((64 << 20) + HELPER_MEMORY)
    (slot.path / "memory.events").write_text(MEMORY_EVENTS.replace("oom_kill 1", "oom_kill 2"))
    (slot.path / "cpu.stat").write_text(CPU_STAT.replace("usage_usec 1500", "usage_usec 4000"))
    (slot.path / "memory.current").write_text(str(9 << 20))
    peak, cpu_ns, oom = slot.measure()
    assert (cpu_ns, oom) == (2_500_000, True)  # counted from prepare, not from creation
    assert peak == 9 << 20  # no memory.peak here: sampled memory.current
    slot.prepare(processes=10, memory_bytes=None)
    assert (slot.path / "memory.max").read_text() == "max"
    assert slot.measure()[1:] == (0, False)
    slot.remove()


def test_kill_all_of_an_empty_slot(tmp_path: Path) -> None:
    slot = Slot("1-0", fake_cgroup(tmp_path / "1-0"))
    assert slot.kill_all(timeout_s=0.0)
    assert not (slot.path / "cgroup.kill").exists()  # nothing to kill: nothing written
    (slot.path / "cgroup.events").write_text("populated 1\n")
    assert not slot.kill_all(timeout_s=0.0)
    assert (slot.path / "cgroup.kill").read_text() == "1"


def test_sweep_stale_spares_live_owners(tmp_path: Path) -> None:
    (tmp_path / f"{os.getpid()}-0").mkdir()
    (tmp_path / "judge").mkdir()
    dead = 2**22 + 7  # above the largest pid_max (2**22): no process has it
    (tmp_path / f"{dead}-3").mkdir()
    (tmp_path / f"{dead}-3" / "cgroup.events").write_text("populated 0\n")
    assert sweep_stale([tmp_path]) == 0  # a real cgroup dir is empty; this one holds a file
    (tmp_path / f"{dead}-3" / "cgroup.events").unlink()
    assert sweep_stale([tmp_path]) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{os.getpid()}-0", "judge"]
