"""The judge's own files: everything gridjudge writes (corpora, run folders and their
results, gradebooks, feedback and reports, the result cache, exported packages) is
created readable by the judge's user only, files 0600 and folders 0700, whatever the
umask. Test data kept anywhere (under /opt, /var, a home folder) is then unreadable to
every other user, the sandbox's unprivileged user among them. Every writer of such a
file or folder creates it through this module; the modes are stated here only.

Folders that exist already are left as they are (they are not the judge's to change);
what gridjudge creates inside them is private.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

FILE_MODE = 0o600
FOLDER_MODE = 0o700


def private_dir(path: Path | str) -> Path:
    """`path` as a folder, like mkdir -p: each folder created on the way is FOLDER_MODE."""
    path = Path(path)
    missing = []
    probe = path
    while not os.path.lexists(probe) and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, FOLDER_MODE)
        except FileExistsError:  # made meanwhile by another writer
            continue
        os.chmod(folder, FOLDER_MODE)  # the umask may have taken owner bits
    if not path.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(path))
    return path


def private_file(path: Path | str) -> Path:
    """`path` as a FILE_MODE file (created empty if missing, its content kept otherwise),
    for a writer that opens it by name afterwards (pyarrow, pandas, SQLite): opening an
    existing file keeps its mode."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    return Path(path)


def write_private(path: Path | str, data: str | bytes) -> Path:
    """Write `data` (text as UTF-8) as the whole content of the FILE_MODE file `path`."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(path, flags, FILE_MODE)
    with os.fdopen(fd, "wb") as fh:
        os.fchmod(fd, FILE_MODE)
        fh.write(raw)
    return Path(path)
