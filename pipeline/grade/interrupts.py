"""SIGTERM during a run handled as Ctrl-C: a KeyboardInterrupt (Terminated) raised in
the main thread, so the driver keeps its finished chunks, writes run.json "interrupted"
and shuts the cluster down in order (Ray's own handler exits at once, leaving a crash
dump and the run "running")."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Terminated(KeyboardInterrupt):
    """SIGTERM during a run: handled as Ctrl-C is (finished chunks kept, run.json
    "interrupted", the cluster shut down in order)."""


def _terminate(signum: int, frame: FrameType | None) -> None:
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
    before = signal.getsignal(signal.SIGTERM)
    on_sigterm()
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
