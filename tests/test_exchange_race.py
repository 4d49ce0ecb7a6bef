"""Joined pipes (no transcript): the interactor sees the submission's end itself, and may
reject and be over before the judge's listening has counted that end. The judge then asks
the submission's pipe directly: a submission that ended first (a crash after its first
message) is not ended "after the interactor", and keeps its own verdict (RTE), as when
the listening had counted it (seen under load: crashes.py of the guess packages got WA).

And a run whose processes are all over ended by itself, however late its report reaches
the judge: an interactor that exited in time is not "ended after the submission" (out of
time: JE) because its report came past the grace (seen under double load: spotlive's
correct.cpp got JE)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.outcome import ExecutionResult
from pipeline.program.exchange import _Exchange
from pipeline.program.relay import INTERACTOR, SUBMISSION
from pipeline.program.transcript import NONE, TO_INTERACTOR
from pipeline.sandbox.handle import Handle, _alive


def _never(_name: str, _stdio: tuple[int, int], _handle: object) -> ExecutionResult:
    raise AssertionError("no run starts here")


@pytest.fixture
def rejected() -> Iterator[tuple[_Exchange, tuple[int, int], subprocess.Popen[bytes]]]:
    """An exchange on joined pipes whose interactor has rejected and is over, the
    listening having counted no end yet; the submission's stdout pipe and process."""
    done = _Exchange(_never, NONE, lambda r: r.exit_code == 43, idle_ms=None, grace_ms=None)
    out = os.pipe()
    done.ears = {TO_INTERACTOR: out[0]}
    done.results[INTERACTOR] = ExecutionResult(exit_code=43)
    writer = subprocess.Popen(["sleep", "30"])  # the submission's process, still there
    done.handles[SUBMISSION].arm(lambda: [writer.pid])
    yield done, out, writer
    writer.kill()
    writer.wait()
    for fd in (*out, *done.stop):
        with contextlib.suppress(OSError):  # the test closed the write end itself
            os.close(fd)


def test_a_submission_whose_output_ended_first_is_not_ended_after_the_interactor(
    rejected: tuple[_Exchange, tuple[int, int], subprocess.Popen[bytes]],
) -> None:
    done, out, writer = rejected
    writer.kill()
    writer.wait()
    os.close(out[1])  # the submission is over: its stdout's last writer gone
    done.watch(False, [])
    assert done.handles[SUBMISSION].ended is None


def test_a_submission_still_writing_is_ended_after_the_interactor(
    rejected: tuple[_Exchange, tuple[int, int], subprocess.Popen[bytes]],
) -> None:
    done, _, _ = rejected
    done.watch(False, [])
    assert done.handles[SUBMISSION].ended is not None


GRACE_MS = 200.0


def _late_report(name: str, stdio: tuple[int, int], handle: Handle) -> ExecutionResult:
    """A run of `true` on the exchange's pipes whose report reaches the judge late: the
    interactor's comes a whole grace after its process is over, as on a loaded machine."""
    proc = subprocess.Popen(["true"], stdin=stdio[0], stdout=stdio[1])
    for fd in stdio:
        os.close(fd)
    handle.arm(lambda: [proc.pid])
    proc.wait()
    if name == INTERACTOR:
        time.sleep(3 * GRACE_MS / 1000)
    handle.disarm()
    return ExecutionResult(exit_code=42 if name == INTERACTOR else 0)


def test_an_interactor_over_in_time_whose_report_comes_late_is_not_out_of_time() -> None:
    done = _Exchange(_late_report, NONE, None, idle_ms=None, grace_ms=GRACE_MS).run_joined()
    assert done.interactor.exit_code == 42
    assert "ended" not in done.interactor.extra and not done.interactor.wall_exceeded


def test_an_interactor_running_past_the_grace_is_ended_then() -> None:
    lingering = Handle()
    sleeper = subprocess.Popen(["sleep", "30"])
    lingering.arm(lambda: [sleeper.pid])
    lingering.end("after the submission")
    assert sleeper.wait(timeout=10) == -9 and lingering.ended == "after the submission"
    lingering.end("again")  # over now: nothing to kill, the first reason stays
    assert lingering.ended == "after the submission"


def test_a_run_asked_to_end_before_it_is_armed_ends_once_armed() -> None:
    early = Handle()
    early.end("idle")
    assert early.ended is None
    sleeper = subprocess.Popen(["sleep", "30"])
    early.arm(lambda: [sleeper.pid])
    assert sleeper.wait(timeout=10) == -9 and early.ended == "idle"


def test_a_zombie_is_over_and_a_leader_gone_before_its_threads_is_not(tmp_path: Path) -> None:
    # the judge's reading of a run's processes: a zombie's files are closed and it will
    # never run again; a main thread that called pthread_exit leaves its process running
    done = subprocess.Popen(["true"])
    while _state_letter(done.pid) != "Z":
        time.sleep(0.01)
    assert not _alive(done.pid)
    done.wait()
    assert not _alive(done.pid)  # gone
    source = tmp_path / "leader_exits.c"
    source.write_text(
        "#include <pthread.h>\n"
        "static void *spin(void *a) { for (;;) {} return a; }\n"
        "int main(void) { pthread_t t; pthread_create(&t, 0, spin, 0); pthread_exit(0); }\n"
    )
    binary = tmp_path / "leader_exits"
    subprocess.run(["gcc", "-O1", "-pthread", "-o", str(binary), str(source)], check=True)
    threads = subprocess.Popen([str(binary)])
    try:
        while _state_letter(threads.pid) != "Z":  # the leader over, its thread spinning
            time.sleep(0.01)
        assert _alive(threads.pid)
    finally:
        threads.kill()
        threads.wait()


def _state_letter(pid: int) -> str:
    with open(f"/proc/{pid}/stat", "rb") as fh:
        return fh.read().rsplit(b")", 1)[1].split()[0].decode()
