"""The sandbox every backend is: the exec launcher, with what a run gets given by one
value of `features.Features` (FULL, the default `rlimit` backend, is described here;
BWRAP puts bubblewrap between the launcher and the program, bwrap.py; UNSANDBOXED, the
`none` backend, keeps only the watchdog and the rlimits).

Per run: a new session; the CPU limit enforced by the launcher's watchdog (not
RLIMIT_CPU, which coarsens the program's own CPU clock); rlimits FSIZE (output cap),
NOFILE, CORE=0 and STACK = the memory limit; new network, pid, mount, ipc and uts
namespaces (no network; every process dies with the run; only the system directories
stay visible, /tmp is a private tmpfs, the scratch dir a private tmpfs holding a copy of
the program's files), made by root with the program as nobody, or by an ordinary user
inside a new user namespace with the program as that user's uid and no capabilities
(`--userns`), whichever this machine allows (probed by a run); the process count capped
by the pids cgroup and memory limited and measured by the memory cgroup, v1 or v2
(`slot_pool`, from isolation.py's probe). Where no memory cgroup is writable, the
launcher's watchdog sums the memory and CPU of all the run's processes and its tmpfs
mounts (`protocol.LimitsRequest.memory_args`). CPU time and peak RSS come from wait4 in
the launcher's init, whose child was forked from the tiny launcher, not from the big
judge.
"""

from __future__ import annotations

import os
import pwd
import signal
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.sandbox import cgroups, cgroups_v2, isolation, slots
from pipeline.sandbox.base import (
    RunRequest,
    ServerRequest,
    Workspace,
    children,
    close_fds,
    collect_output,
    descendants,
    group_gone,
    kill_group,
    missing_program,
    sweep_stale_runs,
    wait_with_deadline,
)
from pipeline.sandbox.bwrap import HANDOVER_FD, Bwrap
from pipeline.sandbox.errors import ForkServerUnavailable
from pipeline.sandbox.features import FULL, Features
from pipeline.sandbox.handle import WATCHED, Handle
from pipeline.sandbox.isolation import ALLOW_UNSANDBOXED_ENV
from pipeline.sandbox.launcher import launcher_path
from pipeline.sandbox.protocol import (
    ENV,
    WALL_BACKSTOP_MS,
    LimitsRequest,
    Serve,
    apply_report,
    read_report,
    view_args,
)

if TYPE_CHECKING:
    from pipeline.sandbox.forkserver import ForkServer

__all__ = ["LauncherSandbox", "Serve"]

# the top-level host folders the view shows (view.c's `shown`): judge data elsewhere is
# hidden with the rest of the host
VISIBLE_TOP = frozenset(("bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "sys",
                         "var", "opt"))  # fmt: skip
# runs tried before the sandbox concludes that namespaces cannot be made here
PROBES = 3
# the launcher and init, counted with the program's tasks under --nproc
LAUNCHER_TASKS = 2
# why a run has no fork server and no namespaces (the runner column of its rows)
UNSANDBOXED = "unsandboxed: no namespaces"
# folders concealed on request (the launcher takes 32 of --conceal; GRIDJUDGE_HIDE's count)
MAX_CONCEALED = 24


def nobody_ids() -> tuple[int, int]:
    try:
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def slot_pool(notes: list[str]) -> slots.Pool | None:
    """The cgroup slots this process's runs get: v1 where its controllers are writable
    (root), else v2 in the unified root (root) or a delegated subtree, else none."""
    hierarchy, subtree = isolation.slots_probed()
    if hierarchy == "v1" and cgroups.available():
        return cgroups.SlotPool()
    if hierarchy == "v2" and subtree.path is not None:
        try:
            return cgroups_v2.SlotPool(Path(subtree.path))
        except cgroups_v2.CgroupV2Error as exc:
            notes.append(f"no cgroup v2 slots: {exc}")
    return None


def spawn(command: list[str], ws: Workspace, stdio: tuple[int, int] | None = None) -> int:
    """Starts `command` in a new session on the run's stdin, stdout and stderr, or on the
    fds `stdio` for stdin and stdout (closed here once the launcher holds them: it passes
    its stdin and stdout on to the program)."""
    try:
        given_in, given_out = stdio if stdio is not None else ws.stdio[:2]
        # posix_spawn (vfork-like): no copy of the big judge process is ever made
        return os.posix_spawn(
            command[0],
            command,
            ENV,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, given_in, 0),
                (os.POSIX_SPAWN_DUP2, given_out, 1),
                (os.POSIX_SPAWN_DUP2, ws.stdio[2], 2),
            ],
            setsid=True,
        )
    finally:
        close_fds(stdio)


class LauncherSandbox:
    """See the module docstring: `features` says what a run gets where this machine
    allows it."""

    def __init__(self, features: Features = FULL, *, hidden: Sequence[str] = ()) -> None:
        root = os.geteuid() == 0
        self.features = features
        self.name = features.name
        self.launcher = str(launcher_path())
        self.bwrap = Bwrap() if features.bwrap else None
        self.owner = nobody_ids() if root and features.drop_uid else None
        self.notes: list[str] = []
        # v1 slots need root; a delegated v2 subtree serves an ordinary user too
        self.pool = slot_pool(self.notes) if features.cgroups else None
        # namespaces wherever the machine allows them (the probe below falls back where
        # it cannot); an ordinary user's launcher makes a user namespace for them, or,
        # under bwrap, one alone, in which RLIMIT_NPROC counts the run's tasks (no pids
        # cgroup holds a fork bomb there) and bwrap makes its namespaces inside it
        self.namespaces = features.namespaces
        self.userns = (features.namespaces or features.bwrap) and not root
        # host folders holding judge data (corpora, packages) that the view hides
        # besides the ones it shows no one: `hidden`, and GRIDJUDGE_HIDE (os.pathsep)
        extra = os.environ.get("GRIDJUDGE_HIDE", "").split(os.pathsep)
        self.concealed = [os.path.realpath(p) for p in (*hidden, *extra) if p]
        sweep_stale_runs()
        if self.namespaces and not self._probe_namespaces():
            self.namespaces = False

    @property
    def hide_fs(self) -> bool:
        """The launcher's filesystem view (a fork server needs it)."""
        return self.namespaces and self.features.view

    def _probe_namespaces(self) -> bool:
        """Whether a run in namespaces works here; tried a few times, so that a passing
        shortage (no free process, say) does not leave the sandbox without them."""
        for _ in range(PROBES):
            probe = self.run(["true"], RunRequest(Limits.from_seconds(5.0)))
            if not probe.judge_error and probe.exit_code == 0:
                return True
        self.notes.append(f"namespaces unavailable: {probe.judge_error or probe.exit_code}")
        self.userns = False
        return False

    @property
    def unsandboxed(self) -> bool:
        """The program would run as the judge's user with its files and the network
        under a backend that promises isolation (no namespaces could be made here)."""
        return (
            self.features.isolated
            and self.bwrap is None
            and not self.namespaces
            and self.owner is None
        )

    def command(
        self,
        ws: Workspace,
        argv: Sequence[str],
        limits: Limits,
        slot: slots.Slot | None,
        *,
        serve: Serve | None = None,
        view: Sequence[str] | None = None,
        keep: Sequence[str] = (),
    ) -> list[str]:
        """The launcher's command line for one spawned run, or (`serve`) for a fork
        server whose cases set their own CPU and output limits; `view`: a compiler's
        (views.py); the files `keep` names are read back from the scratch dir. Under
        bwrap the launcher execs bwrap's command, handing it its options as fd 3 and the
        run's stdio through a socket (launcher.c's hand_over)."""
        if self.bwrap is None:
            return [*self._launcher_args(ws, limits, slot, serve, keep, view), "--", *argv]
        assert serve is None, "bwrap runs are not served"
        inner = self.bwrap.inner(ws, argv, limits, view)
        args = self._launcher_args(ws, limits, slot, None, (), None)
        args += ["--args-file", str(self.bwrap.args_file(ws)), "--handover", str(HANDOVER_FD)]
        return [*args, *self.bwrap.launcher_args(limits, keep), "--", *inner]

    def _launcher_args(
        self,
        ws: Workspace,
        limits: Limits,
        slot: slots.Slot | None,
        serve: Serve | None,
        keep: Sequence[str],
        view: Sequence[str] | None,
    ) -> list[str]:
        request = LimitsRequest.of(limits)
        args = [self.launcher, "--report", str(ws.report), "--box", str(ws.box)]
        args += request.common_args()
        if serve is None:
            args += request.spawned_args()
        else:
            args += serve.args()
        if slot is None and self.features.watch_memory:
            args += request.memory_args()
        if slot is not None:
            for path in slot.join_dirs:
                args += ["--cg", path]
            # the watchdog counts the CPU of every process of the run, children too
            args += ["--cpu-file", str(slot.cpu_file)]
            if not self.namespaces:  # INIT cleans up the run's processes itself
                args += ["--procs", str(slot.procs_file)]
        if self.owner is not None:
            args += ["--uid", str(self.owner[0]), "--gid", str(self.owner[1])]
        if self.userns:
            # counted per user namespace: this run's tasks (with the launcher and init;
            # a fork server's cases share one count with their server)
            tasks = limits.processes + LAUNCHER_TASKS + (serve is not None)
            args += ["--userns", "--nproc", str(tasks)]
        if self.namespaces:
            args.append("--ns")
            if self.hide_fs:
                args += view_args(limits.memory_bytes, keep, self.concealed, view)
        return args

    def conceal(self, paths: Iterable[Path | str]) -> None:
        """Hides these folders of judge data (corpora, packages, run folders) from every
        later run's view. Only folders the view shows need it (the rest of the host is
        hidden already), and a folder inside one already hidden adds nothing; past
        MAX_CONCEALED the judge files' own modes (0600/0700) are what keeps them."""
        for raw in paths:
            path = os.path.realpath(raw)
            top = path.strip("/").split("/", 1)[0]
            if top not in VISIBLE_TOP or path == f"/{top}":
                continue
            if any(path == c or path.startswith(c + "/") for c in self.concealed):
                continue
            if len(self.concealed) < MAX_CONCEALED:
                self.concealed.append(path)

    def start_server(self, request: ServerRequest) -> ForkServer:
        """The request's program started as a fork server in this sandbox;
        ForkServerUnavailable (with the reason) where this sandbox cannot serve or the
        server did not start."""
        if self.bwrap is not None or not self.features.isolated:
            raise ForkServerUnavailable(f"{self.name} sandbox")
        if not self.namespaces:
            raise ForkServerUnavailable(UNSANDBOXED)
        if not self.hide_fs:
            raise ForkServerUnavailable("sandbox without its filesystem view")
        from pipeline.sandbox import forkserver

        def command(ws: Workspace, slot: slots.Slot | None, serve: Serve) -> list[str]:
            return self.command(ws, request.argv, request.limits, slot, serve=serve)

        return forkserver.start(forkserver.Launch(self.owner, self.pool, command), request)

    def run(self, argv: Sequence[str], request: RunRequest) -> ExecutionResult:
        limits, stdio, output_file, read_back = (
            request.limits, request.stdio, request.output_file, request.read_back
        )  # fmt: skip
        result = ExecutionResult()
        if self.unsandboxed and os.environ.get(ALLOW_UNSANDBOXED_ENV) != "1":
            # the commands refuse first (isolation.admit); this holds in every worker
            result.judge_error = f"refused: {UNSANDBOXED} here, and not allowed"
            return result
        try:
            ws = Workspace.create(request.stdin, request.files, self.owner)
        except (OSError, ValueError) as exc:
            close_fds(stdio)
            result.judge_error = f"sandbox setup failed: {exc}"
            return result
        missing = missing_program(argv, ws.box)
        if missing:
            close_fds(stdio)
            ws.remove()
            result.judge_error = missing
            return result
        slot = self.pool.acquire() if self.pool is not None else None
        try:
            if slot is not None:
                slot.prepare(limits.processes, limits.memory_bytes)
            given, stdio = stdio, None  # spawn closes them
            keep = [*([output_file] if output_file else []), *read_back]
            self._execute(ws, argv, limits, slot, result, given, request.handle, request.view, keep)
            if not result.judge_error:
                collect_output(ws, result, limits, output_file, read_back)
        except OSError as exc:
            result.judge_error = f"sandbox failed: {exc}"
        finally:
            close_fds(stdio)
            # the folder first: files the run left there are charged to the slot
            if not ws.remove():
                result.extra["cleanup"] = f"run folder quarantined: {ws.root.name}"
            if slot is not None and self.pool is not None:
                if slot.kill_all():
                    self.pool.release(slot)
                else:
                    result.judge_error = result.judge_error or "processes of the run survived"
        return result

    def _execute(
        self,
        ws: Workspace,
        argv: Sequence[str],
        limits: Limits,
        slot: slots.Slot | None,
        result: ExecutionResult,
        stdio: tuple[int, int] | None = None,
        handle: Handle | None = None,
        view: Sequence[str] | None = None,
        keep: Sequence[str] = (),
    ) -> None:
        command = self.command(ws, argv, limits, slot, view=view, keep=keep)
        start = time.monotonic()
        pid = spawn(command, ws, stdio)
        if handle is not None:  # the program's processes: below the launcher's INIT
            handle.arm(lambda: [p for i in children(pid) for p in descendants(i, WATCHED)])
        try:
            # the watchdog ends the run at its wall limit; this deadline is a backstop
            status, _, hit = wait_with_deadline(pid, limits.wall_limit_ms + WALL_BACKSTOP_MS)
        finally:
            if handle is not None:
                handle.disarm()
        result.wall_ms = (time.monotonic() - start) * 1000
        kill_group(pid)  # whatever is left of the session (no pid namespace)
        if not group_gone(pid):
            result.judge_error = "processes of the run survived"
        report = read_report(ws.report)
        group_cpu_ms, group_peak_kb = 0.0, 0
        if slot is not None:
            slot.kill_all()
            peak, cpu_ns, oom = slot.measure()
            group_cpu_ms, group_peak_kb = cpu_ns / 1e6, peak // 1024
            result.peak_rss_kb = group_peak_kb
            result.memory_exceeded = oom
        result.wall_exceeded = hit
        if "status" in report:
            apply_report(result, report, limits)
        elif hit:
            result.cpu_ms = group_cpu_ms
            result.signal = signal.SIGKILL
        if "error" in report and not hit:
            result.judge_error = report["error"]
            return
        if "status" not in report and not hit:
            result.judge_error = f"launcher failed (wait status {status})"
            return
        if self.bwrap is not None:
            self.bwrap.measured(result, group_cpu_ms, group_peak_kb, slot is not None)
        # bwrap's figures are the cgroup's (_measured), and the cgroup counts every process
        result.cpu_exceeded = (
            result.cpu_exceeded or limits.cpu_over(result.cpu_ms) or limits.cpu_over(group_cpu_ms)
        )
        if limits.memory_over(result.peak_rss_kb):
            result.memory_exceeded = True
        result.extra["backend"] = self.name
        if not self.namespaces and slot is None:
            # no pid namespace to end and no cgroup to list them: what the program left
            # running past its end is neither killed by the launcher nor measured
            result.extra["children"] = "not counted"
