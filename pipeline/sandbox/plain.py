"""The `none` backend: the exec launcher without isolation. The program runs as the
judge's user, sees the whole filesystem and the network, and only gets the CPU (watchdog),
file-size (output), stack and open-file limits, the wall limit (its process group is
killed) and honest CPU/peak-RSS figures (wait4 in the launcher, never a fork of the
judge). For trusted commands and debugging only."""

from __future__ import annotations

from pipeline.sandbox.rlimit import RlimitSandbox


class PlainSandbox(RlimitSandbox):
    name = "none"

    def __init__(self) -> None:
        super().__init__(namespaces=False, drop_uid=False, use_cgroups=False, hide_fs=False)
        self.watch_memory = False

    @property
    def unsandboxed(self) -> bool:
        return False  # chosen (GRIDJUDGE_SANDBOX=none), not fallen back to: not refused
