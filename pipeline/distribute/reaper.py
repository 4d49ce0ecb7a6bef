"""What an interrupted run leaves of its embedded Ray ends with the process: a helper
outside Ray kills it once this process is gone."""

from __future__ import annotations

import contextlib
import os
import subprocess

from pipeline.distribute.ending import interrupted_ray
from pipeline.proctree import descendants


def stop_interrupted_ray() -> None:
    """Arranges for every process of an embedded Ray left running by an interrupt to end
    with this one; the caller then ends this process at once (os._exit). Ray's node
    processes share its fate (killed when it dies), but the raylet's own children, its
    agents, only notice the raylet gone and linger for up to a minute. Nothing may be
    stopped before this process ends: its core worker, seeing the raylet go, exits 1
    first. So a helper outside Ray, reading a pipe only this process holds, kills what
    this process started once the pipe closes."""
    if not interrupted_ray():
        return
    pids = descendants(os.getpid())
    if not pids:
        return
    with contextlib.suppress(OSError):
        helper = subprocess.Popen(
            ["sh", "-c", 'read -r _; kill -9 "$@" 2>/dev/null', "gridjudge-reaper"]
            + [str(pid) for pid in pids],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # not in the group a Ctrl-C signals
        )
        _reaper_pipes.append(helper)  # its stdin closes as this process ends


_reaper_pipes: list[subprocess.Popen[bytes]] = []
