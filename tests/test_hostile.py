"""The hostile-submission battery: every file in tests/submissions/hostile/ runs in the
sandbox and must get the verdict its name starts with, leaving the host unchanged."""

from __future__ import annotations

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

from pipeline.grade.runners.program import ProgramRunner
from pipeline.grade.verdict import judge
from pipeline.limits import Limits
from pipeline.problem.checkers import CheckResult
from pipeline.program.execution import ExecutionResult
from pipeline.program.sandbox import make
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare
from tests._fake_problem import make_problem
from tests.fork_server_probe import require_fork_server

HOSTILE = Path(__file__).resolve().parent / "submissions" / "hostile"
FILES = sorted(p for p in HOSTILE.iterdir() if p.suffix in (".c", ".cpp", ".py"))
# CPU 1 s: room for the memory hog to fault in 256 MB before its limit, even on a loaded machine
LIMITS = Limits.from_seconds(1.0, memory_mb=256, wall_ms=4000, output_kb=1024, processes=32)
PROBLEM = make_problem()
# (backend, how each case's process starts): the fork server serves only from the full
# default sandbox
MODES = [("rlimit", "spawn"), ("rlimit", "fork-server")] + (
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
    """A listener on the host's loopback: its port is N, the input of every program."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    number = server.getsockname()[1]
    secret = Path(f"/tmp/gj_secret_{number}")
    secret.mkdir(mode=0o755, exist_ok=True)
    (secret / "answer.ans").write_text("SECRET\n")
    os.chmod(secret / "answer.ans", 0o644)
    yield number
    server.close()
    shutil.rmtree(secret, ignore_errors=True)


def run_one(sub: PreparedSubmission, text: str, mode: str) -> ExecutionResult:
    if mode == "spawn":
        return sub.run(text, LIMITS)
    runner = ProgramRunner(PROBLEM, sub, LIMITS)
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
        sandbox_module.use(make(backend))
        try:
            subs = {p.name: prepare(parse_spec(str(p)), PROBLEM) for p in FILES}
            text = f"{port}\n"
            judge_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            with ThreadPoolExecutor(max_workers=4) as pool:
                runs = dict(
                    zip(
                        subs,
                        pool.map(lambda s: run_one(s, text, mode), subs.values()),
                        strict=True,
                    )
                )
        finally:
            sandbox_module.use(None)
    judge_growth_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - judge_before
    assert judge_growth_kb < 200 * 1024, "the judge buffered a flood of output"
    if mode == "fork-server":  # each was served, none fell back to spawning
        assert {r.extra.get("runner") for r in runs.values()} == {"fork-server"}
    yield {name: (res, judge(PROBLEM, text, text, res, LIMITS)) for name, res in runs.items()}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_verdict_named_by_path(path: Path, outcomes: dict[str, Outcome]) -> None:
    result, check = outcomes[path.name]
    want = path.name.split("_", 1)[0].upper()
    details = {k: v for k, v in vars(result).items() if k != "output"}
    assert str(check.verdict) == want, (check, details)


def test_details(outcomes: dict[str, Outcome], port: int) -> None:
    segv, _ = outcomes["re_segfault.c"]
    assert segv.signal == signal.SIGSEGV
    assert outcomes["re_exit_3.py"][0].exit_code == 3
    sleeper, _ = outcomes["tle_sleep_forever.py"]
    assert sleeper.wall_exceeded and sleeper.cpu_ms < 500
    loop, _ = outcomes["tle_infinite_loop.c"]
    # killed by the CPU limit, or by the wall clock on a machine too loaded to reach it
    assert loop.cpu_exceeded or loop.wall_exceeded
    flood, _ = outcomes["ole_print_1gb.c"]
    assert len(flood.output) == LIMITS.output_bytes
    hog, _ = outcomes["mle_allocate_2gb.c"]
    assert hog.memory_exceeded
    net, _ = outcomes["ac_no_network.py"]
    assert b"no network" in net.stderr_head
    # nothing left behind: no escaped files, no daemon, no fork-bomb survivor
    for place in ("/tmp", "/var/tmp", "/dev/shm", "/root", ""):
        assert not Path(f"{place}/gj_escape_{port}").exists()
    assert _named(str(port)) == [], "the daemon survived its run"
    assert _named("gjforkbomb") == [], "fork-bomb processes survived"
