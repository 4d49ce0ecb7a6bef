"""A package (or a judge folder) is read only where its symbolic links stay inside it.

The judge runs as root and reads a package's files through the links in it: a link to a
host file (mode 0600 included) would pull that file into a corpus, a validator's input
or verify's messages. So every link under the folder, to a file or to a folder, must
resolve inside the folder; one that leaves it is a one-line PackageError naming the
link, before any file of the folder is read (spec.read_package, the corpus importer).
"""

from __future__ import annotations

import os
from pathlib import Path


def _outside(link: Path, base: Path) -> str | None:
    """Why `link` leaves `base`, or None when it resolves inside it."""
    try:
        target = link.resolve(strict=True)
    except (OSError, RuntimeError):  # dangling, a loop, unreadable
        return "a link that does not resolve"
    if target == base or target.is_relative_to(base):
        return None
    return "a link out of the package"


def link_out_of(root: Path) -> str | None:
    """A one-line complaint naming the first link under `root` whose target is not
    inside it, or None when every link stays inside."""
    base = Path(root).resolve()
    if not base.is_dir():
        return None  # the caller says what is missing
    folders = [base]
    while folders:  # iterative: no depth limit; links to folders are checked, not entered
        folder = folders.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            return f"{folder}: cannot read ({exc.strerror})"
        for entry in entries:
            path = Path(entry.path)
            if entry.is_symlink():
                why = _outside(path, base)
                if why is not None:
                    shown = Path(root) / path.relative_to(base)
                    return f"{shown}: {why} ({os.readlink(path)}): refused"
            elif entry.is_dir():
                folders.append(path)
    return None
