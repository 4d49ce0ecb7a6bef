"""The Python zygote: runs inside the sandbox under the submission's own interpreter.

    python zygote.py FORK_SERVER_LIBRARY SCRIPT [ARGS...]

It starts once, imports the standard modules submissions commonly use, then hands over
to the fork server (forkserver.c), which forks a child per case; each child returns here
and runs SCRIPT as `__main__`, as `python SCRIPT ARGS...` would. It imports nothing of gridjudge:
the sandbox shows it only the interpreter's own files.
"""

# ruff: noqa: E402 (the start-up is read before the zygote's own imports)

import sys

# The interpreter put the script's folder first on the path: the scratch dir, which holds
# the submission's files. Gone before the zygote imports anything, so that a module of
# the submission named like one imported here (random.py) never runs outside a case.
if sys.path and not getattr(sys.flags, "safe_path", False):
    del sys.path[0]

import time

# The interpreter's own start-up (loading, initialising, `site`): a spawned run pays it
# in every case, so every served case is charged it too (forkserver.c's "ready US").
# What follows (WARM) is the judge's choice, not the program's: not charged.
START_CPU_US = int(time.process_time() * 1_000_000)

import atexit
import ctypes
import gc
import importlib
import os
import random
import runpy
import traceback

# Imported once here instead of once per case; a submission importing them gets the
# zygote's copies, in the state they had before any case ran.
WARM = (
    "array", "bisect", "collections", "copy", "dataclasses", "decimal", "fractions",
    "functools", "heapq", "itertools", "math", "operator", "re", "string", "typing",
    "pkgutil", "importlib.machinery",
)  # fmt: skip


def exit_code(stop: SystemExit) -> int:
    """What the interpreter makes of sys.exit(code)."""
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code & 0xFF
    print(stop.code, file=sys.stderr)
    return 1


def run_case(script: str, args: list[str]) -> int:
    """SCRIPT as `__main__`, ended as the interpreter ends a program: exit code, atexit
    handlers, non-daemon threads, flushed streams. The interpreter's own teardown is
    skipped: it would free every object the child inherited, copying the pages."""
    random.seed()  # each case its own seed, as in a fresh interpreter
    sys.argv = [script, *args]
    sys.path.insert(0, os.path.dirname(script))
    try:
        runpy.run_path(script, run_name="__main__")
        code = 0
    except SystemExit as stop:
        code = exit_code(stop)
    except BaseException as exc:
        tb = exc.__traceback__  # from the script's first frame, as `python SCRIPT` shows it
        while tb is not None and tb.tb_frame.f_code.co_filename != script:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb or exc.__traceback__)
        code = 1
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            code = code or 120  # as the interpreter does when stdout cannot be flushed
    return code


def main() -> None:
    library, script, *args = sys.argv[1:]
    for name in WARM:
        importlib.import_module(name)
    if hasattr(gc, "freeze"):  # CPython: never scanned, so never copied, by a child's GC
        gc.freeze()
    # CPython's PyDLL keeps the GIL over the call, so each child returns holding it;
    # PyPy has no PyDLL, and its CDLL call leaves the one thread's GIL free to retake
    loader = getattr(ctypes, "PyDLL", ctypes.CDLL)
    serve = loader(library).gj_serve_started
    serve.restype = ctypes.c_int
    serve.argtypes = [ctypes.c_longlong]
    if serve(START_CPU_US) != 0:
        sys.exit("zygote: not started as a fork server")
    # gj_serve took it out of the C environment; os.environ is the copy made at start-up
    os.environ.pop("GRIDJUDGE_FORK_SERVER_FD", None)
    os._exit(run_case(script, args))


if __name__ == "__main__":
    main()
