"""What a run folder may hold, and its lock: the one `grade` writing a folder holds an
exclusive flock on RUN_DIR/.lock. A run folder may be another user's (root grading into
a user's `--out`): an entry that is not gridjudge's own, a link above all, is named so
that it is refused before anything is written (pipeline.grade.plan).
"""

from __future__ import annotations

import fcntl
import os
import stat
from pathlib import Path

from pipeline.private import open_private, private_dir
from pipeline.results.store import (
    LOCK_FILE,
    RESULTS_DIR,
    RUN_JSON,
    SUMMARY_FILE,
    UNREADABLE_DIR,
    RunDirError,
)


def _reason(exc: BaseException) -> str:
    return " ".join(str(exc).split())


# What a run folder holds of gridjudge's own: its files (with their temporary names while
# written) and folders, those the scoring and the report write in it (gradebook,
# scoring.yaml, feedback/, report.html) included.
_WRITTEN = (RUN_JSON, SUMMARY_FILE, "gradebook.parquet", "gradebook.csv", "scoring.yaml")
RUN_FILES = (
    LOCK_FILE,
    "report.html",
    *_WRITTEN,
    *(f".{n}.tmp" for n in (*_WRITTEN, "report.html")),
)
RUN_FOLDERS = (RESULTS_DIR, UNREADABLE_DIR, "feedback")


def foreign_entry(
    run_dir: Path, files: tuple[str, ...] = RUN_FILES, folders: tuple[str, ...] = RUN_FOLDERS
) -> str | None:
    """The first entry of RUN_DIR that is not gridjudge's own (a name it does not write,
    a link, a file of another user or with another name elsewhere), as "NAME (why)"; None
    when every entry is one of `files` or `folders`, as the judge writes them."""
    try:
        entries = sorted(os.scandir(run_dir), key=lambda e: e.name)
    except FileNotFoundError:
        return None
    for entry in entries:
        st = entry.stat(follow_symlinks=False)
        if entry.is_symlink():
            why = "a symbolic link"
        elif entry.name in files and stat.S_ISREG(st.st_mode):
            why = "" if st.st_nlink == 1 else "a hard link"
        elif entry.name in folders and stat.S_ISDIR(st.st_mode):
            why = ""
        else:
            why = "not a file gridjudge writes"
        if not why and st.st_uid != os.geteuid():
            why = "another user's"
        if why:
            return f"{entry.name} ({why})"
    return None


class RunLock:
    """An exclusive flock on RUN_DIR/.lock, held by the one process writing the folder;
    the kernel releases it when that process ends, however it ends. The lock file is
    opened as every file of the run folder is (pipeline.private): a `.lock` planted as a
    link to another file, or as a file of another user, is refused, never written."""

    def __init__(self, run_dir: Path) -> None:
        run_dir = Path(run_dir)
        self.fd: int | None = None
        try:
            private_dir(run_dir)
            self.fd = open_private(run_dir / LOCK_FILE, truncate=False, flags=os.O_RDWR)
        except OSError as exc:
            raise RunDirError(f"{run_dir}: cannot lock ({_reason(exc)})") from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self.fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(self.fd)
            self.fd = None
            raise RunDirError(
                f"{run_dir} is being written by another gridjudge (pid {holder}): wait for "
                "it to end, or choose another --out"
            ) from None
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the only descriptor drops the lock
            self.fd = None

    def __del__(self) -> None:  # a plan that is never run does not keep its folder locked
        self.release()
