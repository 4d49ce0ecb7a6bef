"""checktestdata input validators (`.ctd`, the input-validator language of DOMjudge and
problemtools) through the PyPI `checktestdata` package (a Python reimplementation).

The judge only parses the script: the package turns it into a standalone Python program
(its library inlined, so it needs nothing but Python's standard library), written once
per content hash under the build cache and then built and run in the sandbox like any
other validator. That program reads the input on stdin and exits 42 when the input
matches the script, 43 when it does not. checktestdata takes no arguments of its own, so
the format's input validator flags are not passed to it.

A validator kind gridjudge cannot run (viva, `.viva`) is named by `unsupported`: it is
left out, said so in one line by `verify`, and the other validators still run.
"""

from __future__ import annotations

import hashlib
import os
from importlib.metadata import version
from pathlib import Path

from checktestdata.parser import ParserException, parse
from checktestdata.tokenizer import tokenize

from pipeline.package.spec import PackageError
from pipeline.program.build import default_cache_dir

CTD_SUFFIX = ".ctd"
# The package's program says "invalid" through sys.excepthook, which a program forked
# from the Python zygote does not reach (the zygote reports an uncaught exception
# itself): the wrapper catches the exception instead, and exits 43 where the hook would.
WRAPPER = """\
import os
import sys

try:
    exec(compile({source}, "checktestdata", "exec"), {{"__name__": "__main__"}})
except Exception as exc:
    if type(exc).__name__ not in ("ValidationError", "TypeError"):
        raise
    print(exc, file=sys.stderr)
    sys.stderr.flush()
    os._exit(43)
"""
UNSUPPORTED = {".viva": "viva"}  # suffix -> a validator kind gridjudge cannot run


def is_checktestdata(path: Path) -> bool:
    return path.is_file() and path.suffix == CTD_SUFFIX


def unsupported(path: Path) -> str | None:
    """Why the validator at `path` is not run (one line), or None."""
    kind = UNSUPPORTED.get(path.suffix)
    return None if kind is None else f"{path.name}: {kind} validators are not supported; not run"


def standalone(path: Path, cache: Path | None = None) -> Path:
    """The Python program of the checktestdata script at `path` (made on first use);
    a script that does not parse is a PackageError naming it and the place."""
    source = path.read_bytes()
    # the script, the wrapper and the package's version make the program
    made_by = f"{WRAPPER}\0{version('checktestdata')}\0".encode()
    digest = hashlib.sha256(made_by + source).hexdigest()[:24]
    out = (cache or default_cache_dir()) / "checktestdata" / f"{path.stem}-{digest}.py"
    if out.is_file():
        return out
    try:
        program = WRAPPER.format(source=repr(parse(tokenize(source)).python_code(standalone=True)))
    except ParserException as exc:
        where = f"{exc.token.line}:{exc.token.column}"
        raise PackageError(f"{path}:{where}: checktestdata: {exc}") from None
    except Exception as exc:  # the parser's own errors on a malformed script
        raise PackageError(f"{path}: checktestdata: {type(exc).__name__}: {exc}") from None
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    tmp.write_text(program, encoding="utf-8")
    tmp.replace(out)
    return out
