"""SIGTERM during a run handled as Ctrl-C: a KeyboardInterrupt (Terminated) raised in
the main thread, so the driver keeps its finished chunks and writes run.json
"interrupted" (Ray's own handler exits at once, leaving a crash dump and the run
"running"). An embedded Ray is then not shut down but ended with the process
(distribute.cluster.Cluster.__exit__, cli.common.interrupts_end)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Terminated(KeyboardInterrupt):
    """SIGTERM during a run: handled as Ctrl-C is (finished chunks kept, run.json
    "interrupted", the process ended with exit 143)."""


_sigterm_received = False


def _terminate(signum: int, frame: FrameType | None) -> None:
    global _sigterm_received
    _sigterm_received = True
    raise Terminated()


def by_sigterm(stop: KeyboardInterrupt) -> bool:
    """Whether `stop` ended the run because of SIGTERM. Not only a Terminated: Ray's core
    worker turns any KeyboardInterrupt a signal handler raises while the driver waits in
    ray.wait/ray.get into a plain KeyboardInterrupt (its check_signals), so the handler
    also notes that SIGTERM came."""
    return isinstance(stop, Terminated) or _sigterm_received


def raise_if_terminated() -> None:
    """Raises Terminated if SIGTERM came during this run and the run goes on: a call into
    Ray's core worker that the handler's exception interrupted may have dropped it (seen
    once: a demo that went on to the end and exited 0). Called between chunks."""
    if _sigterm_received:
        raise Terminated()


def on_sigterm() -> None:
    """SIGTERM raises Terminated (in the main thread only: Python runs handlers there).
    Set again once the cluster is up: ray.init installs its own, which exits at once."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _sigterm_received
    before = signal.getsignal(signal.SIGTERM)
    if before is not _terminate:  # the outermost run: no SIGTERM came to it yet
        _sigterm_received = False
    on_sigterm()
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
