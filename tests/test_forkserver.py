"""The fork server under attack: each program of tests/submissions/forkserver/ runs on
several cases in a row from one runner (one server, unless a case kills it), and must get
the verdicts its README promises; and what is not served is spawned, saying why."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import psutil
import pytest

from pipeline.grade.runners.program import ProgramRunner
from pipeline.grade.verdict import judge
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.checkers import CheckResult
from pipeline.program.execute import FORK_SERVER as RUNNER
from pipeline.program.execute import Servers, run
from pipeline.program.submission import parse_spec, prepare
from pipeline.sandbox import forkserver, get_sandbox, launcher
from pipeline.sandbox.base import STDERR_HEAD_BYTES, RunRequest, ServerRequest
from pipeline.sandbox.errors import ForkServerUnavailable
from pipeline.sandbox.features import FULL
from pipeline.sandbox.launched import LauncherSandbox
from tests._fake_problem import make_problem
from tests.fork_server_probe import require_fork_server
from tests.time_scale import scaled

HOSTILE = Path(__file__).resolve().parent / "submissions" / "forkserver"
# scaled for a slow machine where a program must finish (tests/time_scale.py)
LIMITS = Limits.from_seconds(1.0, memory_mb=256, wall_ms=4000, output_kb=1024, processes=32)
PROBLEM = make_problem()
Outcome = tuple[ExecutionResult, CheckResult]


@pytest.fixture(autouse=True)
def _needs_fork_server() -> None:
    require_fork_server()


@pytest.fixture
def serve() -> Iterator[list[ProgramRunner]]:
    """Runners made by the test, closed after it."""
    runners: list[ProgramRunner] = []
    yield runners
    for runner in runners:
        runner.close()


def runner(path: Path, made: list[ProgramRunner], expected: str = "AC") -> ProgramRunner:
    """A runner of the program at `path`, whose cases are expected to get `expected`."""
    limits = scaled(LIMITS, expected)
    made.append(ProgramRunner(PROBLEM, prepare(parse_spec(str(path)), PROBLEM), limits))
    return made[-1]


def cases(r: ProgramRunner, numbers: list[int]) -> list[tuple[ExecutionResult, CheckResult]]:
    out = []
    for n in numbers:
        result = r.execute(f"{n}\n")
        out.append((result, judge(PROBLEM, f"{n}\n", f"{n}\n", result, r.limits)))
    return out


def verdicts(got: list[Outcome]) -> list[str]:
    return [str(check.verdict) for _, check in got]


def compiled(source: Path, folder: Path) -> Path:
    binary = folder / source.stem
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(source), "-lm"], check=True)
    return binary


def served(source: Path, folder: Path, limits: Limits, numbers: list[int]) -> list[Outcome]:
    """`source`'s cases from one server started without the rule that spawns programs
    with code before main (the only way to burn CPU before "ready")."""
    server = get_sandbox().start_server(
        ServerRequest(["./prog"], {"prog": compiled(source, folder)}, limits)
    )
    try:
        out = []
        for n in numbers:
            result = server.run(RunRequest(limits, f"{n}\n".encode()))
            out.append((result, judge(PROBLEM, f"{n}\n", f"{n}\n", result, limits)))
        return out
    finally:
        server.close()


def test_init_counts_cpu_before_ready_against_every_case_and_out_of_its_time(
    tmp_path: Path,
) -> None:
    """The server's pre-"ready" CPU is in every case's limit (never paid once and then
    free for the next cases), and beside each case's own CPU time, not in it (one noisy
    sample per server would offset all its cases alike)."""
    every = served(
        HOSTILE / "cpu_before_main_every_case.c", tmp_path, scaled(LIMITS, "TLE"), [1, 2, 3]
    )
    assert verdicts(every) == ["TLE"] * 3
    for result, check in every:
        assert result.start_cpu_ms >= 600 and "start-up" in check.message, vars(result)
    charged = HOSTILE.parent / "hostile" / "ac_cpu_before_main_charged.c"
    honest = served(charged, tmp_path, scaled(LIMITS, "AC"), [4, 5])
    assert verdicts(honest) == ["AC"] * 2
    for result, _ in honest:
        assert result.start_cpu_ms >= 300 and result.cpu_ms < 300, vars(result)


def test_a_server_start_is_judged_on_its_own_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Busy past START_MS before "ready" (3 s of its own CPU here, START_MS 1 s), a server
    still starts: a loaded or emulated machine stretches the wall, not the work. Idle
    that long (asleep before main), it is given up."""
    monkeypatch.setattr(forkserver, "START_MS", 1000)
    busy = HOSTILE.parent / "hostile" / "tle_cpu_before_main.c"
    roomy = Limits.from_seconds(10.0, memory_mb=256, wall_ms=20_000)
    ((result, _),) = served(busy, tmp_path, roomy, [6])
    assert result.start_cpu_ms >= 3000 and result.output == b"6\n", vars(result)
    asleep = compiled(Path(__file__).resolve().parent / "interact" / "slow_start.c", tmp_path)
    with pytest.raises(ForkServerUnavailable, match="no fork server started"):
        get_sandbox().start_server(ServerRequest(["./prog"], {"prog": asleep}, LIMITS)).close()


@pytest.mark.parametrize("name", ["state.c", "state.py", "sysv_ipc.c", "posix_mqueue.c"])
def test_every_case_starts_from_a_fresh_state(name: str, serve: list[ProgramRunner]) -> None:
    r = runner(HOSTILE / name, serve)
    got = cases(r, [11, 12, 13])
    assert [res.extra["runner"] for res, _ in got] == [RUNNER] * 3
    assert verdicts(got) == ["AC"] * 3, [res.output for res, _ in got]
    assert r.servers.started == 1  # all three forked from one server


def test_a_case_cannot_change_the_program_the_next_case_runs(
    serve: list[ProgramRunner],
) -> None:
    r = runner(HOSTILE / "rewrite_script.py", serve)
    got = cases(r, [21, 22])
    assert verdicts(got) == ["AC", "AC"], [res.output for res, _ in got]
    assert r.servers.started == 1


def test_a_case_that_kills_its_parent_harms_neither_itself_nor_the_next(
    serve: list[ProgramRunner],
) -> None:
    r = runner(HOSTILE / "kill_parent.c", serve)
    got = cases(r, [2, 4])
    assert verdicts(got) == ["AC", "AC"]
    assert r.servers.started == 1


@pytest.mark.parametrize("program", ["kill_server.c", "stop_server.c"])
def test_a_case_that_kills_or_stops_its_server_is_re_and_the_next_case_gets_a_new_one(
    program: str, serve: list[ProgramRunner]
) -> None:
    r = runner(HOSTILE / program, serve)
    got = cases(r, [3, 4, 6])
    assert verdicts(got) == ["RE", "AC", "AC"]
    assert "fork server" in got[0][1].message
    assert [res.extra["runner"] for res, _ in got] == [RUNNER] * 3
    assert r.servers.started == 2


def test_signals_a_case_sends_its_server_reach_neither_it_nor_a_later_case(
    serve: list[ProgramRunner],
) -> None:
    r = runner(HOSTILE / "signal_server.c", serve)
    got = cases(r, [7, 8, 9])
    assert verdicts(got) == ["AC"] * 3, [res.output for res, _ in got]
    assert r.servers.started == 1


def test_a_case_can_neither_ptrace_nor_write_into_the_server(
    serve: list[ProgramRunner],
) -> None:
    got = cases(runner(HOSTILE / "ptrace_server.c", serve), [5, 6])
    assert verdicts(got) == ["AC", "AC"], [res.output for res, _ in got]


def test_a_child_left_behind_does_not_outlive_its_case(serve: list[ProgramRunner]) -> None:
    r = runner(HOSTILE / "fork_and_exit.c", serve)
    mark = 10_000 + os.getpid() % 80_000
    got = cases(r, [mark])
    assert verdicts(got) == ["AC"]
    # checked while the server still runs
    assert [server.alive for server in r.servers._live.values()] == [True]
    left = [p for p in psutil.process_iter(["name"]) if p.info["name"] == f"gjfs{mark}"]
    assert left == []
    assert verdicts(cases(r, [mark + 1])) == ["AC"]


def test_without_a_memory_cgroup_what_a_case_leaves_is_ended_and_counted(
    tmp_path: Path,
) -> None:
    """Where no memory cgroup holds the cases (an ordinary user's, here root's without
    cgroups), init ends a case from the watchdog's last sample of the namespace, which
    spares the second listing when it finds no process: a child left sleeping and a
    grandchild that ended unwaited-for (its CPU and memory counted) are still found."""
    box = LauncherSandbox(replace(FULL, cgroups=False))
    limits = scaled(LIMITS, "AC")
    files = {"left": compiled(HOSTILE / "fork_and_exit.c", tmp_path)}
    files["helper"] = compiled(HOSTILE.parent / "hostile" / "ac_work_in_a_grandchild.c", tmp_path)
    mark = 10_000 + os.getpid() % 80_000
    for name, numbers in (("left", [mark, mark + 1]), ("helper", [4, 5])):
        server = box.start_server(ServerRequest([f"./{name}"], files, limits))
        try:
            for n in numbers:
                result = server.run(RunRequest(limits, f"{n}\n".encode()))
                assert result.output == f"{n}\n".encode() and server.alive, vars(result)
                gone = [p.info["name"] for p in psutil.process_iter(["name"])]
                assert not {f"gjfs{mark}", f"gjfs{mark + 1}"} & set(gone)
                if name == "helper":
                    assert result.cpu_ms >= 400 and result.peak_rss_kb >= 150 * 1024
        finally:
            server.close()


def test_a_case_sees_only_its_own_stdin_stdout_and_stderr(serve: list[ProgramRunner]) -> None:
    """A long case, then short ones, from one server: no byte of a previous case's
    input, output or error output (nor of what it wrote into them on its way out)."""
    r = runner(HOSTILE / "stdio_leftovers.c", serve)
    long = "1\n" + "x" * 99_999 + "\n"
    for stdin in (long, "2\n", "3\n", long, "4\n"):
        got = r.execute(stdin)
        assert got.extra["runner"] == RUNNER and got.exit_code == 0, vars(got)
        assert got.output == stdin.encode(), (stdin[:8], got.output[:80], len(got.output))
        assert got.stderr_head == stdin.encode()[:STDERR_HEAD_BYTES], got.stderr_head[:80]
    assert r.servers.started == 1


def test_a_case_sees_nothing_a_previous_case_left_in_its_scratch_dir(
    serve: list[ProgramRunner],
) -> None:
    """Files, read-only dirs, fifos and symlinks, and the dir's own times, extended
    attributes, mode and inode flags, or another dir in its place: each left by one
    case, none seen by the next (each attack twice, so that one follows each other)."""
    r = runner(HOSTILE / "scratch_leftovers.c", serve)
    got = cases(r, [*range(12), 0, 6, 1, 7])
    assert verdicts(got) == ["AC"] * 16, [res.output for res, _ in got]
    assert r.servers.started == 1


@pytest.mark.parametrize("name", ["staged_folder.c", "feedback.py"])
def test_a_served_program_writes_its_own_staged_folder_and_nothing_else(name: str) -> None:
    """A served run with staged files (an output validator writing its feedback) works
    in a folder of its own, writable for that case alone: the server's box around it,
    the server's files and any other case's folder stay out of its reach."""
    program = prepare(parse_spec(str(HOSTILE / name)), PROBLEM)
    servers = Servers()
    try:
        for n in (31, 32, 33):
            got = run(
                program,
                f"{n}\n".encode(),
                limits=scaled(LIMITS, "AC"),
                files={"input": f"staged {n}\n".encode()},
                read_back=["judgemessage.txt"],
                servers=servers,
            )
            assert got.extra["runner"] == RUNNER, vars(got)
            assert not got.judge_error and got.exit_code == 0, vars(got)
            assert got.output == f"{n}\n".encode(), vars(got)
            assert got.files == {"judgemessage.txt": f"case {n} saw staged {n}\n".encode()}
        assert servers.started == 1
    finally:
        servers.close()


@pytest.mark.parametrize("name", ["environment.c", "environment.py"])
def test_a_served_program_sees_the_environment_a_spawned_run_sees(name: str) -> None:
    """Nothing the judge set to start the server (LD_PRELOAD, LD_BIND_NOW, the control
    variables) is left in the environment the program's main sees."""
    program = prepare(parse_spec(str(HOSTILE / name)), PROBLEM)
    limits = scaled(LIMITS, "AC")  # each run must finish
    spawned = run(program, b"41\n", limits=limits)
    servers = Servers()
    try:
        served = [run(program, f"{n}\n".encode(), limits=limits, servers=servers) for n in (41, 42)]
    finally:
        servers.close()
    assert spawned.extra["runner"] != RUNNER and spawned.output == b"41\n", vars(spawned)
    for got, n in zip(served, (41, 42), strict=True):
        assert got.extra["runner"] == RUNNER and got.output == f"{n}\n".encode(), vars(got)
        assert sorted(got.stderr_head.splitlines()) == sorted(spawned.stderr_head.splitlines())


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("defines_syscall.cpp", "it defines syscall, which a library it loads would call"),
        (
            "defines_library_function.cpp",
            "it defines _ZNSt14error_categoryC2Ev, which a library it loads would call",
        ),
        ("thread_in_server.c", "its own code runs before main (.preinit_array)"),
    ],
)
def test_a_program_whose_code_would_run_in_the_server_is_spawned(
    name: str, why: str, serve: list[ProgramRunner]
) -> None:
    """Code of the program that runs in the server (before main, or called by the
    server itself) would see each case's files as the server receives them, and leave
    what it learnt in the memory the next cases are forked from: such a program is
    never served, each case spawned, saying why."""
    got = cases(runner(HOSTILE / name, serve), [51, 52, 53])
    assert verdicts(got) == ["AC"] * 3, [res.output for res, _ in got]
    for result, _ in got:
        assert result.extra["runner"] == f"spawn ({why})", vars(result)


def test_init_refuses_a_server_that_started_threads(tmp_path: Path) -> None:
    """Beneath that rule, init itself refuses a server with more than one thread at
    "ready" (the program is started as a server here without the rule)."""
    binary = compiled(HOSTILE / "thread_in_server.c", tmp_path)
    with pytest.raises(ForkServerUnavailable, match="threads before main"):
        get_sandbox().start_server(ServerRequest(["./prog"], {"prog": binary}, LIMITS)).close()


def test_a_statically_linked_program_is_spawned_and_its_rows_say_why(
    tmp_path: Path, serve: list[ProgramRunner]
) -> None:
    source = tmp_path / "echo.c"
    source.write_text(
        '#include <stdio.h>\nint main(){long n;scanf("%ld",&n);printf("%ld\\n",n);}\n'
    )
    program = tmp_path / "echo"
    subprocess.run(["gcc", "-O2", "-static", "-o", str(program), str(source)], check=True)
    got = cases(runner(program, serve), [7])
    assert verdicts(got) == ["AC"]
    assert got[0][0].extra["runner"] == "spawn (statically linked)"


def test_the_fork_server_runs_in_the_default_sandbox() -> None:
    box = get_sandbox()
    assert getattr(box, "namespaces", False), "without namespaces every case would be spawned"


def test_a_server_that_cannot_start_falls_back_to_spawning(
    serve: list[ProgramRunner], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kw: object) -> None:
        raise OSError("no space left for the scratch dir")

    monkeypatch.setattr("pipeline.program.execute.start_server", broken)
    got = cases(runner(HOSTILE / "kill_parent.c", serve), [8])
    assert verdicts(got) == ["AC"]
    assert got[0][0].extra["runner"].startswith("spawn (no fork server: OSError")


def test_a_program_held_open_for_writing_a_moment_still_starts_a_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The judge copies a server's program into its box, and a child that another of its
    threads spawns at that moment holds the copy open for writing until that child execs:
    exec'ing the copy fails with ETXTBSY meanwhile (seen in a clean-clone stress run, the
    battery's four threads at once). Held open here by another process for 0.3 s, the
    launcher's exec waits that writer out and the server starts."""
    source = tmp_path / "prog.c"
    source.write_text("int main(void) { return 0; }\n")
    binary = compiled(source, tmp_path)
    holders: list[subprocess.Popen[bytes]] = []
    hold = "import sys, time; f = open(sys.argv[1], 'r+b'); print(flush=True); time.sleep(0.3)"

    staged = forkserver.Workspace

    class Held(staged):  # type: ignore[valid-type,misc]
        @classmethod
        def create(cls, *args: object, **kwargs: object) -> forkserver.Workspace:
            ws = staged.create(*args, **kwargs)  # type: ignore[arg-type]
            holder = subprocess.Popen(
                [sys.executable, "-c", hold, str(ws.box / "prog")], stdout=subprocess.PIPE
            )
            holders.append(holder)
            assert holder.stdout is not None and holder.stdout.readline() == b"\n"
            return ws

    monkeypatch.setattr(forkserver, "Workspace", Held)
    try:
        server = get_sandbox().start_server(ServerRequest(["./prog"], {"prog": binary}, LIMITS))
        try:
            assert server.run(RunRequest(LIMITS)).exit_code == 0
        finally:
            server.close()
    finally:
        for holder in holders:
            holder.wait()
    assert len(holders) == 1


def test_a_python_program_served_is_charged_its_interpreters_start_up(tmp_path: Path) -> None:
    """A spawned Python run pays its interpreter's start-up in every case: a served one
    is charged it too (the zygote's own, measured before its imports, which are the
    judge's), one figure per server beside each case's own CPU time."""
    source = tmp_path / "echo.py"
    source.write_text("print(input())\n")
    # built in a cache of its own: the shared one may be another user's (the VM's)
    program = prepare(parse_spec(str(source)), PROBLEM, tmp_path / "cache")
    limits = scaled(LIMITS, "AC")
    servers = Servers()
    try:
        served = [run(program, f"{n}\n".encode(), limits=limits, servers=servers) for n in (7, 8)]
    finally:
        servers.close()
    for got, n in zip(served, (7, 8), strict=True):
        assert got.extra["runner"] == RUNNER and got.output == f"{n}\n".encode(), vars(got)
        assert got.start_cpu_ms > 0, vars(got)
    assert served[0].start_cpu_ms == served[1].start_cpu_ms


def test_a_zygote_is_never_charged_more_start_up_than_its_clock_says(tmp_path: Path) -> None:
    """The start-up a zygote tells with "ready" is taken only up to the CPU its process
    had used by then: a server saying 1,000 s is charged what it used."""
    liar = tmp_path / "liar.py"
    liar.write_text(
        "import ctypes, os, sys\n"
        "serve = ctypes.CDLL(sys.argv[1]).gj_serve_started\n"
        "serve.argtypes = [ctypes.c_longlong]\n"
        "if serve(10**9) != 0:\n"
        "    sys.exit('not a fork server')\n"
        "sys.stdout.write(input() + '\\n')\n"
        "sys.stdout.flush()\n"
        "os._exit(0)\n"
    )
    limits = scaled(LIMITS, "AC")
    files = {"liar.py": liar, forkserver.LIBRARY: launcher.fork_server_library()}
    python = "/usr/bin/python3"  # the system's (.ci/run installs it), as submissions run
    argv = [python, forkserver.inside("liar.py"), forkserver.inside(forkserver.LIBRARY)]
    server = get_sandbox().start_server(ServerRequest(argv, files, limits, preload=False))
    try:
        result = server.run(RunRequest(limits, b"9\n"))
    finally:
        server.close()
    check = judge(PROBLEM, "9\n", "9\n", result, limits)
    assert str(check.verdict) == "AC" and result.output == b"9\n", vars(result)
    assert 0 < result.start_cpu_ms < limits.cpu_ms, vars(result)
