"""Removing a tree a sandboxed program built: depth, names, permissions and links cannot
defeat it.

One loop, no recursion and one open directory at a time: it descends with openat, comes
back with openat(fd, "..") (checking it is the directory it came from), unlinks and
removes relative to that fd, makes a directory it cannot read or write 0700 through its
own fd, and never follows a symlink. A tree thousands of levels deep costs a list of
names, not a stack frame or a file descriptor per level.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_PATH_FLAGS = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _open_dir(parent: int, name: str) -> int | None:
    """`name` (a directory, not a link) of `parent` opened for listing, made 0700 first
    when its owner could not read, write or enter it; None when it cannot be."""
    try:
        handle = os.open(name, _PATH_FLAGS, dir_fd=parent)
    except OSError:
        return None
    try:
        if stat.S_IMODE(os.fstat(handle).st_mode) & 0o700 != 0o700:
            with contextlib.suppress(OSError):  # through the fd: no path to swap
                os.chmod(f"/proc/self/fd/{handle}", 0o700)
        return os.open(".", _DIR_FLAGS, dir_fd=handle)
    except OSError:
        return None
    finally:
        os.close(handle)


def _clear_files(fd: int) -> tuple[list[str], bool]:
    """Unlinks every non-directory and removes every empty directory of `fd`; returns the
    directories left (to descend into) and whether something could not be removed."""
    pending: list[str] = []
    stuck = False
    with os.scandir(fd) as entries:
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    try:
                        os.rmdir(entry.name, dir_fd=fd)
                    except OSError:
                        pending.append(entry.name)
                else:
                    os.unlink(entry.name, dir_fd=fd)
            except FileNotFoundError:
                pass
            except OSError:
                stuck = True
    return pending, stuck


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def _empty(top: int) -> bool:
    """Empties the directory open as `top` (the fd stays open); True when it is empty."""
    fd = os.dup(top)
    # per level below `top`: its name, its parent's identity, the parent's dirs left
    path: list[tuple[str, tuple[int, int], list[str]]] = []
    pending, stuck = _clear_files(fd)
    try:
        while True:
            if pending:
                name = pending.pop()
                sub = _open_dir(fd, name)
                if sub is None:
                    stuck = True
                    continue
                path.append((name, _identity(fd), pending))
                os.close(fd)
                fd = sub
                pending, blocked = _clear_files(fd)
                stuck = stuck or blocked
                continue
            if not path:
                return not stuck
            name, parent_id, pending = path.pop()
            up = os.open("..", _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = up
            if _identity(fd) != parent_id:  # the tree moved under us: stop here
                return False
            try:
                os.rmdir(name, dir_fd=fd)
            except FileNotFoundError:
                pass
            except OSError:
                stuck = True
    finally:
        os.close(fd)


def remove_tree(path: Path | str) -> bool:
    """Removes `path` (a file, a link or a whole tree); True when nothing is left there.
    Never raises for what it finds."""
    where = Path(path)
    try:
        parent = os.open(where.parent, _DIR_FLAGS)
    except OSError:
        return not os.path.lexists(where)
    try:
        try:
            os.unlink(where.name, dir_fd=parent)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            pass
        top = _open_dir(parent, where.name)
        if top is None:
            return False
        try:
            _empty(top)
        finally:
            os.close(top)
        os.rmdir(where.name, dir_fd=parent)
        return True
    except OSError:
        return not os.path.lexists(where)
    finally:
        os.close(parent)
