"""The judge's own files: everything gridjudge writes (corpora, run folders and their
results, gradebooks, feedback and reports, the result cache, exported packages) is
created readable by the judge's user only, files 0600 and folders 0700, whatever the
umask. Test data kept anywhere (under /opt, /var, a home folder) is then unreadable to
every other user, the sandbox's unprivileged user among them. Every writer of such a
file or folder creates it through this module; the modes are stated here only.

Folders that exist already are left as they are (they are not the judge's to change);
what gridjudge creates inside them is private.

The folders written into may belong to another user (root grading into a user's
`--out`), who can plant anything in them at any time: a file is opened relative to its
folder's descriptor (the folder itself opened without following a link), never through
a symbolic link, and only when it is a regular file of the judge's with no other name
(a hard link to a file elsewhere); a folder made or entered here is never a link either.
What is refused is an OSError (EPERM) naming the path: one line at the command line
(docs/decisions.md#d9).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

FILE_MODE = 0o600
FOLDER_MODE = 0o700

_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC


def open_folder(path: Path | str) -> int:
    """A descriptor of the folder `path`, its last component not followed: a link there
    is refused."""
    try:
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and os.path.islink(path):
            raise OSError(
                errno.EPERM, "a symbolic link, not a folder: refused", str(path)
            ) from None
        raise


def private_dir(path: Path | str) -> Path:
    """`path` as a folder, like mkdir -p: each folder created on the way is FOLDER_MODE;
    the folder itself must not be a symbolic link."""
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
        fd = open_folder(folder)  # the umask may have taken owner bits; never chmod a link
        try:
            os.fchmod(fd, FOLDER_MODE)
        finally:
            os.close(fd)
    os.close(open_folder(path))
    return path


def _refuse_foreign(fd: int, path: Path | str) -> None:
    """An existing file opened for writing must be a regular file of the judge's user
    with one name: anything else was planted (a device, a hard link to a file elsewhere)."""
    st = os.fstat(fd)
    why = ""
    if not stat.S_ISREG(st.st_mode):
        why = "not a regular file"
    elif st.st_nlink != 1:
        why = "a hard link to another file"
    elif st.st_uid != os.geteuid():
        why = "a file of another user"
    if why:
        raise OSError(errno.EPERM, f"{why}: refused", str(path))


def open_private(path: Path | str, *, truncate: bool = True, flags: int = os.O_WRONLY) -> int:
    """A descriptor of the FILE_MODE file `path` (created if missing; emptied with
    `truncate` only once it is known to be the judge's), opened relative to its folder's
    descriptor and never through a link."""
    path = Path(path)
    folder = open_folder(path.parent)
    try:
        fd = os.open(path.name, flags | os.O_CREAT | _NOFOLLOW, FILE_MODE, dir_fd=folder)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(errno.EPERM, "a symbolic link: refused", str(path)) from None
        raise
    finally:
        os.close(folder)
    try:
        _refuse_foreign(fd, path)
        os.fchmod(fd, FILE_MODE)
        if truncate:
            os.ftruncate(fd, 0)
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextlib.contextmanager
def private_writer(path: Path | str) -> Iterator[BinaryIO]:
    """The FILE_MODE file `path`, emptied, as a binary file to write (pyarrow's writers
    take it): opened as open_private opens it, closed at the end of the block."""
    with os.fdopen(open_private(path), "wb") as fh:
        yield fh


def private_file(path: Path | str) -> Path:
    """`path` as a FILE_MODE file (created empty if missing, its content kept otherwise),
    for a writer that can only open it by name afterwards (SQLite): opening an existing
    file keeps its mode. Writers that take a file write through private_writer, which
    leaves no moment between the check and the write."""
    os.close(open_private(path, truncate=False))
    return Path(path)


def write_private(path: Path | str, data: str | bytes) -> Path:
    """Write `data` (text as UTF-8) as the whole content of the FILE_MODE file `path`."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with private_writer(path) as fh:
        fh.write(raw)
    return Path(path)


def replace_private(source: Path | str, target: Path | str) -> Path:
    """Rename `source` to `target` (same folder, atomically) through the folder's
    descriptor: a folder swapped for a link meanwhile is refused, not followed."""
    source, target = Path(source), Path(target)
    if source.parent != target.parent:
        raise ValueError(f"{source} and {target} are not in one folder")
    folder = open_folder(source.parent)
    try:
        os.rename(source.name, target.name, src_dir_fd=folder, dst_dir_fd=folder)
    finally:
        os.close(folder)
    return target
