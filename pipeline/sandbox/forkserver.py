"""Fork-server runs: the sandbox is set up once and the program loaded once; each case is
a fresh child forked from that pre-main state (forkserver.c), waited for and measured by
the sandbox's init (serve.c), never by the program.

The judge's side of one server: start it, send a case (its stdin, stdout and stderr
files travel as file descriptors), read init's report. Needs the full `rlimit`
isolation with namespaces (the cases' scratch dirs live under the server's /tmp/box);
anything else raises ForkServerUnavailable and the caller spawns instead.
"""

from __future__ import annotations

import os
import socket
import struct
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.sandbox import slots
from pipeline.sandbox.base import (
    FileSpec,
    RunRequest,
    ServerRequest,
    Workspace,
    close_fds,
    collect,
    group_gone,
    kill_group,
    stage,
)
from pipeline.sandbox.elf import why_not_served
from pipeline.sandbox.errors import ForkServerUnavailable
from pipeline.sandbox.handle import WATCHED
from pipeline.sandbox.launcher import fork_server_library
from pipeline.sandbox.processes import children, descendants
from pipeline.sandbox.protocol import (
    ENV,
    WALL_BACKSTOP_MS,
    LimitsRequest,
    Serve,
    apply_report,
    parse_report,
    read_report,
)
from pipeline.sandbox.remove import remove_tree

__all__ = [
    "LIBRARY",
    "ZYGOTE",
    "ForkServer",
    "ForkServerUnavailable",
    "Launch",
    "inside",
    "start",
    "why_not_served",
    "zygote_script",
]

LIBRARY = ".gridjudge-fork.so"
ZYGOTE = ".gridjudge-zygote.py"
INSIDE = "/tmp/box"  # where the launcher shows the server's scratch dir
# how long a server may use no CPU before it is ready (init judges its start on the
# server's clock, serve.c:wait_ready, and always answers: the judge waits for that)
START_MS = 10_000
SERVER_PROCESSES = 1
BIND_NOW_ENV = "GRIDJUDGE_FORK_SERVER_BIND_NOW"
# why init refused a server (serve.c)
REFUSED = {
    "cpu": " (it used its CPU limit before it was ready)",
    "threads": " (it started threads before main)",
}


@dataclass(frozen=True)
class Launch:
    """What a server takes of the sandbox it starts in (LauncherSandbox): who the files
    of its runs belong to, the cgroup slots its runs take, and the launcher's command
    line for it (its workspace, its slot, how it serves)."""

    owner: tuple[int, int] | None
    pool: slots.Pool | None
    command: Callable[[Workspace, slots.Slot | None, Serve], list[str]]


def zygote_script() -> Path:
    return Path(__file__).with_name("zygote.py")


def inside(name: str) -> str:
    """The path of a file of the server's scratch dir as the program sees it."""
    return f"{INSIDE}/{name}"


def _remove_scratch(scratch: str, names: Iterable[str]) -> None:
    """The files the judge placed or reads, then the dir; whatever else a run left there
    (or a file it removed) takes the slower walk."""
    try:
        for name in names:
            os.unlink(os.path.join(scratch, name))
        os.rmdir(scratch)
    except OSError:
        remove_tree(scratch)


def parse_reply(text: str) -> dict[str, str]:
    words = text.split()
    if words and words[0] in ("ready", "unsupported"):
        reason = words[2] if len(words) > 2 else ""
        return {"kind": words[0], "status": words[1] if len(words) > 1 else "", "reason": reason}
    return parse_report(text)


@dataclass
class ForkServer:
    """One running server for one program under one set of limits."""

    launch: Launch
    request: ServerRequest
    _ws: Workspace | None = None
    _slot: slots.Slot | None = None
    _sock: socket.socket | None = None
    _pid: int = 0
    _cases: int = 0
    _server_pid: int = 0
    _oom_kills: int = 0
    _stdio: list[int] = field(default_factory=list)  # the cases' memfds (_case_files)
    _limits_sent: tuple[Limits | None, bytes] = (None, b"")  # and their part of a request
    _timeout_set: float | None = None  # the socket's receive timeout (None: none)

    def start(self) -> None:
        request, launch = self.request, self.launch
        files = {**request.files, LIBRARY: fork_server_library()}
        self._ws = ws = Workspace.create(b"", files, launch.owner)
        # cases may read the program, not change it or write beside it: a script the
        # zygote reads anew for every case would otherwise carry one case's edits to
        # the next
        for path in (ws.box, *ws.box.iterdir()):
            os.lchown(path, os.geteuid(), os.getegid())
        os.chmod(ws.box, 0o755)
        if launch.pool is not None:
            # the case's memory limit binds the server from exec on: what the program
            # allocates before "ready" is not beyond the limits
            self._slot = launch.pool.acquire()
            self._slot.prepare(
                request.limits.processes + SERVER_PROCESSES, request.limits.memory_bytes
            )
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._sock = ours
        try:
            self._spawn(theirs)
        finally:
            theirs.close()
        reply = parse_reply(self._receive(None))
        if reply.get("kind") != "ready":
            oom = self._slot is not None and self._slot.oom_kills() > 0
            # no answer: the launcher failed before it served, and said why in its report
            said = read_report(ws.report).get("error", "") if not reply else ""
            self.close()
            status = reply.get("status") or "no answer"
            why = " (out of memory before it was ready)" if oom else ""
            why = REFUSED.get(reply.get("reason", ""), why)
            why = f" (the launcher: {said[:200]})" if said else why
            raise ForkServerUnavailable(f"no fork server started: wait status {status}{why}")
        # the server, INIT's one child when ready (the cases are INIT's children too)
        self._server_pid = next((c for i in children(self._pid) for c in children(i)), 0)
        if self._slot is not None:  # the server's own pages are charged to the slot
            self._slot.prepare(
                request.limits.processes + SERVER_PROCESSES,
                request.limits.memory_bytes + self._slot.usage(),
            )
            self._oom_kills = self._slot.oom_kills()

    def _spawn(self, theirs: socket.socket) -> None:
        assert self._ws is not None
        # no output cap on the server: each case sets its own (several cases in one run
        # may write more than one case's cap, which could not exceed an inherited one);
        # what the server writes itself goes nowhere. The CPU a native program burns
        # before "ready" is its own; the zygote's (the judge's imports) is not.
        request = self.request
        serve = Serve(start_ms=START_MS, charge_start=request.preload)
        argv = self.launch.command(self._ws, self._slot, serve)
        env = {**ENV, **request.env, "GRIDJUDGE_FORK_SERVER_FD": "3"}
        if request.preload:
            env["LD_PRELOAD"] = inside(LIBRARY)
            if "LD_BIND_NOW" not in env:  # every symbol bound once, in the server, not
                # lazily in every case's child (forkserver.c unsets both before main)
                env["LD_BIND_NOW"] = env[BIND_NOW_ENV] = "1"
        with (
            open(os.devnull, "rb") as fin,
            open(os.devnull, "wb") as fout,
            open(os.devnull, "wb") as ferr,
        ):
            self._pid = os.posix_spawn(
                argv[0],
                argv,
                env,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, fin.fileno(), 0),
                    (os.POSIX_SPAWN_DUP2, fout.fileno(), 1),
                    (os.POSIX_SPAWN_DUP2, ferr.fileno(), 2),
                    (os.POSIX_SPAWN_DUP2, theirs.fileno(), 3),
                ],
                setsid=True,
            )

    def _receive(self, timeout_s: float | None) -> str:
        """init's next message; "" when none came within `timeout_s` (None: until init
        answers or ends). One blocking recv bounded by the socket's receive timeout (set
        when it changes: mostly the same limits case after case), not a select and a
        recv: the judge's side is most of what a tiny case costs beyond its fork."""
        assert self._sock is not None
        if timeout_s != self._timeout_set:
            whole = 0 if timeout_s is None else max(int(timeout_s * 1e6), 1)
            timeval = struct.pack("@ll", whole // 1_000_000, whole % 1_000_000)
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeval)
            self._timeout_set = timeout_s
        try:
            return self._sock.recv(4096).decode(errors="replace")
        except OSError:  # the timeout (EAGAIN) too
            return ""

    @property
    def alive(self) -> bool:
        return self._sock is not None

    def run(self, request: RunRequest) -> ExecutionResult:
        """One case in a fresh child (on the fds `stdio` for stdin and stdout where given:
        taken and closed once sent; `handle` armed with the case's processes while it
        runs). The server may be gone afterwards (`alive`)."""
        limits, files, output_file, read_back, stdio, handle = (
            request.limits, request.files, request.output_file, request.read_back,
            request.stdio, request.handle,
        )  # fmt: skip
        if self._ws is None or self._sock is None:
            close_fds(stdio)
            return ExecutionResult(judge_error="fork server: not running")
        self._cases += 1
        # init makes a fresh scratch dir in the private /tmp, unless files must be placed
        # there or read back from it
        scratch = f"{self._ws.box}/c{self._cases}" if files or output_file or read_back else None
        result = ExecutionResult()
        try:
            fds = self._case_files(b"" if stdio is not None else request.stdin)
            if scratch is not None:
                self._prepare_scratch(scratch, files or {})
            where = "-" if scratch is None else inside(os.path.basename(scratch))
            # with stdio, stdout stays the empty memfd `collect` reads
            sent = fds if stdio is None else [stdio[0], stdio[1], fds[2]]
            given, stdio = stdio, None  # _send_case closes them
            if handle is not None:
                handle.arm(self._case_processes)
            # what init copies back from the case's private scratch dir
            keep = [*([output_file] if output_file else []), *read_back] if scratch else []
            try:
                reply = self._send_case(where, sent, limits, given, keep)
            finally:
                if handle is not None:
                    handle.disarm()
            self._judge(reply, limits, result)
            if not result.judge_error:
                collect(result, limits, fds[1], fds[2], scratch, output_file, read_back)
            if reply.get("lost") == "1":
                self.close()  # only now: the memfds go with it
        except OSError as exc:
            result.judge_error = f"fork server failed: {exc}"
            self.close()
        finally:
            close_fds(stdio)
            if scratch is not None:
                taken = [*([output_file] if output_file else []), *read_back]
                _remove_scratch(scratch, {*(files or {}), *taken})
        result.extra["backend"] = "fork-server"
        return result

    def _case_files(self, stdin: bytes) -> list[int]:
        """The case's stdin (holding `stdin`), stdout and stderr: three memfds made once
        per server, emptied and rewound for every case (a case can write, seek or grow
        all three; none of its processes is left to touch them once it is reported)."""
        if not self._stdio:
            self._stdio = [os.memfd_create(n, os.MFD_CLOEXEC) for n in ("in", "out", "err")]
        for fd in self._stdio:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
        if stdin:
            os.write(self._stdio[0], stdin)
            os.lseek(self._stdio[0], 0, os.SEEK_SET)
        return self._stdio

    def _case_processes(self) -> list[int]:
        """The running case's processes: INIT's children but the server, and theirs."""
        out: list[int] = []
        for init in children(self._pid):
            for child in children(init):
                if child != self._server_pid:
                    out += [child, *descendants(child, WATCHED)]
        return out[:WATCHED]

    def _prepare_scratch(self, scratch: str, files: Mapping[str, FileSpec]) -> None:
        os.mkdir(scratch, 0o700)
        stage(scratch, files, self.launch.owner)
        if self.launch.owner is not None:
            os.chown(scratch, *self.launch.owner)

    def _send_case(
        self,
        where: str,
        fds: list[int],
        limits: Limits,
        taken: tuple[int, int] | None = None,
        keep: Sequence[str] = (),
    ) -> dict[str, str]:
        assert self._sock is not None
        if self._limits_sent[0] is not limits:  # mostly the same limits case after case
            self._limits_sent = (limits, LimitsRequest.of(limits).case_text().encode())
        try:
            # the names to copy back last, "/"-separated (no file name holds one)
            names = (" " + "/".join(keep)).encode() if keep else b""
            socket.send_fds(self._sock, [where.encode() + self._limits_sent[1] + names], fds)
        finally:
            close_fds(taken)  # in flight to INIT: the judge's copies would hold the pipes
        return parse_reply(self._receive((limits.wall_limit_ms + WALL_BACKSTOP_MS) / 1000))

    def _judge(self, reply: dict[str, str], limits: Limits, result: ExecutionResult) -> None:
        if "status" not in reply:
            self.close()
            result.judge_error = f"fork server: {reply.get('error') or 'no report from init'}"
            return
        apply_report(result, reply, limits)
        result.wall_ms = int(reply["wall_us"]) / 1000
        # the OOM killer may have killed a process the case started, not the case
        # itself (which then ends as it likes): the counter is read after every case
        oom = False
        if self._slot is not None:
            kills = self._slot.oom_kills()
            oom, self._oom_kills = kills > self._oom_kills, kills
        result.memory_exceeded = oom or limits.memory_over(result.peak_rss_kb)
        if reply.get("lost") == "1":
            result.runtime_error = "the case killed its fork server"

    def close(self) -> None:
        """Stops the server (init sees the socket close) and removes what it used."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._pid:
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:
                done, _ = os.waitpid(self._pid, os.WNOHANG)
                if done:
                    break
                time.sleep(0.001)
            else:
                kill_group(self._pid)
                os.waitpid(self._pid, 0)
            group_gone(self._pid)  # the namespace's init, if it outlived the launcher
            self._pid = 0
        if self._slot is not None and self.launch.pool is not None:
            if self._slot.kill_all():
                self.launch.pool.release(self._slot)
            self._slot = None
        if self._ws is not None:
            self._ws.remove()
            self._ws = None
        close_fds(self._stdio)
        self._stdio = []


def start(launch: Launch, request: ServerRequest) -> ForkServer:
    """A started server, or ForkServerUnavailable."""
    server = ForkServer(launch, request)
    server.start()
    return server
