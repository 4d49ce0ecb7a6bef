"""What an interaction of two programs gives (interact.interact): both runs, which one
ended first, and the transcript; and the relay that carries the bytes between them
(exchange.py runs the two programs and the relay, or joins their pipes).

The judge sits between the two programs: each writes into a pipe the relay reads, and the
relay writes what it read into the other's stdin pipe, recording it in the transcript in
the order it was read. A program that stops reading does not stop the relay (it writes
without blocking and keeps what did not fit). Each direction has a cap, its writer's
output limit: past it the relay stops carrying that direction (its writer's stdout is
closed: it gets EPIPE; the reader sees the end of its input), as a file past the limit
stops a batch run's output.

Where no transcript is asked for, the two programs' pipes are joined instead: each
writes straight into the other's stdin, with no judge between them (each message then
wakes its reader only, not the relay and then the reader), and nothing caps what
passes (nothing of it is kept).
"""

from __future__ import annotations

import errno
import os
import select
from collections.abc import Callable
from dataclasses import dataclass, field

from pipeline.outcome import ExecutionResult
from pipeline.program.transcript import (
    Transcript,
)

SUBMISSION, INTERACTOR = "submission", "interactor"
READ_BYTES = 1 << 16
# what one direction holds for a reader that does not read: past it, its writer waits
PENDING_CAP = 16 << 20
# how often the relay looks at the two runs (an interactor's end, idleness) while no byte
# moves
WATCH_MS = 50
# how often it samples the runs' processes for idleness (each look reads /proc)
SAMPLE_MS = 200
# why the judge ended a submission's run before its limits (its result's extra["ended"])
ENDED = "ended"
AFTER_INTERACTOR = "the interactor ended first"
IDLE = "idle"
AFTER_SUBMISSION = "the interactor went on past the submission's end"


@dataclass
class Interaction:
    """Both runs of one interaction, before anything judges them (a case's outcome,
    problem.contract.CaseOutcome, is made from it by the problem's protocol). `first` is
    the side that ended first (SUBMISSION or INTERACTOR); `wall_ms` the whole exchange's;
    `transcript` what passed between them (None: the pipes were joined)."""

    submission: ExecutionResult
    interactor: ExecutionResult
    first: str
    wall_ms: float
    transcript: Transcript | None


@dataclass
class _Pump:
    """One direction: from `source` (a program's stdout) into `sink` (the other's stdin)."""

    source: int | None
    sink: int | None
    direction: str
    cap: int | None = None  # bytes its writer may write, None: no cap
    pending: bytearray = field(default_factory=bytearray)
    eof: bool = False
    over: bool = False  # its writer wrote past the cap

    def close_source(self) -> None:
        if self.source is not None:
            os.close(self.source)
            self.source = None

    def close_sink(self) -> None:
        if self.sink is not None:
            os.close(self.sink)
            self.sink = None
        self.pending.clear()


def relay(
    pumps: list[tuple[int, int, str]],
    transcript: Transcript,
    stop: int,
    caps: dict[str, int] | None = None,
    watch: Callable[[bool, list[str]], None] | None = None,
) -> tuple[list[str], list[str]]:
    """Carries bytes for each (source, sink, direction) until `stop` is readable (both
    programs are over) and everything read is written or can no longer be; a direction
    whose writer passes its cap in `caps` is cut there.
    `watch(moved, ended)` is called at least every WATCH_MS: whether bytes moved since,
    and the directions ended so far.
    Closes every source and sink. Returns the directions in the order their sources
    ended (a program's stdout ends when it does, or when it is cut), and those cut."""
    live = [_Pump(src, snk, d, (caps or {}).get(d)) for src, snk, d in pumps]
    ended: list[str] = []
    for pump in live:
        assert pump.source is not None
        os.set_blocking(pump.source, False)
        if pump.sink is not None:
            os.set_blocking(pump.sink, False)
    stopping = False
    moved = False
    try:
        while True:
            if watch is not None:
                watch(moved, ended)
                moved = False
            # with nothing left to carry, still watched until both runs are over (a
            # submission that closed its stdout may run on past the interactor's end)
            poller, by_fd = _poller(live, stop)
            if stopping and (
                not by_fd
                or all(p.eof or not _readable(p.source) for p in live if p.source is not None)
            ):  # both programs are over and what they left is read
                return ended, [p.direction for p in live if p.over]
            for fd, _ in poller.poll(WATCH_MS if watch is not None else None):
                if fd == stop:
                    stopping = True
                    continue
                moved = True
                pump, reading = by_fd[fd]
                if reading:
                    _read(pump, transcript)
                    if pump.eof:
                        ended.append(pump.direction)
                else:
                    _write(pump)
    finally:
        for pump in live:
            pump.close_source()
            pump.close_sink()


def _poller(live: list[_Pump], stop: int) -> tuple[select.poll, dict[int, tuple[_Pump, bool]]]:
    """A poll of `stop` and of what each direction waits for (its source to read, its
    sink to write what it holds); by fd, the direction's pump and whether it reads."""
    poller = select.poll()
    poller.register(stop, select.POLLIN)
    by_fd: dict[int, tuple[_Pump, bool]] = {}
    for pump in live:
        if pump.source is not None and not pump.eof and len(pump.pending) < PENDING_CAP:
            poller.register(pump.source, select.POLLIN)
            by_fd[pump.source] = (pump, True)
        if pump.pending and pump.sink is not None:
            poller.register(pump.sink, select.POLLOUT)
            by_fd[pump.sink] = (pump, False)
    return poller, by_fd


def _readable(fd: int) -> bool:
    ready, _, _ = select.select([fd], [], [], 0)
    return bool(ready)


def _read(pump: _Pump, transcript: Transcript) -> None:
    assert pump.source is not None
    try:
        data = os.read(pump.source, READ_BYTES)
    except BlockingIOError:
        return
    except OSError:
        data = b""
    if not data:
        pump.eof = True
        if not pump.pending:
            pump.close_sink()  # the other side sees the end of its input
        return
    transcript.record(pump.direction, data)
    if pump.cap is not None and transcript.totals[pump.direction] > pump.cap:
        # what passed the cap goes nowhere: the writer's stdout is closed (EPIPE), the
        # reader sees the end of its input
        pump.over = pump.eof = True
        pump.close_source()
        pump.close_sink()
        return
    if pump.sink is not None:
        pump.pending += data
        _write(pump)


def _write(pump: _Pump) -> None:
    if pump.sink is None:
        return
    try:
        written = os.write(pump.sink, pump.pending)
    except BlockingIOError:
        return
    except OSError as exc:  # the reader is gone (EPIPE): what it did not read is dropped
        if exc.errno not in (errno.EPIPE, errno.EBADF, errno.EINVAL):
            raise
        pump.close_sink()
        return
    del pump.pending[:written]
    if pump.eof and not pump.pending:
        pump.close_sink()
