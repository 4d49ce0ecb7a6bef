"""What the judge watches of an interaction whose two programs' pipes are joined (no
transcript: exchange.exchange with NONE): no byte passes through it, yet it must
know which program's stdout ended first, as the relay knows it.

The judge keeps a read end of each pipe (an "ear") and does not read it: epoll reports a
pipe's hang-up (every writer's end closed: its program is over) whatever events it is
asked for, in the order they happen. Once a pipe's reader is over, the judge reads and
drops what is still written into it, as the relay does: a writer whose reader is gone
neither blocks on a full pipe nor gets EPIPE (its run goes on to its own end). Why two
ways to join the pipes: docs/decisions.md#d6.
"""

from __future__ import annotations

import os
import select
from collections.abc import Callable

READ_BYTES = 1 << 16


def listen(
    ears: dict[int, str],
    stop: int,
    every_s: float,
    watch: Callable[[list[str]], None],
    gone: Callable[[], set[str]],
) -> list[str]:
    """Until `stop` is readable (both runs over): the directions of `ears` (read end ->
    direction) in the order their writers' ends all closed. `watch(closed so far)` is
    called at least every `every_s`; `gone()` names the directions whose reader is over,
    whose pipes are drained from then on."""
    closed: list[str] = []
    draining: set[int] = set()
    listening = select.epoll()
    try:
        for fd in ears:
            listening.register(fd, 0)
        listening.register(stop, select.EPOLLIN)
        over = False
        while not over:
            watch(closed)
            for fd in _newly_gone(ears, gone(), draining, closed):
                os.set_blocking(fd, False)  # its reader's processes are gone: ours alone
                listening.modify(fd, select.EPOLLIN)
                draining.add(fd)
            for fd, _ in listening.poll(every_s):
                if fd == stop:
                    over = True  # a hang-up reported by the same poll is still counted
                elif fd in ears and (fd not in draining or _drained(fd)):
                    closed.append(ears[fd])
                    listening.unregister(fd)
    finally:
        listening.close()
    return closed


def _newly_gone(
    ears: dict[int, str], gone: set[str], draining: set[int], closed: list[str]
) -> list[int]:
    return [
        fd for fd, way in ears.items() if way in gone and fd not in draining and way not in closed
    ]


def _drained(fd: int) -> bool:
    """Reads what `fd` holds and drops it; whether its writers are all gone."""
    while True:
        try:
            if not os.read(fd, READ_BYTES):
                return True
        except BlockingIOError:
            return False
