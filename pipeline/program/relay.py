"""What an interaction of two programs gives (interact.interact): both runs, which one
ended first, and the transcript; and the relay that carries the bytes between them.

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

import _thread
import errno
import os
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pipeline.outcome import ExecutionResult
from pipeline.program import joined
from pipeline.program.transcript import (
    DIRECTIONS,
    FULL,
    NONE,
    TO_INTERACTOR,
    TO_SUBMISSION,
    Transcript,
    TranscriptKind,
)
from pipeline.sandbox.handle import Handle

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
    """Both runs of one interaction. `first` is the side that ended first (SUBMISSION or
    INTERACTOR); `wall_ms` the whole exchange's; `transcript` what passed between them
    (None: the pipes were joined)."""

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


def exchange(
    start: Callable[[str, tuple[int, int], Handle], ExecutionResult],
    transcript: TranscriptKind,
    cap_bytes: int | None = None,
    ends_submission: Callable[[ExecutionResult], bool] | None = None,
    idle_ms: float | None = None,
    grace_ms: float | None = None,
) -> Interaction:
    """Both programs at once: `start(side, (stdin_fd, stdout_fd), handle)` runs SUBMISSION
    or INTERACTOR on those pipe ends (and closes them), each in a thread of its own, while
    this thread relays between them and records the `transcript` (NONE: the pipes are
    joined, no relay). A side that writes more than `cap_bytes` to the other is cut
    there, its run's `output_exceeded` set (relayed only). The submission's run is ended
    (its result's extra["ended"] says why) once the interactor's is over and
    `ends_submission(its result)` (a rejection: nothing the submission does after changes
    the verdict), and once for `idle_ms` no byte moved, neither side used CPU and both
    waited to read their pipes (Handle.activity: both wait for each other, IDLE). The
    interactor is ended `grace_ms` after the submission's run is over (its result's
    `wall_exceeded` set, extra["ended"] AFTER_SUBMISSION): its time runs out from the
    submission's end, not from its own start, so that a submission slow to end (a fork
    bomb being killed) is not the interactor's fault."""
    done = _Exchange(start, transcript, ends_submission, idle_ms, grace_ms)
    return done.run_joined() if transcript == NONE else done.run(cap_bytes)


class _Exchange:
    """One exchange's state, shared by the two run threads and the relay's watch."""

    def __init__(
        self,
        start: Callable[[str, tuple[int, int], Handle], ExecutionResult],
        transcript: TranscriptKind,
        ends_submission: Callable[[ExecutionResult], bool] | None,
        idle_ms: float | None,
        grace_ms: float | None,
    ) -> None:
        self.start, self.ends_submission = start, ends_submission
        self.idle_ms, self.grace_ms = idle_ms, grace_ms
        self.transcript = None if transcript == NONE else Transcript(full=transcript == FULL)
        self.results: dict[str, ExecutionResult] = {}
        self.ended: list[str] = []
        self.lock = threading.Lock()
        self.handles = {SUBMISSION: Handle(), INTERACTOR: Handle()}
        self.quiet_since, self.quiet_cpu, self.sampled = time.monotonic(), -1.0, 0.0
        self.over_at: dict[str, float] = {}  # when each run was over
        self.stop = os.pipe()  # written when both runs are over
        self.both_over = threading.Event()

    def begin(self, stdio: dict[str, tuple[int, int]]) -> float:
        """Both runs started, each in a thread of its own; when."""
        began = time.monotonic()
        # bare threads: threading.Thread.start waits until the new thread holds the GIL,
        # which the first run's thread keeps while it prepares its launch
        for name in stdio:
            _thread.start_new_thread(self.one, (name, stdio[name]))
        return began

    def run(self, cap_bytes: int | None) -> Interaction:
        assert self.transcript is not None
        sub_out, int_in, int_out, sub_in = os.pipe(), os.pipe(), os.pipe(), os.pipe()
        began = self.begin(
            {SUBMISSION: (sub_in[0], sub_out[1]), INTERACTOR: (int_in[0], int_out[1])}
        )
        relay_error: str | None = None
        closed: list[str] = []
        cut: list[str] = []
        caps = None if cap_bytes is None else dict.fromkeys(DIRECTIONS, cap_bytes)
        try:
            closed, cut = relay(
                [(sub_out[0], int_in[1], TO_INTERACTOR), (int_out[0], sub_in[1], TO_SUBMISSION)],
                self.transcript,
                self.stop[0],
                caps,
                self.watch,
            )
        except Exception as exc:  # the judge's own: the runs still end at their limits
            relay_error = f"relay failed: {type(exc).__name__}: {exc}"
        return self.finish(began, relay_error, closed, cut)

    def run_joined(self) -> Interaction:
        """Both runs on joined pipes, the judge listening to each (joined.listen)."""
        to_int, to_sub = os.pipe(), os.pipe()
        ears = {os.dup(to_int[0]): TO_INTERACTOR, os.dup(to_sub[0]): TO_SUBMISSION}
        began = self.begin({SUBMISSION: (to_sub[0], to_int[1]), INTERACTOR: (to_int[0], to_sub[1])})
        closed: list[str] = []
        error: str | None = None
        readers = {SUBMISSION: TO_SUBMISSION, INTERACTOR: TO_INTERACTOR}
        try:
            closed = joined.listen(
                ears,
                self.stop[0],
                WATCH_MS / 1000,
                lambda seen: self.watch(False, seen),
                lambda: {readers[side] for side in list(self.results)},
            )
        except Exception as exc:  # the judge's own: the runs still end at their limits
            error = f"watching the joined pipes failed: {type(exc).__name__}: {exc}"
        finally:
            for fd in ears:
                os.close(fd)
        return self.finish(began, error, closed, [])

    def finish(
        self, began: float, error: str | None, closed: list[str], cut: list[str]
    ) -> Interaction:
        self.both_over.wait()
        wall = (time.monotonic() - began) * 1000
        for fd in self.stop:
            os.close(fd)
        return self.settle(error, closed, cut, wall)

    def one(self, name: str, stdio: tuple[int, int]) -> None:
        try:
            result = self.start(name, stdio, self.handles[name])
        except BaseException as exc:  # run never raises; a thread must not die silently
            result = ExecutionResult(judge_error=f"{type(exc).__name__}: {exc}")
        with self.lock:
            self.results[name] = result
            self.over_at[name] = time.monotonic()
            self.ended.append(name)
            if len(self.ended) == 2:
                os.write(self.stop[1], b"x")
                self.both_over.set()

    def watch(self, moved: bool, closed: list[str]) -> None:
        with self.lock:
            over = dict(self.results)
        sub = self.handles[SUBMISSION]
        if (
            SUBMISSION in over
            and INTERACTOR not in over
            and self.grace_ms is not None
            and (time.monotonic() - self.over_at[SUBMISSION]) * 1000 >= self.grace_ms
        ):
            self.handles[INTERACTOR].end(AFTER_SUBMISSION)
        if SUBMISSION in over:
            return  # it ended by itself
        if INTERACTOR in over:
            # a submission whose output is over has ended by itself, unless its processes
            # still run (it closed its stdout): the interactor then ended first
            output_over = TO_INTERACTOR in closed
            rejected = self.ends_submission is not None and self.ends_submission(over[INTERACTOR])
            if rejected and (not output_over or sub.running()):
                sub.end(AFTER_INTERACTOR)  # again each look: a run not yet armed
            return
        if TO_INTERACTOR in closed:
            return
        if moved:
            self.quiet_since = time.monotonic()
        if self.idle_ms is not None and all(h.armed for h in self.handles.values()):
            self.look_for_idleness(sub, self.idle_ms)

    def look_for_idleness(self, sub: Handle, idle_ms: float) -> None:
        now = time.monotonic()
        if (now - self.sampled) * 1000 < SAMPLE_MS:
            return
        self.sampled = now
        seen = [h.activity() for h in self.handles.values()]
        cpu = sum(c for c, _, _ in seen)
        waiting = all(reading and not working for _, working, reading in seen)
        if not waiting or cpu != self.quiet_cpu:
            self.quiet_since, self.quiet_cpu = now, cpu
        elif (now - self.quiet_since) * 1000 >= idle_ms:
            sub.end(IDLE)

    def settle(
        self, relay_error: str | None, closed: list[str], cut: list[str], wall: float
    ) -> Interaction:
        results = self.results
        if relay_error:
            results[SUBMISSION].judge_error = results[SUBMISSION].judge_error or relay_error
        why = self.handles[SUBMISSION].ended
        if why is not None:
            results[SUBMISSION].extra[ENDED] = why
        late = self.handles[INTERACTOR].ended
        if late is not None:  # out of time: its wall limit, in effect
            results[INTERACTOR].extra[ENDED] = late
            results[INTERACTOR].wall_exceeded = True
        for direction in cut:
            side = SUBMISSION if direction == TO_INTERACTOR else INTERACTOR
            results[side].output_exceeded = True
        # whose stdout ended first (its process's end, as the other side saw it), else
        # whose run returned first
        first = self.ended[0]
        if closed:
            first = SUBMISSION if closed[0] == TO_INTERACTOR else INTERACTOR
        if why is not None:  # the judge ended the submission: after the interactor, or idle
            first = INTERACTOR if why == AFTER_INTERACTOR else SUBMISSION
        return Interaction(results[SUBMISSION], results[INTERACTOR], first, wall, self.transcript)
