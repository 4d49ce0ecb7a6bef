"""The hostile-submission battery: every file in tests/submissions/hostile/ runs in the
sandbox and must get the verdict its name starts with, leaving the host unchanged."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import resource
import shutil
import signal
import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest

from pipeline.grade.runners.batch import BatchRunner
from pipeline.grade.runners.program import ProgramRunner
from pipeline.grade.verdict import judge
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.checkers import CheckResult
from pipeline.program import execute
from pipeline.program.build import build, default_cache_dir
from pipeline.program.execute import Servers
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare
from pipeline.sandbox import make
from pipeline.sandbox.base import QUARANTINE, runs_root
from tests._fake_problem import make_problem
from tests.fork_server_probe import require_fork_server
from tests.time_scale import scaled, time_scale

HOSTILE = Path(__file__).resolve().parent / "submissions" / "hostile"
# honest programs in languages whose runtimes start threads; no fork server serves them
# (the JVM; Go's statically linked binaries): spawned by every runner, saying why
THREADED = {".java": "javac", ".go": "go"}
FILES = sorted(
    p
    for p in HOSTILE.iterdir()
    if p.suffix in (".c", ".cpp", ".py")
    or p.is_dir()
    or (p.suffix in THREADED and shutil.which(THREADED[p.suffix]))
)
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


# the CPU burner gets a wall limit no loaded machine reaches before its CPU limit: the
# wall clock must not be what ends it
LONG_WALL = {"tle_cpu_in_child.c": 20_000}


def limits_for(name: str) -> Limits:
    """LIMITS for the program called `name`, scaled for a slow machine when it must finish."""
    limits = scaled(LIMITS, expected(name))
    return dataclasses.replace(limits, wall_ms=LONG_WALL[name]) if name in LONG_WALL else limits


def run_one(sub: PreparedSubmission, text: str, mode: str, limits: Limits) -> ExecutionResult:
    if mode == "spawn":
        return sub.run(text, limits)
    if mode == "batch":  # two cases in one process first (the attack runs there), then,
        # the batch not passing, each case alone, as the runner runs a case it rejects
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


def chosen(session: pytest.Session) -> list[Path]:
    """The battery's programs the session's tests read: every one when a test reads them
    all (test_details), else those of the test_verdict_named_by_path items selected (a
    `-k` that picks a few programs runs just those)."""
    names = set()
    for item in session.items:
        if not isinstance(item, pytest.Function) or item.module is None:
            continue
        if item.module.__name__ != __name__:
            continue
        if item.originalname == "test_details":
            return FILES
        if item.originalname == "test_verdict_named_by_path":
            names.add(item.callspec.params["path"].name)
    return [p for p in FILES if p.name in names]


@pytest.fixture(scope="module", params=MODES, ids=["/".join(m) for m in MODES])
def outcomes(request: pytest.FixtureRequest, port: int) -> Iterator[dict[str, Outcome]]:
    """Runs the battery's chosen programs at once (4 at a time) under one backend and mode."""
    backend, mode = request.param
    if mode == "fork-server":
        require_fork_server()
    from pipeline import sandbox as sandbox_module

    with pytest.MonkeyPatch.context() as env:
        env.setenv("GRIDJUDGE_SANDBOX", backend)
        env.setenv("GRIDJUDGE_HIDE", str(hidden_corpus(port)))
        sandbox_module.use(make(backend))
        try:
            subs = {p.name: prepare(parse_spec(str(p)), PROBLEM) for p in chosen(request.session)}
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
        spawned = {name for name in runs if Path(name).suffix in THREADED}
        assert all(runs[n].extra["runner"].startswith("spawn (") for n in spawned)
        expect = set(runs) - set(NOT_SERVED) - spawned
        fell_back = {n: runs[n].extra.get("runner") for n in expect - served}
        assert not fell_back, fell_back  # each with the runner's reason
        assert served == expect
        not_served = {name: why for name, why in NOT_SERVED.items() if name in runs}
        assert {name: runs[name].extra["runner"] for name in not_served} == not_served
    yield {
        name: (res, judge(PROBLEM, text, text, res, limits_for(name))) for name, res in runs.items()
    }


# holes a backend still has, each with the verdict its attack gets there (and why)
KNOWN_OPEN: dict[tuple[str, str], str] = {}


@functools.cache
def without_cgroup(backend: str) -> bool:
    """No cgroup holds this backend's runs (an ordinary user without a delegated cgroup
    v2 subtree): the launcher's watchdog sums what their processes use."""
    return getattr(make(backend), "pool", None) is None


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_verdict_named_by_path(
    path: Path, outcomes: dict[str, Outcome], request: pytest.FixtureRequest
) -> None:
    result, check = outcomes[path.name]
    backend, _ = request.node.callspec.params["outcomes"]
    want = KNOWN_OPEN.get((backend, path.name)) or expected(path.name)
    details = {k: v for k, v in vars(result).items() if k != "output"}
    assert str(check.verdict) == want, (check, details)


@pytest.mark.parametrize("mode", MODES, ids=["/".join(m) for m in MODES])
def test_no_state_of_a_run_reaches_the_next(mode: tuple[str, str], port: int) -> None:
    """Marks left in every writable place, a key added to the user's keyring: a second
    run (or fork-server case) sees none of them."""
    backend, how = mode
    if how == "fork-server":
        require_fork_server()
    from pipeline import sandbox as sandbox_module

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
    assert hog.memory_exceeded, vars(hog)
    early, _ = outcomes["ac_cpu_before_main_charged.c"]
    # what its clock read before main: in the run's CPU (spawned by every runner; a
    # server's start CPU, had it one, is beside it)
    assert early.cpu_ms + early.start_cpu_ms >= 300, vars(early)
    # the grandchild's own clock read 400 ms and it touched 150 MB: both counted
    helper, _ = outcomes["ac_work_in_a_grandchild.c"]
    if backend == "bwrap" and without_cgroup(backend):
        # known gap: bwrap without a cgroup (an ordinary user's) reports what wait4 saw,
        # and a grandchild orphaned in bwrap's pid namespace is not always in it
        assert helper.extra.get("children") == "not counted", vars(helper)
    else:
        assert helper.cpu_ms >= 400 and helper.peak_rss_kb >= 150 * 1024, vars(helper)
    # a child burning CPU while its parent waits: ended at the CPU limit (plus the
    # watchdog's period), not run on to the wall limit on the parent's clock
    burner, _ = outcomes["tle_cpu_in_child.c"]
    assert burner.cpu_exceeded and not burner.wall_exceeded, str(vars(burner))
    assert burner.cpu_ms < 1.5 * LIMITS.cpu_ms, str(vars(burner))
    net, _ = outcomes["ac_no_network.py"]
    assert b"no network" in net.stderr_head
    # nothing left behind: no escaped files, no daemon, no fork-bomb survivor
    for place in ("/tmp", "/var/tmp", "/dev/shm", "/root", ""):
        # (os.path: an ordinary user running the battery may not look into /root)
        assert not os.path.exists(f"{place}/gj_escape_{port}")
    assert _named(str(port)) == [], "the daemon survived its run"
    assert _named(f"gjfb{port}") == [], "fork-bomb processes survived"


@pytest.mark.parametrize("backend", sorted({backend for backend, _ in MODES}))
def test_a_compile_error_quotes_no_host_file(backend: str, port: int, tmp_path: Path) -> None:
    """A source that #includes a host file by its absolute path: its compile error says
    the file is not there and quotes nothing of it (before, gcc quoted its first line:
    /etc/passwd's, an answer under /opt, a file under /var, another build's)."""
    marker = f"SECRET-{port}-"
    planted: dict[Path, str | None] = {
        default_cache_dir() / f"gj_secret_{port}.txt": f"{marker}cache"
    }
    # the battery's host folders, where this user could plant them (_plant)
    if Path(f"/var/gj_sessions_{port}").is_dir():
        planted[Path(f"/var/gj_sessions_{port}/secret.txt")] = f"{marker}var"
    if (hidden_corpus(port) / "answer.ans").exists():
        planted[hidden_corpus(port) / "answer.ans"] = None  # the battery's own, "SECRET"
    targets = [Path("/etc/passwd"), Path(__file__).resolve(), *planted]
    from pipeline import sandbox as sandbox_module

    messages = {}
    with pytest.MonkeyPatch.context() as env:
        env.setenv("GRIDJUDGE_SANDBOX", backend)
        sandbox_module.use(make(backend))
        try:
            for path, text in planted.items():
                if text is not None:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text + "\n")
            for path in targets:
                source = f'#include "{path}"\nint main(void) {{ return 0; }}\n'.encode()
                error = build("c17", [("main.c", source)], tmp_path).error or ""
                messages[path] = (error, path.read_text().splitlines()[:3])
        finally:
            sandbox_module.use(None)
            for path, text in planted.items():
                if text is not None:
                    path.unlink(missing_ok=True)
    for path, (message, lines) in messages.items():
        assert "No such file" in message, (path, message)
        seen = [line for line in lines if line.strip() and line in message]
        assert not seen and "SECRET" not in message, (path, message)


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
    from pipeline import sandbox as sandbox_module

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


def test_runtimes_that_start_threads_are_in_the_battery() -> None:
    """Java and Go programs starting threads run with the battery where their toolchains
    are (a machine may lack them: then this says so)."""
    missing = [tool for tool in THREADED.values() if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (the battery runs without them)")
    assert {p.suffix for p in FILES} >= set(THREADED)


RESPAWNED = "spawn (the fork server failed)"


def _held_in_run_folders() -> int:
    """Bytes held in this judge's run folders (the host's shared memory)."""
    mine = f"run-{os.getpid()}-"
    held = 0
    for top in runs_root().iterdir():
        if not top.name.startswith(mine):
            continue
        for folder, _, names in os.walk(top):
            for name in names:
                with contextlib.suppress(OSError):
                    held += os.lstat(os.path.join(folder, name)).st_blocks * 512
    return held


@pytest.mark.parametrize("mode", ["spawn", "fork-server", "staged"])
def test_what_a_run_writes_stays_out_of_the_host(mode: str, port: int) -> None:
    """1.5 GB written into the scratch dir is the run's memory (MLE), held in a private
    tmpfs of the run's: the run folder in the host's shared memory never grows by it.
    `staged`: a served case with staged files (a checker's), whose scratch dir is a
    folder the judge made in the server's run folder."""
    if mode != "spawn":
        require_fork_server()
    from pipeline import sandbox as sandbox_module

    name = "mle_fill_the_box.c"
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.02):
            peak[0] = max(peak[0], _held_in_run_folders())

    with pytest.MonkeyPatch.context() as env:
        env.setenv("GRIDJUDGE_SANDBOX", "rlimit")
        sandbox_module.use(make("rlimit"))
        sampler = threading.Thread(target=sample)
        try:
            sub = prepare(parse_spec(str(HOSTILE / name)), PROBLEM)
            sampler.start()
            if mode == "staged":
                servers = Servers()
                try:
                    result = execute.run(sub, f"{port}\n".encode(), limits=limits_for(name),
                                         files={"staged": b"x"}, servers=servers)  # fmt: skip
                finally:
                    servers.close()
                # (under a memory cgroup the OOM killer may pick the server, which
                # shares the case's cgroup: the run is then spawned again)
                served = {"fork-server"} | (set() if without_cgroup("rlimit") else {RESPAWNED})
                assert result.extra["runner"] in served, vars(result)
            else:
                result = run_one(sub, f"{port}\n", mode, limits_for(name))
        finally:
            done.set()
            sampler.join()
            sandbox_module.use(None)
    verdict = str(judge(PROBLEM, f"{port}\n", f"{port}\n", result, limits_for(name)).verdict)
    assert verdict in ("MLE", "OLE"), vars(result)
    assert peak[0] < 64 << 20, peak[0]
