"""`gridjudge doctor`: the table and the JSON on this machine through the CLI, and the
rows (each gap with its fix) for the machines it must advise, from made-up facts."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.program import doctor
from pipeline.program.doctor import Timing, busy_between, parse_cpu_list, parse_proc_stat
from pipeline.sandbox import isolation
from tests._isolation_facts import make_facts

runner = CliRunner()

PROC_STAT = """\
cpu  300 0 100 1000 0 0 0 0 0 0
cpu0 200 0 50 400 0 0 0 0 0 0
cpu1 100 0 50 600 10 0 0 0 0 0
intr 12345
"""
PROC_STAT_LATER = """\
cpu  500 0 100 1300 0 0 0 0 0 0
cpu0 390 0 50 410 0 0 0 0 0 0
cpu1 110 0 50 890 10 0 0 0 0 0
"""


def test_doctor_table_on_this_machine() -> None:
    result = runner.invoke(app, ["doctor"])
    assert result.exit_code == 0, result.output
    for check in (
        "user namespaces",
        "namespaces for runs",
        "cgroup hierarchy",
        "cgroup v1 slots",
        "cgroup v2 subtree",
        "bubblewrap",
        "a submission gets",
        "frequency governor",
        "SMT siblings",
        "load",
        "py3",
        "cpp17",
    ):
        assert check in result.output, check
    if os.geteuid() == 0 and Path("/sys/fs/cgroup/memory/cgroup.procs").exists():
        assert "a submission gets full isolation" in result.output


def test_doctor_json_on_this_machine() -> None:
    result = runner.invoke(app, ["doctor", "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert set(found) == {"isolation", "facts", "timing", "rows"}
    facts = found["facts"]
    assert facts["root"] == (os.geteuid() == 0)
    assert found["isolation"] in isolation.LEVELS
    assert facts["isolation"] == found["isolation"]
    v1_memory = Path("/sys/fs/cgroup/memory/cgroup.procs").exists()
    assert ("memory" in facts["v1_controllers"]) == v1_memory
    if v1_memory:
        assert facts["cgroup_version"] in ("v1", "hybrid")
    assert set(found["timing"]) == {"governors", "smt_siblings", "busy_cpus", "load1", "cpus"}
    assert found["timing"]["cpus"] == os.cpu_count()
    for row in found["rows"]:
        assert set(row) == {"area", "check", "status", "detail", "fix"}
        assert row["status"] in ("ok", "gap", "info")
        assert row["status"] == "gap" or row["fix"] == "", row
    py3 = next(r for r in found["rows"] if r["check"] == "py3")
    assert py3["status"] == "ok"  # python3 on the sandbox PATH: the suite runs Python submissions


def test_cpu_lists_and_busy_cpus() -> None:
    assert parse_cpu_list("0-2,5\n") == [0, 1, 2, 5]
    assert parse_cpu_list("3") == [3]
    assert parse_cpu_list("") == []
    before, after = parse_proc_stat(PROC_STAT), parse_proc_stat(PROC_STAT_LATER)
    assert before == {0: (250, 650), 1: (150, 760)}
    assert busy_between(before, after) == [0]  # cpu0: 190 of 200 ticks; cpu1: 10 of 300
    assert busy_between(after, after) == []


def _rows(facts: isolation.Facts) -> dict[str, doctor.Row]:
    return {r.check: r for r in doctor.isolation_rows(facts)}


def test_rows_for_an_ubuntu_user_without_user_namespaces() -> None:
    facts = make_facts(
        root=False,
        user="ta",
        namespaces=False,
        v1_writable=False,
        userns=isolation.UserNamespaces(
            False,
            "unshare: write failed /proc/self/uid_map: Operation not permitted",
            {"kernel.apparmor_restrict_unprivileged_userns": "1"},
        ),
    )
    rows = _rows(facts)
    assert rows["user namespaces"].status == "gap"
    assert rows["user namespaces"].fix == "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"
    assert rows["a submission gets"].detail.startswith("rlimits only")
    assert rows["cgroup v1 slots"].fix == doctor.ROOT_FIX


def test_rows_for_cgroup_v2_hosts() -> None:
    scope = isolation.CgroupV2Subtree("/sys/fs/cgroup/user.slice/x.scope", "/proc/self/cgroup",
                                      False, ("memory", "pids"))  # fmt: skip
    user = make_facts(root=False, namespaces=False, v1_controllers=(), v1_writable=False,
                      cgroup_version="v2", unified_mount="/sys/fs/cgroup", v2=scope)  # fmt: skip
    row = _rows(user)["cgroup v2 subtree"]
    assert (row.status, row.fix) == ("gap", doctor.DELEGATE_FIX)
    assert "not writable" in row.detail
    bare_root = isolation.CgroupV2Subtree("/sys/fs/cgroup", "unified root", True, ("cpu",))
    root = make_facts(v1_controllers=(), v1_writable=False, cgroup_version="v2",
                      unified_mount="/sys/fs/cgroup", v2=bare_root)  # fmt: skip
    row = _rows(root)["cgroup v2 subtree"]
    assert row.fix == "echo '+memory +pids' > /sys/fs/cgroup/cgroup.subtree_control"
    assert "lacks memory pids" in row.detail
    assert _rows(root)["a submission gets"].detail.startswith("namespaces without cgroups")


def test_missing_bubblewrap_and_timing_gaps() -> None:
    rows = _rows(make_facts(bwrap="", bwrap_usable=False, bwrap_detail="bwrap not found"))
    assert rows["bubblewrap"].fix == "apt-get install bubblewrap"
    assert rows["a submission gets"].status == "ok"  # the default backend needs no bwrap
    timing = Timing({"powersave": 3, "performance": 1}, [[0, 2], [1, 3]], [2], 7.5, 4)
    governor, smt, load = doctor.timing_rows(timing)
    assert (governor.status, governor.fix) == ("gap", doctor.GOVERNOR_FIX)
    assert "powersave on 3 CPUs" in governor.detail
    assert (smt.status, smt.fix) == ("gap", doctor.SMT_FIX) and "[[0, 2]]" in smt.detail
    assert load.status == "gap"
    quiet = Timing({"performance": 4}, [], [], 0.1, 4)
    assert [r.status for r in doctor.timing_rows(quiet)] == ["ok", "ok", "ok"]


def test_without_cgroups_doctor_says_the_watchdog_samples_and_how_often() -> None:
    user = make_facts(root=False, user="alice", namespaces=True, v1_writable=False)
    detail = _rows(user)["a submission gets"].detail
    assert detail.startswith("namespaces without cgroups")
    assert f"sampled every {isolation.WATCHDOG_PERIOD_MS} ms" in detail
    # the period doctor names is the launcher's
    run_h = Path(isolation.__file__).parent / "run.h"
    period_us = re.search(r"#define MEM_POLL_US (\d+)", run_h.read_text())
    assert period_us is not None and int(period_us.group(1)) == isolation.WATCHDOG_PERIOD_MS * 1000
