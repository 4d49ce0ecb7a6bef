"""The hostile-submission battery: every file in tests/submissions/hostile/ runs in the
sandbox and must get the verdict its name starts with, leaving the host unchanged."""

from __future__ import annotations

import dataclasses
import functools
import os
import resource
import shutil
import signal
import socket
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest

from pipeline.grade.runners.batch import BatchRunner
from pipeline.grade.runners.program import ProgramRunner
from pipeline.grade.verdict import judge
from pipeline.limits import Limits
from pipeline.problem.checkers import CheckResult
from pipeline.program.execution import ExecutionResult
from pipeline.program.sandbox import make
from pipeline.program.sandbox.base import QUARANTINE, runs_root
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare
from tests._fake_problem import make_problem
from tests.fork_server_probe import require_fork_server
from tests.time_scale import scaled, time_scale

HOSTILE = Path(__file__).resolve().parent / "submissions" / "hostile"
FILES = sorted(p for p in HOSTILE.iterdir() if p.suffix in (".c", ".cpp", ".py") or p.is_dir())
# code of their own before main, which would run in a fork server: spawned, and why
# (tests/test_forkserver.py tests init's limits before "ready" beneath that rule)
NOT_SERVED = dict.fromkeys(
    ("ac_cpu_before_main_charged.c", "mle_memory_before_main.c", "tle_cpu_before_main.c"),
    "spawn (its own code runs before main (.preinit_array))",
)
# CPU 1 s: room for the memory hog to fault in 256 MB before its limit, even on a loaded
# machine; each program gets these scaled for a slow machine (tests/time_scale.py)
LIMITS = Limits.from_seconds(1.0, memory_mb=256, wall_ms=4000, output_kb=1024, processes=32)
PROBLEM = make_problem()
# (backend, how each case's process starts): the fork server serves only from the full
# default sandbox
MODES = [("rlimit", "spawn"), ("rlimit", "fork-server"), ("rlimit", "batch")] + (
    [("bwrap", "spawn")] if shutil.which("bwrap") else []
)

Outcome = tuple[ExecutionResult, CheckResult]


def _named(name: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        cmd = proc.info["cmdline"] or []
        if proc.info["name"] == name or (len(cmd) == 2 and cmd[0] == "sleep" and cmd[1] == name):
            found.append(proc)
    return found


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    """A listener on the host's loopback: its port is N, the input of every program.
    An ordinary user runs the battery on the port root chose (GRIDJUDGE_TEST_PORT), whose
    folders under /var and /opt root made for it (tests/test_ordinary_user.py)."""
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", int(os.environ.get("GRIDJUDGE_TEST_PORT", "0"))))
    server.listen(8)
    number = server.getsockname()[1]
    secret = Path(f"/tmp/gj_secret_{number}")
    # judge data readable by anyone, in a folder the judge hides (GRIDJUDGE_HIDE)
    corpus = hidden_corpus(number)
    # a world-writable host folder, as a 1733 session folder under /var is
    sessions = Path(f"/var/gj_sessions_{number}")
    planted = [
        folder
        for folder, mode in ((secret, 0o755), (corpus, 0o755), (sessions, 0o1733))
        if _plant(folder, mode)
    ]
    for answer in (secret / "answer.ans", corpus / "answer.ans"):
        if answer.parent in planted:
            answer.write_text("SECRET\n")
            os.chmod(answer, 0o644)
    yield number
    server.close()
    for folder in planted:
        shutil.rmtree(folder, ignore_errors=True)


def _plant(folder: Path, mode: int) -> bool:
    """Makes a host folder of the battery; False where this user may not: the view
    shows /opt and /var, which only root writes, so an ordinary user's run has them only
    when root made them for it (test_host_folders_are_planted says so)."""
    try:
        folder.mkdir(exist_ok=True)
        os.chmod(folder, mode)
    except PermissionError:
        if os.geteuid() == 0:
            raise
        return False
    return True


@pytest.mark.needs_root(reason="the battery's folders under /opt and /var, which the view shows")
def test_host_folders_are_planted(port: int) -> None:
    assert (hidden_corpus(port) / "answer.ans").read_text() == "SECRET\n"
    assert Path(f"/var/gj_sessions_{port}").stat().st_mode & 0o7777 == 0o1733


def hidden_corpus(port: int) -> Path:
    return Path(f"/opt/gj_corpus_{port}")


# the problem with a multi-case format, for the batch runner: cases one after the other,
# one output line each
BATCHED = dataclasses.replace(
    PROBLEM, join="".join, split=lambda out, n: out.splitlines(), multi_case=8
)


def expected(name: str) -> str:
    """The verdict a program's file name gives (before any backend's exception)."""
    return name.split("_", 1)[0].upper()


def limits_for(name: str) -> Limits:
    """LIMITS for the program called `name`, scaled for a slow machine when it must finish."""
    return scaled(LIMITS, expected(name))


def run_one(sub: PreparedSubmission, text: str, mode: str, limits: Limits) -> ExecutionResult:
    if mode == "spawn":
        return sub.run(text, limits)
    if mode == "batch":  # two cases in one process first (the attack runs there), then,
        # the batch not passing, each case alone as the runner bisects it
        batch = BatchRunner(ProgramRunner(BATCHED, sub, limits), 2)
        try:
            return batch.run_group([text, text], [text, text])[0].result
        finally:
            batch.close()
    runner = ProgramRunner(PROBLEM, sub, limits)
    try:
        return runner.execute(text)
    finally:
        runner.close()


@pytest.fixture(scope="module", params=MODES, ids=["/".join(m) for m in MODES])
def outcomes(request: pytest.FixtureRequest, port: int) -> Iterator[dict[str, Outcome]]:
    """Runs the whole battery at once (4 at a time) under one backend and mode."""
    backend, mode = request.param
    if mode == "fork-server":
        require_fork_server()
    from pipeline.program import sandbox as sandbox_module

    with pytest.MonkeyPatch.context() as env:
        env.setenv("GRIDJUDGE_SANDBOX", backend)
        env.setenv("GRIDJUDGE_HIDE", str(hidden_corpus(port)))
        sandbox_module.use(make(backend))
        try:
            subs = {p.name: prepare(parse_spec(str(p)), PROBLEM) for p in FILES}
            text = f"{port}\n"
            judge_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            with ThreadPoolExecutor(max_workers=4) as pool:
                runs = dict(
                    zip(
                        subs,
                        pool.map(
                            lambda item: run_one(item[1], text, mode, limits_for(item[0])),
                            subs.items(),
                        ),
                        strict=True,
                    )
                )
        finally:
            sandbox_module.use(None)
    judge_growth_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - judge_before
    assert judge_growth_kb < 200 * 1024, "the judge buffered a flood of output"
    if mode == "fork-server":  # each was served, none fell back to spawning
        served = {name for name, r in runs.items() if r.extra.get("runner") == "fork-server"}
        fell_back = {n: runs[n].extra.get("runner") for n in set(runs) - set(NOT_SERVED) - served}
        assert not fell_back, fell_back  # each with the runner's reason
        assert served == set(runs) - set(NOT_SERVED)
        assert {name: runs[name].extra["runner"] for name in NOT_SERVED} == NOT_SERVED
    yield {
        name: (res, judge(PROBLEM, text, text, res, limits_for(name))) for name, res in runs.items()
    }


# holes a backend still has, each with the verdict its attack gets there (and why)
KNOWN_OPEN: dict[tuple[str, str], str] = {}
# Where RLIMIT_AS is the memory limit (no writable memory cgroup: an ordinary user
# without a delegated cgroup v2 subtree), an allocation past the limit is refused inside
# the program, and the kernel reports nothing: what the program then does is its
# verdict. docs/sandbox.md says so.
# (this one exits 1; the other reads the memory it was refused before main: SIGSEGV)
ADDRESS_SPACE_LIMITED = {"mle_allocate_2gb.c": "RE", "mle_memory_before_main.c": "RE"}


@functools.cache
def memory_by_rlimit(backend: str) -> bool:
    box = make(backend)
    return getattr(box, "pool", None) is None


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_verdict_named_by_path(
    path: Path, outcomes: dict[str, Outcome], request: pytest.FixtureRequest
) -> None:
    result, check = outcomes[path.name]
    backend, _ = request.node.callspec.params["outcomes"]
    want = KNOWN_OPEN.get((backend, path.name)) or expected(path.name)
    if path.name in ADDRESS_SPACE_LIMITED and memory_by_rlimit(backend):
        want = ADDRESS_SPACE_LIMITED[path.name]
    details = {k: v for k, v in vars(result).items() if k != "output"}
    assert str(check.verdict) == want, (check, details)


@pytest.mark.parametrize("mode", MODES, ids=["/".join(m) for m in MODES])
def test_no_state_of_a_run_reaches_the_next(mode: tuple[str, str], port: int) -> None:
    """Marks left in every writable place, a key added to the user's keyring: a second
    run (or fork-server case) sees none of them."""
    backend, how = mode
    if how == "fork-server":
        require_fork_server()
    from pipeline.program import sandbox as sandbox_module

    text = f"{port}\n"
    got = []
    with pytest.MonkeyPatch.context() as env:
        env.setenv("GRIDJUDGE_SANDBOX", backend)
        sandbox_module.use(make(backend))
        try:
            for name in ("ac_no_writable_host_folder.c", "ac_no_keyring.c"):
                sub = prepare(parse_spec(str(HOSTILE / name)), PROBLEM)
                limits = limits_for(name)
                if how == "spawn":
                    runs = [sub.run(text, limits), sub.run(text, limits)]
                else:
                    runner = ProgramRunner(PROBLEM, sub, limits)
                    try:
                        runs = [runner.execute(text), runner.execute(text)]
                    finally:
                        runner.close()
                got += [(r.output, r.extra.get("runner")) for r in runs]
        finally:
            sandbox_module.use(None)
    want = "spawn" if how == "spawn" else "fork-server"
    assert got == [(text.encode(), want)] * 4


def test_details(outcomes: dict[str, Outcome], port: int, request: pytest.FixtureRequest) -> None:
    segv, _ = outcomes["re_segfault.c"]
    assert segv.signal == signal.SIGSEGV
    assert outcomes["re_exit_3.py"][0].exit_code == 3
    sleeper, _ = outcomes["tle_sleep_forever.py"]
    # (little CPU: the interpreter's start-up, slower on a slow machine)
    assert sleeper.wall_exceeded and sleeper.cpu_ms < 500 * time_scale()
    loop, _ = outcomes["tle_infinite_loop.c"]
    # killed by the CPU limit, or by the wall clock on a machine too loaded to reach it
    assert loop.cpu_exceeded or loop.wall_exceeded
    flood, _ = outcomes["ole_print_1gb.c"]
    assert len(flood.output) == LIMITS.output_bytes
    hog, _ = outcomes["mle_allocate_2gb.c"]
    backend, _ = request.node.callspec.params["outcomes"]
    if memory_by_rlimit(backend):  # malloc refused: the program exits 1
        assert hog.exit_code == 1 and not hog.memory_exceeded, vars(hog)
    else:
        assert hog.memory_exceeded, vars(hog)
    early, _ = outcomes["ac_cpu_before_main_charged.c"]
    # what its clock read before main: in the run's CPU (spawned by every runner; a
    # server's start CPU, had it one, is beside it)
    assert early.cpu_ms + early.start_cpu_ms >= 300, vars(early)
    # the grandchild's own clock read 400 ms and it touched 150 MB: both counted
    helper, _ = outcomes["ac_work_in_a_grandchild.c"]
    if backend == "bwrap" and memory_by_rlimit(backend):
        # known gap: bwrap without a cgroup (an ordinary user's) reports what wait4 saw,
        # and a grandchild orphaned in bwrap's pid namespace is not always in it
        assert helper.extra.get("children") == "not counted", vars(helper)
    else:
        assert helper.cpu_ms >= 400 and helper.peak_rss_kb >= 150 * 1024, vars(helper)
    net, _ = outcomes["ac_no_network.py"]
    assert b"no network" in net.stderr_head
    # nothing left behind: no escaped files, no daemon, no fork-bomb survivor
    for place in ("/tmp", "/var/tmp", "/dev/shm", "/root", ""):
        # (os.path: an ordinary user running the battery may not look into /root)
        assert not os.path.exists(f"{place}/gj_escape_{port}")
    assert _named(str(port)) == [], "the daemon survived its run"
    assert _named(f"gjfb{port}") == [], "fork-bomb processes survived"


def _left_by_this_judge() -> list[str]:
    mine = f"run-{os.getpid()}-"
    return [
        p.name for p in runs_root().iterdir() if p.name.removeprefix(QUARANTINE).startswith(mine)
    ]


@pytest.mark.parametrize("mode", ["spawn", "fork-server"])
def test_a_deep_tree_is_removed_and_honest_runs_after_it_get_their_verdict(
    mode: str, port: int
) -> None:
    """5000 levels, odd names, an unreadable dir, in the scratch dir and in /tmp: the
    next run (or case) sees none of it, the sandbox's slot is clean for an honest 200 MB
    program, and nothing is left under the runs root."""
    if mode == "fork-server":
        require_fork_server()
    from pipeline.program import sandbox as sandbox_module

    with pytest.MonkeyPatch.context() as env:
        env.setenv("GRIDJUDGE_SANDBOX", "rlimit")
        sandbox_module.use(make("rlimit"))
        try:
            deep = prepare(parse_spec(str(HOSTILE / "ac_deep_tree.c")), PROBLEM)
            honest = prepare(parse_spec(str(HOSTILE / "ac_allocate_200mb.c")), PROBLEM)
            text = f"{port}\n"
            limits = limits_for("ac_deep_tree.c")
            if mode == "spawn":
                runs = [deep.run(text, limits), deep.run(text, limits)]
            else:
                runner = ProgramRunner(PROBLEM, deep, limits)
                try:
                    runs = [runner.execute(text), runner.execute(text)]
                finally:
                    runner.close()
            runs.append(run_one(honest, text, mode, limits_for("ac_allocate_200mb.c")))
        finally:
            sandbox_module.use(None)
    got = [str(judge(PROBLEM, text, text, r, limits).verdict) for r in runs]
    assert got == ["AC", "AC", "AC"], [(r.output, r.peak_rss_kb, r.judge_error) for r in runs]
    assert _left_by_this_judge() == []
