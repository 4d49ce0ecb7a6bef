"""One killer of the wall limit: the launcher's watchdog (run.c's watch) ends a program
at its wall limit whether it was spawned (launcher.c, --wall-us) or served (serve.c),
under every backend; the judge's own deadline (protocol.WALL_BACKSTOP_MS past the
limit) is only a backstop for a launcher that never reports.

The backstop is made an hour here: a program that sleeps forever then ends only when the
watchdog ends it (or the test's timeout fails it), so the test needs no clock of its own.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.limits import Limits
from pipeline.program.execute import FORK_SERVER, Servers, run
from pipeline.program.submission import parse_spec, prepare
from pipeline.sandbox import forkserver, launched, make, protocol, use
from tests._fake_problem import make_problem
from tests.fork_server_probe import require_fork_server

SLEEPER = Path(__file__).resolve().parent / "submissions" / "hostile" / "tle_sleep_forever.py"
LIMITS = Limits.from_seconds(1.0, memory_mb=256, wall_ms=300)
HOUR_MS = 3_600_000
MODES = ["spawn", "fork-server"] + (["bwrap"] if shutil.which("bwrap") else [])


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    for module in (protocol, launched, forkserver):
        monkeypatch.setattr(module, "WALL_BACKSTOP_MS", HOUR_MS)
    if request.param == "fork-server":
        require_fork_server()
    if request.param == "bwrap":
        monkeypatch.setenv("GRIDJUDGE_SANDBOX", "bwrap")
        use(make("bwrap"))
    try:
        yield request.param
    finally:
        use(None)


def test_the_watchdog_ends_a_sleeping_program_at_its_wall_limit(mode: str) -> None:
    program = prepare(parse_spec(str(SLEEPER)), make_problem())
    servers = Servers() if mode == "fork-server" else None
    try:
        result = run(program, b"7\n", limits=LIMITS, servers=servers)
    finally:
        if servers is not None:
            servers.close()
    assert result.judge_error is None, vars(result)
    assert result.wall_exceeded and not result.cpu_exceeded, vars(result)
    assert (result.extra.get("runner") == FORK_SERVER) == (mode == "fork-server"), vars(result)
