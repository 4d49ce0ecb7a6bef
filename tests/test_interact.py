"""The seam's interaction of two sandboxed programs (interact.interact), under spawn and
the fork server: the bytes reach the other side in order and the transcript records
them; two programs waiting for each other end at the submission's wall limit (TLE on
its side), never hang; and the transcript's summary keeps each direction's first and
last KiB."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline.grade.verdict import judge_interaction
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.package.protocols.contract import Case
from pipeline.package.protocols.interactive import KattisInteractor
from pipeline.problem.contract import STDIO
from pipeline.program import execute, interact
from pipeline.program.build import default_cache_dir
from pipeline.program.relay import (
    AFTER_INTERACTOR,
    AFTER_SUBMISSION,
    IDLE,
    INTERACTOR,
    READ_BYTES,
    SUBMISSION,
)
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare_program
from pipeline.program.transcript import (
    NONE,
    SUMMARY,
    TO_INTERACTOR,
    TO_SUBMISSION,
    Transcript,
    TranscriptKind,
)
from pipeline.schemas import Verdict
from tests.fork_server_probe import require_fork_server

HERE = Path(__file__).parent / "interact"
NUMBERS = b"3 14 15 92 65\n"


def prepared(name: str) -> PreparedSubmission:
    program = prepare_program(parse_spec(str(HERE / name)), "interact", STDIO, default_cache_dir())
    if program.compile_error is not None or program.unavailable is not None:
        pytest.skip(f"{name}: {program.compile_error or program.unavailable}")
    return program


@pytest.fixture(params=["spawn", "fork-server", "bwrap"])
def fork(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[bool]:
    """Whether to fork from servers; "bwrap": spawned in the bwrap backend."""
    if request.param == "fork-server":
        require_fork_server()
    if request.param == "bwrap":
        if shutil.which("bwrap") is None:
            pytest.skip("no bwrap on this machine")
        monkeypatch.setenv("GRIDJUDGE_SANDBOX", "bwrap")
    yield request.param == "fork-server"


@pytest.fixture(params=[SUMMARY, NONE])
def kind(request: pytest.FixtureRequest) -> TranscriptKind:
    """Relayed with a transcript, or on joined pipes (NONE)."""
    return request.param  # type: ignore[no-any-return]


def rejects(ran: ExecutionResult) -> bool:
    """Whether the interactor's run is a rejection (or a failure) by the Kattis rules."""
    return KattisInteractor().verdict(ran, Case("", "", "")).verdict != Verdict.AC


def exchange(
    fork: bool, submission: str, wall_ms: float | None = None, kind: TranscriptKind = SUMMARY
) -> interact.Interaction:
    ours, theirs = execute.Servers(fork=fork), execute.Servers(fork=fork)
    try:
        return interact.interact(
            interact.Side(prepared(submission), Limits(cpu_ms=1000, wall_ms=3000), servers=ours),
            interact.Side(
                prepared("echo_back.py"),
                Limits(cpu_ms=10_000),
                args=["numbers"],
                files={"numbers": NUMBERS},
                servers=theirs,
            ),
            wall_ms=wall_ms,
            transcript=kind,
            ends_submission=rejects,
        )
    finally:
        ours.close()
        theirs.close()


def test_each_side_reads_what_the_other_wrote_in_order(fork: bool, kind: TranscriptKind) -> None:
    done = exchange(fork, "doubler.cpp", kind=kind)
    runner = "fork-server" if fork else "spawn"
    assert done.submission.extra["runner"] == runner, done.submission.extra
    assert done.interactor.extra["runner"] == runner, done.interactor.extra
    assert done.interactor.exit_code == 42, done.interactor.stderr_head
    assert done.submission.exit_code == 0 and not done.submission.wall_exceeded
    # the interactor decides, then the submission sees the end of its input
    assert done.first == INTERACTOR
    if kind == NONE:  # joined: what passed is not kept (the interactor checked it)
        assert done.transcript is None
        return
    assert done.transcript is not None
    numbers = NUMBERS.split()
    expected = []
    for n in numbers:
        expected += [f"< {n.decode()}\\n", f"> {2 * int(n)}\\n"]
    assert done.transcript.render().splitlines() == expected
    assert done.transcript.totals == {
        TO_SUBMISSION: sum(len(n) + 1 for n in numbers),
        TO_INTERACTOR: sum(len(str(2 * int(n))) + 1 for n in numbers),
    }


def test_two_programs_waiting_for_each_other_end_as_idle_before_the_wall_limit(
    fork: bool, kind: TranscriptKind
) -> None:
    # both wait to read: no byte moves, neither uses CPU; the submission is ended as idle
    # (before, it waited out its wall limit, 2 s here, then a wall-TLE rerun did again)
    done = exchange(fork, "silent.cpp", wall_ms=2000, kind=kind)
    assert done.submission.extra.get("ended") == IDLE, done.submission.extra
    assert not done.submission.wall_exceeded and not done.submission.cpu_exceeded
    assert done.submission.judge_error is None and done.interactor.judge_error is None
    # ended first; the interactor then sees the end of its input and rejects
    assert done.first == SUBMISSION
    assert done.interactor.exit_code == 43 and not done.interactor.wall_exceeded
    if kind == SUMMARY:
        assert done.transcript is not None and done.transcript.render() == "< 3\\n"
    said, message = verdict(done, Limits(cpu_ms=1000, wall_ms=2000))
    assert said == Verdict.TLE and message.startswith("idle"), message


def test_a_summary_keeps_each_directions_first_and_last_kib_in_order() -> None:
    kept = Transcript(keep=4)
    kept.record(TO_SUBMISSION, b"abcdef")
    kept.record(TO_INTERACTOR, b"12")
    kept.record(TO_SUBMISSION, b"ghij")
    kept.record(TO_SUBMISSION, b"klmnop")
    kept.record(TO_INTERACTOR, b"34")
    assert kept.totals == {TO_SUBMISSION: 16, TO_INTERACTOR: 4}
    assert kept.render().splitlines() == [
        "< abcd",
        "> 12",
        "< ... 8 bytes",
        "< mnop",
        "> 34",
    ]
    whole = Transcript(keep=4, full=True)
    for direction, data in ((TO_SUBMISSION, b"abcdef"), (TO_INTERACTOR, b"12")):
        whole.record(direction, data)
    assert whole.render().splitlines() == ["< abcdef", "> 12"]


def test_a_slow_server_start_is_not_on_the_exchanges_clock(
    fork: bool, kind: TranscriptKind, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a start of 3 s, longer than the exchange's 1.5 s and the interactor's 2.5 s. Forked,
    # each side's server starts (made slow here: a program's own code never runs before
    # its server is ready) before the exchange begins (once made inside it, the
    # interactor's clock ran out first: JE); spawned, slow_start.c sleeps 3 s before main,
    # the run's own: a sleep is no wait for the other side (not idle), the submission
    # times out on its side, the interactor still in time
    if fork:
        start = execute.start_server

        def slow_start(*args: Any, **kwargs: Any) -> Any:
            time.sleep(3)
            return start(*args, **kwargs)

        monkeypatch.setattr(execute, "start_server", slow_start)
    done = exchange(fork, "doubler.cpp" if fork else "slow_start.c", wall_ms=1500, kind=kind)
    assert done.interactor.judge_error is None and not done.interactor.wall_exceeded
    if fork:
        assert done.submission.extra["runner"] == "fork-server", done.submission.extra
        assert done.interactor.extra["runner"] == "fork-server", done.interactor.extra
        assert done.interactor.exit_code == 42, done.interactor.stderr_head
        assert done.submission.exit_code == 0 and not done.submission.wall_exceeded
    else:
        assert done.submission.wall_exceeded and done.first == SUBMISSION
        assert "ended" not in done.submission.extra, done.submission.extra
        assert done.interactor.exit_code == 43


# a 1 MiB output limit: a flood reaches it in a fraction of the CPU limit
FLOOD = Limits(cpu_ms=1000, wall_ms=3000, output_kb=1024)


def pair(
    fork: bool, submission: str, interactor: str, limits: Limits, kind: TranscriptKind = SUMMARY
) -> interact.Interaction:
    ours, theirs = execute.Servers(fork=fork), execute.Servers(fork=fork)
    try:
        return interact.interact(
            interact.Side(prepared(submission), limits, servers=ours),
            interact.Side(prepared(interactor), Limits(cpu_ms=10_000), servers=theirs),
            transcript=kind,
        )
    finally:
        ours.close()
        theirs.close()


def verdict(done: interact.Interaction, limits: Limits) -> tuple[Verdict, str]:
    """The case's verdict as a Kattis interactive problem judges it."""
    check = KattisInteractor().verdict(done.interactor, Case("", "", ""))
    got = judge_interaction(limits, done.submission, check, done.first == INTERACTOR)
    return got.verdict, got.message


def test_a_submission_flooding_the_interactor_is_cut_at_its_output_limit(fork: bool) -> None:
    # the interactor reads all it gets: without a cap the flood ran to the CPU limit (TLE)
    done = pair(fork, "floods.c", "drain_all.py", FLOOD)
    assert done.submission.output_exceeded and done.first == SUBMISSION
    assert not done.submission.cpu_exceeded and not done.submission.wall_exceeded
    assert done.transcript is not None
    carried = done.transcript.totals[TO_INTERACTOR]
    assert FLOOD.output_bytes < carried <= FLOOD.output_bytes + READ_BYTES
    assert verdict(done, FLOOD)[0] == Verdict.OLE


def test_an_interactor_flooding_the_submission_is_cut_and_blamed(fork: bool) -> None:
    done = pair(fork, "drains.c", "flood_back.py", FLOOD)
    assert done.interactor.output_exceeded and not done.submission.output_exceeded
    assert done.transcript is not None
    carried = done.transcript.totals[TO_SUBMISSION]
    assert FLOOD.output_bytes < carried <= FLOOD.output_bytes + READ_BYTES
    said, message = verdict(done, FLOOD)
    assert said == Verdict.JE and "output limit" in message, message


def test_a_submission_still_running_after_a_rejection_is_ended_then(
    fork: bool, kind: TranscriptKind
) -> None:
    # the interactor rejects the first answer; the submission spins on: it is ended when
    # the interactor's verdict is in, not at its CPU limit (1 s), and the WA stands
    done = exchange(fork, "wrong_then_spins.c", kind=kind)
    assert done.interactor.exit_code == 43 and done.first == INTERACTOR
    assert done.submission.extra.get("ended") == AFTER_INTERACTOR, done.submission.extra
    assert not done.submission.cpu_exceeded and not done.submission.wall_exceeded
    assert done.submission.cpu_ms < 1000, done.submission.cpu_ms
    said, _ = verdict(done, Limits(cpu_ms=1000, wall_ms=3000))
    assert said == Verdict.WA


def test_a_submission_closing_its_stdout_is_the_interactors_end_of_input(
    fork: bool, kind: TranscriptKind
) -> None:
    # it closes its stdout after the first number and spins: the interactor reads the end
    # of its input then and rejects (WA, as problemtools judges it). Before, the
    # launcher and its init kept the pipe's write end open: the interactor waited, the
    # submission ran to its CPU limit (TLE)
    done = exchange(fork, "closes_then_spins.c", kind=kind)
    assert done.interactor.exit_code == 43, (done.interactor.stderr_head, done.interactor.extra)
    assert done.first == INTERACTOR  # its process ended first: the rejection stands
    assert done.submission.extra.get("ended") == AFTER_INTERACTOR, done.submission.extra
    assert not done.submission.cpu_exceeded and not done.submission.wall_exceeded
    said, _ = verdict(done, Limits(cpu_ms=1000, wall_ms=3000))
    assert said == Verdict.WA


def test_an_interactor_going_on_past_the_submissions_end_is_ended_and_blamed(
    fork: bool, kind: TranscriptKind
) -> None:
    # its time runs out a second after the submission's run is over, not from its start
    limits = Limits(cpu_ms=1000, wall_ms=3000)
    done = pair(fork, "answers_once.cpp", "lingers.py", limits, kind)
    assert done.submission.exit_code == 0 and done.first == SUBMISSION
    assert done.interactor.extra.get("ended") == AFTER_SUBMISSION, done.interactor.extra
    assert done.interactor.wall_exceeded
    said, message = verdict(done, Limits(cpu_ms=1000, wall_ms=3000))
    assert said == Verdict.JE and "out of time" in message, message


def test_output_past_the_other_sides_end_goes_nowhere_and_holds_nothing_up(
    fork: bool, kind: TranscriptKind
) -> None:
    # each side writes 1 MiB after the other is over: relayed, the relay reads and drops
    # it; joined, the judge drains the pipe once its reader is over (else the writer
    # blocked on a full pipe: a wall-clock TLE for the submission, JE for the interactor)
    done = exchange(fork, "doubles_then_chatters.c", kind=kind)
    assert done.interactor.exit_code == 42 and done.first == INTERACTOR
    assert done.submission.exit_code == 0 and not done.submission.wall_exceeded
    assert verdict(done, Limits(cpu_ms=1000, wall_ms=3000))[0] == Verdict.AC
    limits = Limits(cpu_ms=1000, wall_ms=3000)
    done = pair(fork, "answers_once.cpp", "chatters_after.py", limits, kind)
    assert done.submission.exit_code == 0 and done.first == SUBMISSION
    assert done.interactor.exit_code == 43, done.interactor.stderr_head
    assert "ended" not in done.interactor.extra and not done.interactor.wall_exceeded
    assert verdict(done, limits)[0] == Verdict.WA
