"""A compiler's view of the host: the system folders a run sees, but of /etc, /var and
/opt only what the compiler reads (the loader's cache, /etc/alternatives' links, a JVM's
or Mono's configuration, GHC's package database: the language plugins name theirs in
`Language.compile_reads`). A source that #includes a host file by its absolute path
(/etc/passwd, a corpus under /opt, a build cache under /var) finds nothing there, so no
compile error quotes one. The launcher builds it (`--conceal` with `--show`: shown.c),
bwrap from its binds.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence

# the shown system folders a compiler's view hides but for the paths it is given
COMPILE_HIDDEN = ("/etc", "/var", "/opt")


def shown_paths(patterns: Sequence[str]) -> list[str]:
    """The paths (glob patterns) under COMPILE_HIDDEN that are there, without those
    inside another one shown."""
    found = sorted(
        {
            os.path.normpath(path)
            for pattern in patterns
            for path in glob.glob(pattern)
            if path.startswith(tuple(f"{top}/" for top in COMPILE_HIDDEN))
        }
    )
    kept: list[str] = []
    for path in found:
        if not any(path.startswith(f"{outer}/") for outer in kept):
            kept.append(path)
    return kept


def launcher_args(patterns: Sequence[str]) -> list[str]:
    """The launcher's options of a compiler's view (with --ns --hide-all)."""
    args: list[str] = []
    for top in COMPILE_HIDDEN:
        args += ["--conceal", top]
    for path in shown_paths(patterns):
        args += ["--show", path]
    return args


def bwrap_binds(patterns: Sequence[str]) -> list[str]:
    """bwrap's options for the paths a compiler's view shows under COMPILE_HIDDEN (a
    symbolic link made as one, as the launcher does)."""
    args: list[str] = []
    for path in shown_paths(patterns):
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        else:
            args += ["--ro-bind", path, path]
    return args
