"""What an interaction of two programs gives (execute.interact): both runs, which one
ended first, and the transcript; and the relay that carries the bytes between them.

The judge sits between the two programs: each writes into a pipe the relay reads, and the
relay writes what it read into the other's stdin pipe, recording it in the transcript in
the order it was read. A program that stops reading does not stop the relay (it writes
without blocking and keeps what did not fit). Each direction has a cap, its writer's
output limit: past it the relay stops carrying that direction (its writer's stdout is
closed: it gets EPIPE; the reader sees the end of its input), as a file past the limit
stops a batch run's output.
"""

from __future__ import annotations

import errno
import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from pipeline.program.execution import ExecutionResult, Handle

# the two directions, as the transcript names them
TO_INTERACTOR, TO_SUBMISSION = "submission>interactor", "interactor>submission"
DIRECTIONS = (TO_INTERACTOR, TO_SUBMISSION)
SUBMISSION, INTERACTOR = "submission", "interactor"
KEEP_BYTES = 1024  # of each direction's first and last bytes, in a summary transcript
FULL_CAP_BYTES = 64 << 20  # a full transcript keeps at most this much each way
READ_BYTES = 1 << 16
# what one direction holds for a reader that does not read: past it, its writer waits
PENDING_CAP = 16 << 20
GAP = "..."
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
class Chunk:
    """Bytes one side wrote, in the order the relay read them: `offset` into its
    direction's stream."""

    seq: int
    direction: str
    offset: int
    data: bytes


@dataclass
class Transcript:
    """The exchange of one interaction: every chunk (full), or each direction's first
    and last `keep` bytes (the rest counted, not kept)."""

    keep: int = KEEP_BYTES
    full: bool = False
    totals: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DIRECTIONS, 0))
    head: list[Chunk] = field(default_factory=list)
    tail: dict[str, deque[Chunk]] = field(default_factory=lambda: {d: deque() for d in DIRECTIONS})
    _tail_bytes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DIRECTIONS, 0))
    _seq: int = 0

    def record(self, direction: str, data: bytes) -> None:
        offset = self.totals[direction]
        self.totals[direction] = offset + len(data)
        self._seq += 1
        limit = FULL_CAP_BYTES if self.full else self.keep
        if offset < limit:  # the head
            taken = data[: limit - offset]
            self.head.append(Chunk(self._seq, direction, offset, taken))
            data, offset = data[len(taken) :], offset + len(taken)
        if not data or self.full:
            return
        tail = self.tail[direction]
        tail.append(Chunk(self._seq, direction, offset, data))
        self._tail_bytes[direction] += len(data)
        while self._tail_bytes[direction] - len(tail[0].data) >= self.keep:
            self._tail_bytes[direction] -= len(tail.popleft().data)

    def chunks(self) -> list[Chunk]:
        """The kept chunks in the order they were read (a tail chunk cut to its last
        `keep` bytes of its direction)."""
        out = list(self.head)
        for direction, tail in self.tail.items():
            extra = self._tail_bytes[direction] - self.keep
            for i, chunk in enumerate(tail):
                if i == 0 and extra > 0:
                    chunk = Chunk(chunk.seq, direction, chunk.offset + extra, chunk.data[extra:])
                out.append(chunk)
        return sorted(out, key=lambda c: c.seq)

    def render(self) -> str:
        """One line per line written (a chunk cut after each newline), in order: `> `
        for what the submission wrote, `< ` for what the interactor wrote (the text
        escaped, newlines shown as \\n), and a `... N bytes` line where bytes were left
        out."""
        lines = []
        seen = dict.fromkeys(DIRECTIONS, 0)
        for chunk in self.chunks():
            mark = ">" if chunk.direction == TO_INTERACTOR else "<"
            if chunk.offset > seen[chunk.direction]:
                lines.append(f"{mark} {GAP} {chunk.offset - seen[chunk.direction]} bytes")
            text = chunk.data.decode("utf-8", "backslashreplace")
            for line in text.splitlines(keepends=True):
                lines.append(f"{mark} {line.encode('unicode_escape').decode('ascii')}")
            seen[chunk.direction] = chunk.offset + len(chunk.data)
        for direction, total in self.totals.items():
            if total > seen[direction]:
                mark = ">" if direction == TO_INTERACTOR else "<"
                lines.append(f"{mark} {GAP} {total - seen[direction]} bytes")
        return "\n".join(lines)


@dataclass
class Interaction:
    """Both runs of one interaction. `first` is the side that ended first (SUBMISSION or
    INTERACTOR); `wall_ms` the whole exchange's; `transcript` what passed between them."""

    submission: ExecutionResult
    interactor: ExecutionResult
    first: str
    wall_ms: float
    transcript: Transcript


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
    """Carries bytes for each (source, sink, direction) until every source is at its end
    (or `stop` is readable: both programs are over) and everything read is written or
    can no longer be; a direction whose writer passes its cap in `caps` is cut there.
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
            poller = select.poll()
            by_fd: dict[int, tuple[_Pump, bool]] = {}
            for pump in live:
                if pump.source is not None and not pump.eof and len(pump.pending) < PENDING_CAP:
                    poller.register(pump.source, select.POLLIN)
                    by_fd[pump.source] = (pump, True)
                if pump.pending and pump.sink is not None:
                    poller.register(pump.sink, select.POLLOUT)
                    by_fd[pump.sink] = (pump, False)
            if not by_fd or (
                stopping
                and all(p.eof or not _readable(p.source) for p in live if p.source is not None)
            ):  # both programs are over and what they left is read
                return ended, [p.direction for p in live if p.over]
            else:
                poller.register(stop, select.POLLIN)
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
    full: bool,
    cap_bytes: int | None = None,
    ends_submission: Callable[[ExecutionResult], bool] | None = None,
    idle_ms: float | None = None,
    grace_ms: float | None = None,
) -> Interaction:
    """Both programs at once: `start(side, (stdin_fd, stdout_fd), handle)` runs SUBMISSION
    or INTERACTOR on those pipe ends (and closes them), each in a thread of its own, while
    this thread relays between them and records the transcript (`full`: all of it).
    A side that writes more than `cap_bytes` to the other is cut there, its run's
    `output_exceeded` set. The submission's run is ended (its result's extra["ended"]
    says why) once the interactor's is over and `ends_submission(its result)` (a
    rejection: nothing the submission does after changes the verdict), and once for
    `idle_ms` no byte moved, neither side used CPU and both waited to read their pipes
    (Handle.activity: both wait for each other, IDLE). The interactor is ended
    `grace_ms` after the submission's run is over (its result's `wall_exceeded` set,
    extra["ended"] AFTER_SUBMISSION): its time runs out from the submission's end, not
    from its own start, so that a submission slow to end (a fork bomb being killed) is
    not the interactor's fault."""
    sub_out, int_in, int_out, sub_in = os.pipe(), os.pipe(), os.pipe(), os.pipe()
    stop = os.pipe()  # written when both runs are over
    stdio = {SUBMISSION: (sub_in[0], sub_out[1]), INTERACTOR: (int_in[0], int_out[1])}
    transcript = Transcript(full=full)
    results: dict[str, ExecutionResult] = {}
    ended: list[str] = []
    lock = threading.Lock()
    handles = {SUBMISSION: Handle(), INTERACTOR: Handle()}
    quiet = {"since": time.monotonic(), "cpu": -1.0, "sampled": 0.0}
    over_at: dict[str, float] = {}  # when each run was over

    def watch(moved: bool, closed: list[str]) -> None:
        with lock:
            over = dict(results)
        sub = handles[SUBMISSION]
        if (
            SUBMISSION in over
            and INTERACTOR not in over
            and grace_ms is not None
            and (time.monotonic() - over_at[SUBMISSION]) * 1000 >= grace_ms
        ):
            handles[INTERACTOR].end(AFTER_SUBMISSION)
        if SUBMISSION in over or TO_INTERACTOR in closed:
            return  # the submission's run, or its output, is over: it ended by itself
        if INTERACTOR in over:
            if ends_submission is not None and ends_submission(over[INTERACTOR]):
                sub.end(AFTER_INTERACTOR)  # again each look: a run not yet armed
            return
        now = time.monotonic()
        if moved:
            quiet["since"] = now
        if idle_ms is None or not all(h.armed for h in handles.values()):
            return
        if (now - quiet["sampled"]) * 1000 < SAMPLE_MS:
            return
        quiet["sampled"] = now
        seen = [h.activity() for h in handles.values()]
        cpu = sum(c for c, _, _ in seen)
        waiting = all(reading and not working for _, working, reading in seen)
        if not waiting or cpu != quiet["cpu"]:
            quiet["since"], quiet["cpu"] = now, cpu
        elif (now - quiet["since"]) * 1000 >= idle_ms:
            sub.end(IDLE)

    def one(name: str) -> None:
        try:
            result = start(name, stdio[name], handles[name])
        except BaseException as exc:  # run never raises; a thread must not die silently
            result = ExecutionResult(judge_error=f"{type(exc).__name__}: {exc}")
        with lock:
            results[name] = result
            over_at[name] = time.monotonic()
            ended.append(name)
            if len(ended) == 2:
                os.write(stop[1], b"x")

    began = time.monotonic()
    threads = [threading.Thread(target=one, args=(n,), daemon=True) for n in stdio]
    for thread in threads:
        thread.start()
    relay_error: str | None = None
    closed: list[str] = []
    cut: list[str] = []
    caps = None if cap_bytes is None else dict.fromkeys(DIRECTIONS, cap_bytes)
    try:
        closed, cut = relay(
            [(sub_out[0], int_in[1], TO_INTERACTOR), (int_out[0], sub_in[1], TO_SUBMISSION)],
            transcript,
            stop[0],
            caps,
            watch,
        )
    except Exception as exc:  # the judge's own: the runs still end at their limits
        relay_error = f"relay failed: {type(exc).__name__}: {exc}"
    for thread in threads:
        thread.join()
    wall = (time.monotonic() - began) * 1000
    for fd in stop:
        os.close(fd)
    if relay_error:
        results[SUBMISSION].judge_error = results[SUBMISSION].judge_error or relay_error
    why = handles[SUBMISSION].ended
    if why is not None:
        results[SUBMISSION].extra[ENDED] = why
    late = handles[INTERACTOR].ended
    if late is not None:  # out of time: its wall limit, in effect
        results[INTERACTOR].extra[ENDED] = late
        results[INTERACTOR].wall_exceeded = True
    for direction in cut:
        results[SUBMISSION if direction == TO_INTERACTOR else INTERACTOR].output_exceeded = True
    # whose stdout ended first (its process's end, as the other side saw it), else whose
    # run returned first
    first = ended[0]
    if closed:
        first = SUBMISSION if closed[0] == TO_INTERACTOR else INTERACTOR
    if why is not None:  # the judge ended the submission: after the interactor, or idle
        first = INTERACTOR if why == AFTER_INTERACTOR else SUBMISSION
    return Interaction(results[SUBMISSION], results[INTERACTOR], first, wall, transcript)
