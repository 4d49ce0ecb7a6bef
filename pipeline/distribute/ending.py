"""How a process that used Ray ends: what Cluster.__exit__ left of Ray, read by the
command's end (cli.app.main, cli.common.interrupts_end), which then ends the process at
once (os._exit) instead of running Ray's shutdown at exit (docs/decisions.md#d8).

- An interrupt (Ctrl-C, SIGTERM) leaves an embedded Ray running: shutting it down with
  chunks in flight can trip a check in Ray's core worker. reaper.stop_interrupted_ray()
  arranges for its processes to end with this one.
- A command that joined a cluster leaves it connected: disconnecting a driver whose
  worker died mid-task can crash Ray's core worker (SIGSEGV in its io thread or in the
  interpreter's teardown, after every result was written). The cluster notices the
  driver's end by itself, as it does a killed driver's. An embedded cluster is still
  shut down: its processes are this one's to stop.
"""

from __future__ import annotations


class _Ending:
    ray_left_running = False  # an embedded Ray, by an interrupt
    joined_ends_with_process = False  # asked by a process that ends after its command
    joined_left = False  # a joined cluster, left connected


_state = _Ending()


def end_joined_ray_with_process() -> None:
    """Asked by a process that ends once its command is done (the CLI): a cluster it
    joins is left connected at the end, and the process must then end with os._exit."""
    _state.joined_ends_with_process = True


def joined_ray_ends_with_process() -> bool:
    return _state.joined_ends_with_process


def note_joined_ray_left() -> None:
    _state.joined_left = True


def joined_ray_left() -> bool:
    """Whether a cluster this process joined was left connected: end with os._exit."""
    return _state.joined_left


def note_interrupted_ray() -> None:
    _state.ray_left_running = True


def interrupted_ray() -> bool:
    """Whether an embedded Ray of this process was left running by an interrupt: the
    process must end without Ray's shutdown (its atexit handler runs it, with the same
    risk): reaper.stop_interrupted_ray(), then os._exit."""
    return _state.ray_left_running
