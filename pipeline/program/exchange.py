"""One exchange of two programs: both started, each in a thread of its own, while this
thread relays between them (relay.relay) or, with no transcript, listens to their joined
pipes (joined.listen); the submission ended once the interactor has rejected it or both
sides wait for each other, the interactor once it outlives the submission by its grace."""

from __future__ import annotations

import _thread
import os
import select
import threading
import time
from collections.abc import Callable

from pipeline.outcome import ExecutionResult
from pipeline.program import joined
from pipeline.program.relay import (
    AFTER_INTERACTOR,
    AFTER_SUBMISSION,
    ENDED,
    IDLE,
    INTERACTOR,
    SAMPLE_MS,
    SUBMISSION,
    WATCH_MS,
    Interaction,
    relay,
)
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
        # the judge's read end of each direction while it listens: the relay's, or, the
        # pipes joined, joined.listen's ears
        self.ears: dict[str, int] = {}

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
        # the relay's read ends, which it keeps open until it has read each one's end
        self.ears = {TO_INTERACTOR: sub_out[0], TO_SUBMISSION: int_out[0]}
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
        finally:
            self.ears = {}
        return self.finish(began, relay_error, closed, cut)

    def run_joined(self) -> Interaction:
        """Both runs on joined pipes, the judge listening to each (joined.listen)."""
        to_int, to_sub = os.pipe(), os.pipe()
        ears = {os.dup(to_int[0]): TO_INTERACTOR, os.dup(to_sub[0]): TO_SUBMISSION}
        self.ears = {way: fd for fd, way in ears.items()}
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
            self.ears = {}
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
            # still run (it closed its stdout): the interactor then ended first. The
            # interactor's run may be over before the judge has counted that end (it sees
            # the end itself on joined pipes; relayed, it may reject on what it read
            # before): the pipe is asked now, after `over` was read
            output_over = TO_INTERACTOR in closed or self.hung_up(TO_INTERACTOR)
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

    def hung_up(self, direction: str) -> bool:
        """Whether every writer of `direction`'s pipe is gone (False once the judge no
        longer listens: it counted every end it saw)."""
        fd = self.ears.get(direction)
        if fd is None:
            return False
        asked = select.poll()
        asked.register(fd, 0)  # a hang-up is reported whatever is asked for
        return any(event & (select.POLLHUP | select.POLLERR) for _, event in asked.poll(0))

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
