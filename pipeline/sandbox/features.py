"""What a backend's runs get: each backend is one value of `Features`, run by the one
launcher-based sandbox (launched.py); tests and the bench make others, a backend with one
feature off, the same way."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Features:
    """What a run gets where the machine allows it (the sandbox probes what it does not:
    namespaces a kernel refuses, cgroups a user may not write)."""

    name: str
    # the launcher's own net, pid, mount, ipc and uts namespaces (an ordinary user's in a
    # user namespace of the run's)
    namespaces: bool = True
    # the launcher's filesystem view: only the system folders shown, private tmpfs
    # scratch folders; with namespaces only
    view: bool = True
    # root's runs as nobody (an ordinary user's run as that user, without capabilities)
    drop_uid: bool = True
    # a cgroup slot (memory, pids, CPU of every process) where one is writable
    cgroups: bool = True
    # the watchdog holds the run's memory where no cgroup does
    watch_memory: bool = True
    # bubblewrap makes the namespaces and the view instead of the launcher
    bwrap: bool = False
    # the backend promises isolation: a run that gets none (no namespaces here, the
    # judge's own uid) is refused unless allowed (isolation.ALLOW_UNSANDBOXED_ENV)
    isolated: bool = True

    @property
    def serves(self) -> bool:
        """Whether a fork server may serve its runs: it needs the launcher's namespaces
        and view (its cases' scratch dirs live in them)."""
        return self.namespaces and self.view and not self.bwrap


# every isolation the machine allows: namespaces, view, nobody, cgroups (the default)
FULL = Features("rlimit")
# bubblewrap's namespaces and view below the launcher's limits and cgroups
BWRAP = Features("bwrap", namespaces=False, view=False, bwrap=True)
# no isolation, chosen: the program runs as the judge with its files and the network,
# under the watchdog's CPU and wall limits and the rlimits (trusted commands, debugging)
UNSANDBOXED = Features(
    "none",
    namespaces=False,
    view=False,
    drop_uid=False,
    cgroups=False,
    watch_memory=False,
    isolated=False,
)
BACKENDS = {f.name: f for f in (FULL, BWRAP, UNSANDBOXED)}
