"""What every command shares: turning expected failures into one line and an exit code,
and option defaults read from the library."""

from __future__ import annotations

import errno
import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from pipeline.distribute.ending import interrupted_ray
from pipeline.distribute.reaper import stop_interrupted_ray
from pipeline.errors import GridjudgeError
from pipeline.grade.interrupts import by_sigterm
from pipeline.text import one_line, printable

P = ParamSpec("P")
R = TypeVar("R")

EXIT_USER_ERROR = 2
EXIT_GATE = 1  # `compare` and `run`: the --fail-on gate tripped
EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports SIGINT
EXIT_TERMINATED = 143  # SIGTERM, as a shell reports it: the caller sees which signal ended it


def fail(message: str, code: int = EXIT_USER_ERROR) -> typer.Exit:
    """Print `error: message` on stderr as one line (controls escaped, capped at
    text.MESSAGE_CHARS: a message may quote a file or a name a user brought); return the
    Exit to raise."""
    typer.echo(f"error: {one_line(message)}", err=True)
    return typer.Exit(code)


def say(text: str) -> None:
    """Print a line (or lines) that carries names or text a user, a package or a program
    brought (a family, a case, a submission path, a checker's message, a transcript):
    their control characters escaped (text.printable), line ends kept."""
    typer.echo(printable(text, lines=True))


@contextmanager
def interrupts_end(hint: str) -> Iterator[None]:
    """Ctrl-C or SIGTERM (grade.interrupts: raised as KeyboardInterrupt once the library
    has kept what finished) in the body: `interrupted: HINT` on stderr, exit 130 / 143."""
    try:
        yield
    except KeyboardInterrupt as stop:
        typer.echo(f"interrupted: {hint}", err=True)
        code = EXIT_TERMINATED if by_sigterm(stop) else EXIT_INTERRUPTED
        if interrupted_ray():
            # everything is written; Ray's shutdown (or its atexit handler) could still
            # trip a check in its core worker on the way out: its node ended, end here
            sys.stdout.flush()
            sys.stderr.flush()
            stop_interrupted_ray()
            os._exit(code)
        raise typer.Exit(code) from None


# a path the user named or a place the machine gives that cannot be written or made
# (an --out in a read-only folder or under a file, a full disk, a link loop on the way):
# the user's to fix
USER_PATH_ERRNOS = frozenset(
    {
        errno.ELOOP,
        errno.EACCES,
        errno.EPERM,
        errno.EROFS,
        errno.ENOSPC,
        errno.EDQUOT,
        errno.ENOTDIR,
        errno.EISDIR,
        errno.ENAMETOOLONG,
    }
)


def user_errors(func: Callable[P, R]) -> Callable[P, R]:
    """A command whose GridjudgeError, or an OSError of USER_PATH_ERRNOS on a named path,
    ends as `error: <one line>` and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except GridjudgeError as exc:
            raise fail(str(exc)) from None
        except OSError as exc:
            if exc.errno not in USER_PATH_ERRNOS or exc.filename is None:
                raise
            raise fail(f"{exc.filename}: {exc.strerror}") from None

    return wrapper


def read_text_arg(path: Path | None) -> str:
    """The text of FILE, or stdin when FILE is absent."""
    if path is None:
        return sys.stdin.read()
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GridjudgeError(f"{path}: cannot read ({exc})") from None


def warn_isolation(allow_unsandboxed: bool = False) -> None:
    """Refuses (one line: cause and fix) where no isolation is possible and running
    without it was not allowed; else one line on stderr when a submission would run with
    less than full isolation here (the level and why, and where to look), before any
    work."""
    from pipeline.sandbox.isolation import admit, isolation_level, probed

    admit(allow_unsandboxed)
    level, why = isolation_level(probed())
    if level != "full":
        typer.echo(
            f"isolation: {level} ({why}); `gridjudge doctor` says what would close the gap",
            err=True,
        )


ALLOW_UNSANDBOXED_HELP = (
    "Run untrusted code even where no isolation is possible (no user namespaces): as "
    "you, with your files and the network; rows say `unsandboxed` (docs/sandbox.md)."
)
# options several commands take, declared once (each command gives the library's default)
AllowUnsandboxed = Annotated[bool, typer.Option("--allow-unsandboxed", help=ALLOW_UNSANDBOXED_HELP)]
RayAddress = Annotated[
    str | None,
    typer.Option(
        help="Ray cluster to join (default: RAY_ADDRESS, else an embedded local cluster; "
        "`local-serial` runs in this process without Ray).",
    ),
]
