"""The sandbox's C parts, compiled on first use into the cache dir: the exec launcher
(launcher.c, with serve.c for its fork-server mode) and the fork-server library
(forkserver.c) preloaded into submissions.

Exec'ing a small launcher instead of forking the judge (preexec_fn) keeps spawns fast
inside big processes such as Ray workers, and keeps the judge's memory out of the
program's rusage.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).parent
# static: no dynamic loading on each of the thousands of execs
LAUNCHER = (
    "launcher",
    ("launcher.c", "serve.c", "view.c", "run.c", "box.c", "seccomp.c", "shown.c"),
    ("-O2", "-static"),
    ("serve.h", "fdpass.h", "view.h", "run.h", "rlimits.h", "box.h", "seccomp.h", "shown.h"),
)
FORK_SERVER = (
    "forkserver",
    ("forkserver.c",),
    # bound at load: each case's child would otherwise resolve the library's libc calls
    # anew (the resolver's pages and a write fault on the GOT in every child)
    ("-O2", "-shared", "-fPIC", "-Wl,-z,now"),
    ("fdpass.h", "rlimits.h"),
)
_lock = threading.Lock()
_built: dict[str, Path] = {}


def cache_root() -> Path:
    base = os.environ.get("GRIDJUDGE_CACHE")
    return Path(base) if base else Path.home() / ".cache" / "gridjudge"


def _compiled(
    name: str, sources: tuple[str, ...], flags: tuple[str, ...], headers: tuple[str, ...]
) -> Path:
    """The compiled program or library for these sources, building it if needed (atomic)."""
    digest = hashlib.sha256(" ".join(flags).encode())
    for file in (*sources, *headers):
        digest.update((HERE / file).read_bytes())
    sha = digest.hexdigest()[:16]
    target = cache_root() / "launcher" / f"{name}-{sha}"
    with _lock:
        if sha in _built and _built[sha].exists():
            return _built[sha]
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{name}-")
            os.close(fd)
            try:
                done = subprocess.run(
                    ["gcc", *flags, "-o", tmp, *(str(HERE / s) for s in sources)],
                    capture_output=True,
                    check=False,
                )
                if done.returncode != 0:
                    raise RuntimeError(
                        f"cannot build the sandbox's {name}: "
                        + done.stderr.decode(errors="replace")[:500]
                    )
                os.chmod(tmp, 0o755)
                os.replace(tmp, target)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        _built[sha] = target
        return target


def launcher_path() -> Path:
    return _compiled(*LAUNCHER)


def fork_server_library() -> Path:
    return _compiled(*FORK_SERVER)
