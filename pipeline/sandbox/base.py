"""The Sandbox protocol and what every backend shares: the per-run workspace (a private
run folder holding the program's scratch dir, and its stdin/stdout/stderr as memfds), capped
output reading, and waiting for a process under a wall-clock limit."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import stat
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Protocol, runtime_checkable

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.sandbox.handle import Handle
from pipeline.sandbox.processes import children as children
from pipeline.sandbox.processes import decode_status as decode_status
from pipeline.sandbox.processes import descendants as descendants
from pipeline.sandbox.processes import group_gone as group_gone
from pipeline.sandbox.processes import kill_group as kill_group
from pipeline.sandbox.processes import wait_with_deadline as wait_with_deadline
from pipeline.sandbox.remove import remove_tree

log = logging.getLogger(__name__)
STDERR_HEAD_BYTES = 4096
BOX = "box"

# A file placed into the scratch dir: its bytes, or a path to hard-link (else copy).
FileSpec = bytes | str | Path


@dataclass(frozen=True)
class RunRequest:
    """One run of a program, besides its command: what a Sandbox's `run` and a fork
    server's case both take, so that the list is written once. `files` are placed into
    the scratch dir (the working directory), `stdin` is the program's standard input.
    When `output_file` is given and the program wrote that file, its content is the
    result's `output`, else stdout is; each regular file named in `read_back` that the
    run left is in the result's `files`. `stdio`, when given, is the program's stdin and
    stdout as open fds (the pipes of an interaction) in place of `stdin` and a captured
    stdout: the run takes them and closes them as soon as the program holds them (the
    result's `output` is then empty). `handle`, when given, is armed with the program's
    processes while it runs (the judge may end it early). `view`: a compiler's view of
    the host, showing of /etc, /var and /opt only these paths (glob patterns; views.py),
    where None is a program's (a fork server's view is its own, set as it starts)."""

    limits: Limits
    stdin: bytes = b""
    files: Mapping[str, FileSpec] | None = None
    output_file: str | None = None
    read_back: Sequence[str] = ()
    stdio: tuple[int, int] | None = None
    handle: Handle | None = None
    view: Sequence[str] | None = None


@dataclass(frozen=True)
class ServerRequest:
    """A program started as a fork server (Sandbox.start_server): `argv` run in a scratch
    dir holding `files`, its cases under `limits`, `env` added to its environment;
    preloaded with the fork-server library, or (preload=False) the Python zygote."""

    argv: Sequence[str]
    files: Mapping[str, FileSpec]
    limits: Limits
    env: Mapping[str, str] = field(default_factory=dict)
    preload: bool = True


class Server(Protocol):
    """A running fork server (forkserver.ForkServer): one case per `run`."""

    @property
    def alive(self) -> bool: ...

    def run(self, request: RunRequest) -> ExecutionResult: ...

    def close(self) -> None: ...


@runtime_checkable
class Sandbox(Protocol):
    """Runs one command in a fresh scratch directory as its RunRequest says.

    No backend limits the address space (the cgroup or the launcher's watchdog holds
    resident memory), so what a runtime reserves unused costs nothing. Never raises for
    anything the program does; failures of the sandbox itself are `judge_error`.
    """

    name: str

    def run(self, argv: Sequence[str], request: RunRequest) -> ExecutionResult: ...

    def conceal(self, paths: Iterable[Path | str]) -> None:
        """Hides these folders of judge data from every later run's view (a backend
        whose view shows no host folder but the system's has nothing to do)."""
        ...

    def start_server(self, request: ServerRequest) -> Server:
        """The request's program started as a fork server; raises ForkServerUnavailable
        with the reason where this sandbox cannot serve or the server did not start."""
        ...


def _default_runs_parent() -> Path:
    # tmpfs: creating and removing a run folder there costs a fraction of what it costs on
    # a disk mounted with `discard`. (What a program writes there counts towards its
    # memory cgroup, as in any in-memory judge; output is capped by RLIMIT_FSIZE.)
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        return shm
    return Path(tempfile.gettempdir())


def runs_root() -> Path:
    """Where run folders are made: GRIDJUDGE_RUNS, else gridjudge-runs-<euid> in
    /dev/shm (or the temp dir), mode 0711: an unprivileged program may pass through to
    its own scratch dir, and list nothing."""
    path = Path(
        os.environ.get("GRIDJUDGE_RUNS")
        or _default_runs_parent() / f"gridjudge-runs-{os.geteuid()}"
    )
    path.mkdir(mode=0o711, parents=True, exist_ok=True)
    info = path.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        raise OSError(f"{path} is not a directory owned by this user")
    if stat.S_IMODE(info.st_mode) != 0o711:
        os.chmod(path, 0o711)
    return path


@dataclass
class Workspace:
    """One run's private folder (mode 0700): report, and box/, the program's scratch
    dir; and the run's stdin, stdout and stderr, unnamed files (memfds) the program gets
    as they are: a link of /proc/self/fd names no folder of the judge's."""

    root: Path
    stdio: tuple[int, int, int] = (-1, -1, -1)

    @property
    def box(self) -> Path:
        return self.root / BOX

    @property
    def report(self) -> Path:
        return self.root / "report"

    @classmethod
    def create(
        cls,
        stdin: bytes,
        files: Mapping[str, FileSpec] | None,
        owner: tuple[int, int] | None = None,
    ) -> Workspace:
        root = Path(tempfile.mkdtemp(prefix=f"run-{os.getpid()}-", dir=runs_root()))
        os.chmod(root, 0o711)
        ws = cls(root, unnamed_stdio(stdin))
        ws.box.mkdir()
        stage(ws.box, files or {}, owner)
        if owner is not None:
            os.chown(ws.box, *owner)
        return ws

    def remove(self) -> bool:
        """Removes the run folder, whatever the program built in it; False (and the
        folder quarantined for a later sweep) when something could not be removed."""
        close_fds(fd for fd in self.stdio if fd >= 0)
        self.stdio = (-1, -1, -1)
        if remove_tree(self.root):
            return True
        quarantine(self.root)
        return False


def unnamed_stdio(stdin: bytes) -> tuple[int, int, int]:
    """A run's stdin (holding `stdin`, at its start), stdout and stderr as memfds."""
    fds = [os.memfd_create(name, os.MFD_CLOEXEC) for name in ("stdin", "stdout", "stderr")]
    try:
        view = memoryview(stdin)
        while view:
            view = view[os.write(fds[0], view) :]
        os.lseek(fds[0], 0, os.SEEK_SET)
    except OSError:
        close_fds(fds)
        raise
    return fds[0], fds[1], fds[2]


def stage(folder: Path | str, files: Mapping[str, FileSpec], owner: tuple[int, int] | None) -> None:
    """Places `files` into `folder` (a run's scratch dir, or a fork-server case's): bytes
    as new files, paths hard-linked where the program, another user (`owner`), may read
    and run them as they are (free; the link keeps the judge as owner), else copied;
    what is new belongs to `owner`. Without an owner the program has the judge's uid
    (an ordinary user's sandbox): a link would let it change the judge's own file (a
    cached build), so everything is copied."""
    for name, spec in files.items():
        if "/" in name or name in ("", ".", ".."):
            raise ValueError(f"bad scratch file name {name!r}")
        target = os.path.join(folder, name)
        if isinstance(spec, bytes):
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
            try:
                if owner is not None:
                    os.fchown(fd, *owner)
                view = memoryview(spec)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)
            continue
        if owner is not None and (os.stat(spec).st_mode & 0o005) == 0o005:
            try:
                os.link(spec, target)
                continue
            except OSError:
                pass
        shutil.copy2(spec, target)
        if owner is not None:
            os.chown(target, *owner)


QUARANTINE = "quarantine-"


def quarantine(path: Path) -> None:
    """Renames a run folder that could not be removed out of the way of its owner and
    says so; every later sweep tries to remove it again."""
    target = path.with_name(f"{QUARANTINE}{path.name}")
    try:
        os.rename(path, target)
    except OSError as exc:
        log.warning("cannot remove or quarantine run folder %s: %s", path, exc)
        return
    log.warning("run folder %s could not be removed: quarantined as %s", path, target)


def _owner_gone(name: str) -> bool:
    parts = name.split("-")
    if len(parts) < 3 or parts[0] != "run" or not parts[1].isdigit():
        return False
    try:
        os.kill(int(parts[1]), 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError):
        return False
    return False  # the owner still runs


def sweep_stale_runs() -> int:
    """Removes run folders left by judge processes that died mid-run (a killed Ray
    worker, say; their names carry the owner's pid) and quarantined ones. Never raises:
    a folder it cannot remove is quarantined and reported."""
    removed = 0
    try:
        entries = list(runs_root().iterdir())
    except OSError:
        return 0
    for path in entries:
        quarantined = path.name.startswith(QUARANTINE)
        if not (quarantined or _owner_gone(path.name)):
            continue
        if remove_tree(path):
            removed += 1
        elif not quarantined:
            quarantine(path)
    return removed


def close_fds(fds: Iterable[int] | None) -> None:
    """Closes the fds a run was handed (stdio), once the program holds them."""
    for fd in fds or ():
        with contextlib.suppress(OSError):
            os.close(fd)


def private_open(path: Path) -> BinaryIO:
    """A new file only the judge may read (mode 0600), open for writing."""
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb")


def read_fd(fd: int, limit: int) -> tuple[bytes, bool]:
    """At most `limit` bytes of an open file (from its start), and whether it held more."""
    # not pread(limit + 1) at once: that allocates the whole output cap (64 MB) per run
    size = os.fstat(fd).st_size
    if not size:  # most stderr: no read
        return b"", False
    data = os.pread(fd, min(limit + 1, size + 1), 0)
    return data[:limit], len(data) > limit


def read_regular(path: Path | str, limit: int) -> tuple[bytes, bool] | None:
    """At most `limit` bytes of the regular file at `path`, and whether it held more; None
    when there is none (a symlink is not followed: a program could point it anywhere)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        data = os.pread(fd, min(limit + 1, info.st_size + 1), 0)
    finally:
        os.close(fd)
    return data[:limit], len(data) > limit


EVERY_FILE = "*"  # in `read_back`: every regular file the run left at the top of its dir
EVERY_FILE_MAX = 64  # files read back for EVERY_FILE


def read_back_files(folder: Path | str, names: Sequence[str], cap: int) -> dict[str, bytes]:
    """The regular files of `names` found in `folder`, each cut at `cap` bytes (EVERY_FILE:
    each regular file there, up to EVERY_FILE_MAX of them)."""
    out = {}
    if EVERY_FILE in names:
        try:
            listed = sorted(os.listdir(folder))[:EVERY_FILE_MAX]
        except OSError:
            listed = []
        names = [*(n for n in names if n != EVERY_FILE), *listed]
    for name in names:
        found = read_regular(os.path.join(folder, name), cap)
        if found is not None:
            out[name] = found[0]
    return out


def collect(
    result: ExecutionResult,
    limits: Limits,
    stdout: int,
    stderr: int,
    scratch: Path | str | None,
    output_file: str | None = None,
    read_back: Sequence[str] = (),
) -> None:
    """Fills output, output_exceeded, stderr_head and files from the run's stdout and
    stderr (open files) and, from its scratch dir when it has one, the output file the
    program wrote and the files named in `read_back`."""
    cap = limits.output_bytes
    written = None if scratch is None or output_file is None else os.path.join(scratch, output_file)
    if scratch is not None:
        result.files = read_back_files(scratch, read_back, cap)
    data, stdout_over = read_fd(stdout, cap)
    over = stdout_over
    if written is not None:
        taken = read_regular(written, cap)
        if taken is not None:
            data, over = taken
    result.output = data
    killed_by_size = result.signal == signal.SIGXFSZ
    result.output_exceeded = result.output_exceeded or over or stdout_over or killed_by_size
    result.stderr_head, _ = read_fd(stderr, STDERR_HEAD_BYTES)


def collect_output(
    ws: Workspace,
    result: ExecutionResult,
    limits: Limits,
    output_file: str | None,
    read_back: Sequence[str] = (),
) -> None:
    """`collect` from a spawned run's workspace files."""
    collect(result, limits, ws.stdio[1], ws.stdio[2], ws.box, output_file, read_back)


SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"


def missing_program(argv: Sequence[str], box: Path) -> str | None:
    """Why argv[0] cannot be started (a judge error), or None: a file in the scratch dir
    when it names a path, else a command on the sandbox's PATH."""
    if not argv:
        return "empty command"
    name = argv[0]
    if "/" in name:
        path = box / name if not name.startswith("/") else Path(name)
        ok = path.is_file()
    else:
        ok = shutil.which(name, path=SANDBOX_PATH) is not None
    return None if ok else f"cannot start {name!r}: no such program"
