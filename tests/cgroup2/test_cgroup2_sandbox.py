"""The sandbox on cgroup v2, for real: `make test-cgroup2` runs this file in the VM as
root (slots under the unified root) and as an ordinary user in a delegated subtree.
Every run goes through the default `rlimit` sandbox, which must have chosen v2 slots."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import psutil
import pytest

from pipeline.grade.verdict import judge
from pipeline.limits import Limits
from pipeline.problem.registry import get_problem
from pipeline.program.submission import parse_spec, prepare
from pipeline.sandbox import cgroups_v2, isolation
from pipeline.sandbox.base import RunRequest, Workspace
from pipeline.sandbox.launched import LauncherSandbox
from tests.test_seed_programs import _cases

MB = 1 << 20
LANGUAGES = Path(__file__).resolve().parents[1] / "submissions" / "languages"
# CPU enough for software emulation (the VM runs ~10x slower than the host): the limit
# that must act here is the memory one
LIMITS = Limits.from_seconds(60.0, memory_mb=256, wall_ms=120_000, processes=8)
TOUCH = "b = bytearray({n} << 20)\nfor i in range(0, len(b), 4096): b[i] = 1\nprint('done')\n"


def test_the_sandbox_chose_cgroup_v2_slots(box: LauncherSandbox) -> None:
    hierarchy, subtree = isolation.slots_probed()
    assert hierarchy == "v2", (subtree, box.notes)
    assert isinstance(box.pool, cgroups_v2.SlotPool), box.notes
    assert box.pool.root == Path(subtree.path or "")


def test_memory_limit_is_the_cgroup_s(box: LauncherSandbox, slot: cgroups_v2.Slot) -> None:
    ws = Workspace.create(b"", None, box.owner)
    try:
        command = box.command(ws, ["true"], LIMITS, slot)
    finally:
        ws.remove()
    assert "--as" not in command  # no RLIMIT_AS: the cgroup alone limits memory
    assert "--cpu-file" in command and command[command.index("--cpu-file") + 1].endswith("cpu.stat")
    result = box.run(
        ["python3", "prog.py"], RunRequest(LIMITS, files={"prog.py": TOUCH.format(n=400).encode()})
    )
    assert result.memory_exceeded and result.signal == signal.SIGKILL, vars(result)
    assert result.output == b""


def test_peak_and_cpu_come_from_the_cgroup(box: LauncherSandbox) -> None:
    # the memory is touched by a grandchild: wait4 of the program alone would miss it
    code = (
        "import subprocess, sys\n"
        f"subprocess.run([sys.executable, '-c', {TOUCH.format(n=120)!r}], check=True)\n"
    )
    result = box.run(["python3", "prog.py"], RunRequest(LIMITS, files={"prog.py": code.encode()}))
    assert result.output == b"done\n" and not result.memory_exceeded, vars(result)
    assert result.peak_rss_kb >= 120 * 1024, vars(result)
    assert result.cpu_ms > 0


def test_the_watchdog_counts_a_child_s_cpu(box: LauncherSandbox) -> None:
    """The program sleeps; its child burns CPU: only the cgroup's cpu.stat sees it."""
    code = "import os, time\nif os.fork() == 0:\n    while True: pass\ntime.sleep(60)\n"
    limits = Limits.from_seconds(0.5, memory_mb=256, wall_ms=60_000, processes=8)
    result = box.run(["python3", "prog.py"], RunRequest(limits, files={"prog.py": code.encode()}))
    assert result.cpu_exceeded and not result.wall_exceeded, vars(result)


FORK_BOMB = """
import os, time
made = 0
for _ in range(200):
    try:
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        made += 1
    except OSError:
        pass
print(made)
"""


def test_a_fork_bomb_is_held_by_pids_max_and_nothing_survives(box: LauncherSandbox) -> None:
    before = {p.pid for p in psutil.process_iter()}
    result = box.run(
        ["python3", "prog.py"], RunRequest(LIMITS, files={"prog.py": FORK_BOMB.encode()})
    )
    assert result.exit_code == 0, vars(result)
    assert 0 < int(result.output) < LIMITS.processes, result.output
    after = {p.pid for p in psutil.process_iter()} - before - {os.getpid()}
    left = [p for p in after if psutil.pid_exists(p) and _sleeper(p)]
    assert left == [], "processes of the run survived it"


def _sleeper(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE and "python3" in (
            psutil.Process(pid).name()
        )
    except psutil.Error:
        return False


def test_an_escaped_daemon_is_ended_with_the_run(box: LauncherSandbox) -> None:
    code = (
        "import subprocess\n"
        "p = subprocess.Popen(['sleep', '600'], start_new_session=True)\n"
        "print(p.pid)\n"
    )
    result = box.run(["python3", "prog.py"], RunRequest(LIMITS, files={"prog.py": code.encode()}))
    assert result.exit_code == 0, vars(result)
    assert box.pool is not None
    for slot in box.pool._all:
        assert not slot.populated()
    if not box.namespaces:  # its pid is the host's: it must be gone
        pid = int(result.output)
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == "zombie"


@pytest.mark.parametrize("name", ["Clocks.java", "clocks.go"])
def test_runtimes_that_reserve_virtual_memory_pass_under_256_mb(name: str) -> None:
    problem = get_problem("clocks")
    sub = prepare(parse_spec(str(LANGUAGES / name)), problem)
    assert sub.compile_error is None, sub.compile_error
    limits = Limits.from_seconds(60.0, memory_mb=256, wall_ms=120_000)
    for case in _cases("clocks")[:1]:
        result = sub.run(case["input"], limits)
        check = judge(problem, case["input"], case["expected"], result, limits)
        assert str(check.verdict) == "AC", (check, vars(result))
        assert 0 < result.peak_rss_kb < 256 * 1024
