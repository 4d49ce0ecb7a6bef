"""The live processes below a process, from /proc: what the sandbox watches of a run and
what an interrupted run's Ray leaves behind."""

from __future__ import annotations

import os


def children(pid: int) -> list[int]:
    """The live children of `pid` (every thread's), from /proc; [] once it is gone."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as fh:
                found += [int(p) for p in fh.read().split()]
        except OSError:
            continue
    return found


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
