"""An embedded Ray's files and token, its user's alone.

Left to itself, Ray makes its session folders under /tmp/ray with mode 0777 (its logs,
sockets and session metadata readable by every local user), and keeps the token of its
token authentication in ~/.ray/auth_token, written 0644: in a home others may traverse,
another local user reads it and passes the token check of every later session. So an
embedded Ray of gridjudge gets a root folder only its user may enter (whatever Ray
does beneath it), and a token of its own process, handed to Ray's processes in their
environment (RAY_AUTH_TOKEN, which only the user and root may read) and never written
to a file. A cluster the user joins, or one whose authentication the user set
(RAY_AUTH_MODE, RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH), is left as the user set it.
"""

from __future__ import annotations

import os
import secrets
import stat
import tempfile
from pathlib import Path

from pipeline.errors import GridjudgeError

AUTH_SETTINGS = ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")
PRIVATE = 0o700


def ray_base_dir() -> Path:
    """Where Ray would make its own folder: RAY_TMPDIR, else TMPDIR, else /tmp (as Ray
    chooses it on Linux)."""
    return Path(os.environ.get("RAY_TMPDIR") or os.environ.get("TMPDIR") or "/tmp")


def ray_temp_dir(base: Path | None = None) -> Path:
    """Ray's temp dir for an embedded session: a folder in private_root(). Ray makes
    its temp dir, and each folder beneath, 0777 (on purpose, for users sharing a
    machine): the folder above it is what keeps the others out. (Ray's socket paths
    must stay under 108 bytes: names here are short.)"""
    return private_root(base) / "ray"


def private_root(base: Path | None = None) -> Path:
    """A folder for this user's embedded Ray sessions that no one else may enter:
    BASE/gridjudge-UID, made 0700 (or tightened, if the user's own); where another
    user holds that name (made first, to read or to block), a fresh folder beside it."""
    base = ray_base_dir() if base is None else base
    uid = os.geteuid()
    root = base / f"gridjudge-{uid}"
    try:
        root.mkdir(mode=PRIVATE, parents=False)
    except FileExistsError:
        pass
    except OSError as exc:
        raise GridjudgeError(f"cannot make Ray's session folder {root}: {exc.strerror}") from None
    info = root.lstat()
    if stat.S_ISDIR(info.st_mode) and info.st_uid == uid:
        if stat.S_IMODE(info.st_mode) != PRIVATE:
            os.chmod(root, PRIVATE)
        return root
    # not ours (or not a folder): never used, never changed
    return Path(tempfile.mkdtemp(prefix=f"gridjudge-{uid}-", dir=base))


def private_token() -> None:
    """Unless the user set Ray's authentication, a random token of this process for the
    embedded Ray, in the environment its processes inherit; Ray then turns token
    authentication on with it and writes no token file. The same token for every
    embedded session of the process: Ray's token loader keeps the first it read."""
    if any(os.environ.get(name) for name in AUTH_SETTINGS):
        return
    os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
