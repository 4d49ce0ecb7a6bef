"""The exec launcher (launcher.c), compiled on first use into the cache dir.

Exec'ing a small launcher instead of forking the judge (preexec_fn) keeps spawns fast
inside big processes such as Ray workers, and keeps the judge's memory out of the
program's rusage (DESIGN §5).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
import threading
from pathlib import Path

SOURCE = Path(__file__).with_name("launcher.c")
# static: no dynamic loading on each of the thousands of execs
FLAGS = ("-O2", "-static")
_lock = threading.Lock()
_built: dict[str, Path] = {}


def cache_root() -> Path:
    base = os.environ.get("GRIDJUDGE_CACHE")
    return Path(base) if base else Path.home() / ".cache" / "gridjudge"


def launcher_path() -> Path:
    """The compiled launcher for this source, building it if needed (atomic)."""
    source = SOURCE.read_bytes()
    sha = hashlib.sha256(source + " ".join(FLAGS).encode()).hexdigest()[:16]
    target = cache_root() / "launcher" / f"launcher-{sha}"
    with _lock:
        if sha in _built and _built[sha].exists():
            return _built[sha]
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".launcher-")
            os.close(fd)
            try:
                done = subprocess.run(
                    ["gcc", *FLAGS, "-o", tmp, str(SOURCE)], capture_output=True, check=False
                )
                if done.returncode != 0:
                    raise RuntimeError(
                        "cannot build the sandbox launcher: "
                        + done.stderr.decode(errors="replace")[:500]
                    )
                os.chmod(tmp, 0o755)
                os.replace(tmp, target)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        _built[sha] = target
        return target
