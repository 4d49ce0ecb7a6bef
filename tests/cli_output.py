"""A command's own lines, as tests read them.

Wherever a submission would get less than full isolation (an ordinary user on a host
without a cgroup it may write, a machine without user namespaces), `grade`, `run`,
`stress`, `verify` and `demo` print one line, `isolation: LEVEL (WHY); ...`, before any
work (pipeline/cli/common.py, warn_isolation). It goes to stderr: the user sees it, a
program reading stdout never does. CliRunner's `output` holds both streams, so a test
of a command's one-line error (stderr too) reads the lines without that line; a test of
what a command prints for programs reads `stdout`. tests/test_isolation_line.py tests
the line itself.
"""

from __future__ import annotations

import re

ISOLATION_LINE = re.compile(
    r"^isolation: [a-z ]+ \(.*\); `gridjudge doctor` says what would close the gap\n", re.M
)


def without_isolation_line(text: str) -> str:
    """`text` (a command's stderr, or its output with both streams) without the one
    isolation line it may start its work with; any second such line is kept, to fail
    the test that reads it."""
    return ISOLATION_LINE.sub("", text, count=1)
