"""Sandbox backends on real processes: I/O plumbing, caps, failures of the judge, the
memory model (RSS, not address space), and the fake used by unit tests elsewhere."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pipeline import sandbox as sandbox_module
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.contract import IOMode
from pipeline.program.submission import PreparedSubmission
from pipeline.sandbox import Sandbox, SandboxError, cgroups, get_sandbox, make
from pipeline.sandbox.base import RunRequest, ServerRequest, runs_root, sweep_stale_runs
from pipeline.sandbox.errors import ForkServerUnavailable
from pipeline.sandbox.fake import FakeSandbox

BACKENDS = ["rlimit", "none"] + (["bwrap"] if shutil.which("bwrap") else [])
LIMITS = Limits.from_seconds(2.0, memory_mb=256, output_kb=64)

RESERVE = r"""
#include <stdio.h>
#include <sys/mman.h>
int main(void) {
    /* like a JVM: reserve 16 GB of address space, use 8 MB of it */
    char *p = mmap(0, 16UL << 30, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) { perror("mmap"); return 1; }
    for (long i = 0; i < (8L << 20); i += 4096) p[i] = 1;
    puts("reserved");
    return 0;
}
"""


@pytest.fixture(params=BACKENDS)
def box(request: pytest.FixtureRequest) -> Sandbox:
    return make(request.param)


def test_backends_follow_the_protocol(box: Sandbox) -> None:
    assert isinstance(box, Sandbox)


def test_big_unread_stdin_does_not_block(box: Sandbox) -> None:
    result = box.run(["sh", "-c", "echo done"], RunRequest(LIMITS, stdin=b"x" * (16 << 20)))
    assert (result.exit_code, result.output, result.judge_error) == (0, b"done\n", None)


def test_output_cap_is_exact_and_stderr_is_kept(box: Sandbox) -> None:
    cap = LIMITS.output_bytes
    exact = box.run(["head", "-c", str(cap), "/dev/zero"], RunRequest(LIMITS))
    assert len(exact.output) == cap and not exact.output_exceeded
    over = box.run(["head", "-c", str(cap + 1), "/dev/zero"], RunRequest(LIMITS))
    assert over.output_exceeded and len(over.output) == cap
    noisy = box.run(["sh", "-c", "echo oops >&2; exit 5"], RunRequest(LIMITS))
    assert noisy.exit_code == 5 and noisy.stderr_head == b"oops\n"


def test_output_file_taken_when_written_never_through_a_symlink(box: Sandbox) -> None:
    wrote = box.run(
        ["sh", "-c", "tr a b < in.txt > out.txt; echo stdout"],
        RunRequest(LIMITS, stdin=b"", files={"in.txt": b"aaa\n"}, output_file="out.txt"),
    )
    assert wrote.output == b"bbb\n"
    linked = box.run(
        ["sh", "-c", "ln -s /etc/hostname out.txt; echo stdout"],
        RunRequest(LIMITS, output_file="out.txt"),
    )
    assert linked.output == b"stdout\n"


def test_read_back_files_are_returned_regular_files_only(box: Sandbox) -> None:
    """A checker's feedback files: each named regular file left in the scratch dir."""
    script = "echo 0.5 > score.txt; echo hi > judge.txt; ln -s /etc/hostname link.txt; echo out"
    result = box.run(
        ["sh", "-c", script],
        RunRequest(LIMITS, read_back=("score.txt", "judge.txt", "link.txt", "absent.txt")),
    )
    assert result.output == b"out\n"
    assert result.files == {"score.txt": b"0.5\n", "judge.txt": b"hi\n"}


def test_a_program_that_cannot_start_is_a_judge_error(box: Sandbox) -> None:
    result = box.run(["./missing"], RunRequest(LIMITS))
    assert result.judge_error


@pytest.mark.needs_root(reason="a writable cgroup v1, as the sandbox makes its slots")
@pytest.mark.parametrize("name", [b for b in BACKENDS if b != "none"])
def test_memory_is_limited_by_use_not_by_reservation(name: str, tmp_path: Path) -> None:
    """By the memory cgroup, or without one by the launcher's watchdog (resident memory):
    never by the address space, which a thread's stack or a runtime reserves unused."""
    src = tmp_path / "reserve.c"
    src.write_text(RESERVE)
    subprocess.run(["gcc", "-O2", "-o", str(tmp_path / "reserve"), str(src)], check=True)
    result = make(name).run(
        ["./reserve"], RunRequest(LIMITS, files={"reserve": tmp_path / "reserve"})
    )
    assert result.output == b"reserved\n", (result.stderr_head, result.judge_error)
    assert result.peak_rss_kb < 64 * 1024


TOUCHES_600_MB = r"""
#include <stdlib.h>
#include <string.h>
int main(void) {
    for (int i = 0; i < 600; i++) memset(malloc(1 << 20), 1, 1 << 20);
    return 0;
}
"""


def test_without_a_memory_cgroup_the_watchdog_holds_resident_memory_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a memory cgroup, the launcher's watchdog holds resident memory to the
    limit: a program touching more is killed, not left to finish (before: exit 0 after
    touching 600 MB, however long that took), and one touching less runs to its end."""
    monkeypatch.setattr(cgroups, "CGROUP_ROOT", tmp_path / "no-cgroups")
    src = tmp_path / "touch.c"
    src.write_text(TOUCHES_600_MB)
    subprocess.run(["gcc", "-O2", "-o", str(tmp_path / "touch"), str(src)], check=True)
    box = make("rlimit")
    assert getattr(box, "pool", None) is None
    limits = Limits.from_seconds(10.0, memory_mb=64)
    result = box.run(["./touch"], RunRequest(limits, files={"touch": tmp_path / "touch"}))
    assert result.judge_error is None, result.judge_error
    assert result.memory_exceeded and result.signal == 9, vars(result)
    assert not result.cpu_exceeded and not result.wall_exceeded, vars(result)
    fits = box.run(
        ["./touch"],
        RunRequest(Limits.from_seconds(10.0, memory_mb=1024), files={"touch": tmp_path / "touch"}),
    )
    assert fits.exit_code == 0 and not fits.memory_exceeded, vars(fits)


CHILD_BURNS = b"import os, time\nif os.fork() == 0:\n    while True: pass\ntime.sleep(60)\n"


@pytest.mark.needs_root(reason="a writable cgroup v1, as the sandbox makes its slots")
@pytest.mark.parametrize("name", [b for b in BACKENDS if b != "none"])
def test_the_cpu_watchdog_counts_a_child_the_program_does_not_wait_for(name: str) -> None:
    """The program sleeps while its child burns CPU: the watchdog reads the run's cgroup
    (opened before the view hides /sys/fs/cgroup), or without one sums the CPU of the
    run's processes, so the CPU limit ends the run, not the wall clock."""
    limits = Limits.from_seconds(0.5, memory_mb=256, wall_ms=20_000, processes=8)
    result = make(name).run(["python3", "p.py"], RunRequest(limits, files={"p.py": CHILD_BURNS}))
    assert result.cpu_exceeded and not result.wall_exceeded, vars(result)


def test_unknown_backend_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRIDJUDGE_SANDBOX", "chroot")
    with pytest.raises(SandboxError) as err:
        get_sandbox()
    assert "chroot" in str(err.value) and "\n" not in str(err.value)


def test_fake_sandbox_sees_the_problem_io_mode() -> None:
    fake = FakeSandbox(respond=lambda call: ExecutionResult(exit_code=0, output=b"4 5\n"))
    sub = PreparedSubmission(
        label="cmd:x",
        sha="s",
        kind="cmd",
        problem="clocks",
        io=IOMode("clocks.in", "clocks.out"),
        command="x",
    )
    sandbox_module.use(fake)
    try:
        result = sub.run("3 3 3\n", LIMITS)
    finally:
        sandbox_module.use(None)
    assert result.output == b"4 5\n"
    (call,) = fake.calls
    assert call.stdin == b"3 3 3\n" and call.files["clocks.in"] == b"3 3 3\n"
    assert call.output_file == "clocks.out" and call.argv == ["/bin/sh", "-c", "x"]


@pytest.mark.needs_root(reason="a writable cgroup v1, as the sandbox makes its slots")
def test_slots_are_removed_when_the_pool_closes() -> None:
    if not cgroups.available():
        pytest.skip("cgroup v1 is not writable here")
    pool = cgroups.SlotPool()
    slot = pool.acquire()
    slot.prepare(processes=4, memory_bytes=64 << 20)
    assert all(path.is_dir() for path in slot.dirs.values())
    pool.release(slot)
    pool.close()
    assert not any(path.exists() for path in slot.dirs.values())


@pytest.mark.needs_root(reason="a writable cgroup v1, as the sandbox makes its slots")
@pytest.mark.parametrize("name", [b for b in BACKENDS if b != "none"])
def test_runs_leave_nothing_charged_in_their_slot(name: str) -> None:
    """Processes of a run are reaped within the run (a zombie left to the host's init
    would still count against the next runs' process limit)."""
    if not cgroups.available():
        pytest.skip("cgroup v1 is not writable here")
    box = make(name)
    limits = Limits.from_seconds(1.0, processes=4)
    for _ in range(12):  # 3x the process limit
        result = box.run(["sh", "-c", "sleep 5 & echo ok"], RunRequest(limits))
        assert result.output == b"ok\n", (result.stderr_head, result.judge_error)
    pool = box.pool  # type: ignore[attr-defined]
    for slot in pool._all:
        assert (slot.dirs["pids"] / "pids.current").read_text().strip() == "0"


def test_run_folders_of_dead_judges_are_swept() -> None:
    child = subprocess.Popen(["true"])
    child.wait()  # a judge that died: its pid is free now
    stale = runs_root() / f"run-{child.pid}-abcdefgh"
    (stale / "box").mkdir(parents=True)
    mine = runs_root() / f"run-{os.getpid()}-zzzzzzzz"
    mine.mkdir()
    try:
        assert sweep_stale_runs() >= 1
        assert not stale.exists() and mine.exists()
    finally:
        mine.rmdir()


def test_a_run_says_when_what_it_left_running_is_not_counted() -> None:
    """Without a pid namespace or a cgroup, processes outliving the program are neither
    ended by the launcher nor measured: the result says so; the full sandbox counts."""
    command = ["sh", "-c", "sleep 0.01 & echo ok"]
    plain = make("none").run(command, RunRequest(LIMITS))
    assert plain.output == b"ok\n" and plain.extra["children"] == "not counted"
    if os.geteuid() == 0:
        full = make("rlimit").run(command, RunRequest(LIMITS))
        assert full.output == b"ok\n" and "children" not in full.extra


@pytest.mark.parametrize("name", ["none", "fake"] + (["bwrap"] if shutil.which("bwrap") else []))
def test_backends_that_cannot_serve_say_why(name: str) -> None:
    box: Sandbox = FakeSandbox() if name == "fake" else make(name)
    with pytest.raises(ForkServerUnavailable, match=name):
        box.start_server(ServerRequest(["./prog"], {}, LIMITS))


def test_the_full_sandbox_starts_a_fork_server(tmp_path: Path) -> None:
    box = make("rlimit")
    if not getattr(box, "namespaces", False):  # root's or a user namespace's
        pytest.skip("no namespaces here: the fork server needs them")
    source = tmp_path / "echo.c"
    source.write_text('#include <stdio.h>\nint main(){int n;scanf("%d",&n);printf("%d\\n",n);}\n')
    program = tmp_path / "echo"
    subprocess.run(["gcc", "-O2", "-o", str(program), str(source)], check=True)
    server = box.start_server(ServerRequest(["./echo"], {"echo": program}, LIMITS))
    try:
        got = [server.run(RunRequest(LIMITS, f"{n}\n".encode())).output for n in (4, 5)]
        assert got == [b"4\n", b"5\n"] and server.alive
    finally:
        server.close()
    assert not server.alive


def test_a_server_the_launcher_cannot_start_says_the_launchers_reason(tmp_path: Path) -> None:
    """The launcher fails before it serves (here: no such program to exec): the judge
    gets no answer on the socket, and the reason is the one its report file holds."""
    box = make("rlimit")
    if not getattr(box, "namespaces", False):
        pytest.skip("no namespaces here: the fork server needs them")
    with pytest.raises(ForkServerUnavailable) as raised:
        box.start_server(ServerRequest(["./absent"], {}, LIMITS))
    message = str(raised.value)
    assert "wait status no answer (the launcher: cannot start ./absent" in message, message
