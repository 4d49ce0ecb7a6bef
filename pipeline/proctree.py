"""The live processes below a process, from /proc: what the sandbox watches of a run and
what an interrupted run's Ray leaves behind."""

from __future__ import annotations

import os
from collections.abc import Iterator


def task_files(pid: int, name: str) -> Iterator[bytes]:
    """The file `name` of each of `pid`'s threads (/proc/PID/task/TID/NAME), those still
    readable; nothing once the process is gone."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/{name}", "rb") as fh:
                yield fh.read()
        except OSError:
            continue


def children(pid: int) -> list[int]:
    """The live children of `pid` (every thread's), from /proc; [] once it is gone."""
    return [int(p) for text in task_files(pid, "children") for p in text.split()]


def descendants(pid: int, limit: int | None = None) -> list[int]:
    """The live processes below `pid` (not `pid` itself), parents before children: all,
    or the first `limit` (a fork bomb's thousands are not walked)."""
    out: list[int] = []
    todo = children(pid)
    while todo and (limit is None or len(out) < limit):
        here = todo.pop(0)
        out.append(here)
        todo += children(here)
    return out
