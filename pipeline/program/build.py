"""Languages and the compile cache: one build per content hash (source + language).

A build lives in `<cache>/<sha>/`: `prog` (the binary) or `compile_error.txt` (the
compiler's message, truncated), written atomically so parallel workers may race safely.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pipeline.limits import Limits

COMPILE_TIMEOUT_S = 120.0
MESSAGE_LIMIT = 2000


@dataclass(frozen=True)
class Language:
    name: str
    compile: tuple[str, ...] | None  # {src} {out}; None: interpreted
    run: tuple[str, ...]  # {prog}: the binary or the script, relative to the scratch dir
    source_name: str  # file name of the source in the build dir / scratch dir


def _cxx(std: str) -> Language:
    return Language(
        f"cpp{std}",
        ("g++", "-O2", f"-std=gnu++{std}", "-o", "{out}", "{src}", "-lm"),
        ("./{prog}",),
        "main.cpp",
    )


LANGUAGES: dict[str, Language] = {
    "c11": Language(
        "c11", ("gcc", "-O2", "-std=gnu11", "-o", "{out}", "{src}", "-lm"), ("./{prog}",), "main.c"
    ),
    "cpp98": _cxx("98"),
    "cpp11": _cxx("11"),
    "cpp17": _cxx("17"),
    "cpp20": _cxx("20"),
    "py3": Language("py3", None, ("python3", "{prog}"), "main.py"),
}

EXTENSIONS: dict[str, str] = {
    ".c": "c11",
    ".cpp": "cpp17",
    ".cc": "cpp17",
    ".cxx": "cpp17",
    ".py": "py3",
}


def default_cache_dir() -> Path:
    """GRIDJUDGE_CACHE/build, else ~/.cache/gridjudge/build."""
    base = os.environ.get("GRIDJUDGE_CACHE")
    return (Path(base) if base else Path.home() / ".cache" / "gridjudge") / "build"


def source_sha(language: str, source: bytes) -> str:
    return hashlib.sha256(language.encode() + b"\0" + source).hexdigest()


def truncate(message: str, limit: int = MESSAGE_LIMIT) -> str:
    return message if len(message) <= limit else message[:limit] + "\n[... truncated]"


@dataclass(frozen=True)
class Build:
    """The outcome of building a source: the file to run (binary or script) or an error."""

    program: Path | None
    error: str | None


def _python_check(source: bytes, name: str) -> str | None:
    try:
        compile(source, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return truncate(f"{name}:{exc.lineno}: SyntaxError: {exc.msg}")
    except ValueError as exc:  # e.g. null bytes
        return truncate(f"{name}: {exc}")
    return None


def build(language: str, source: bytes, cache_dir: Path, display_name: str = "") -> Build:
    """Builds `source` once per content hash into `cache_dir`; never raises for a bad
    source (the compiler's message is returned instead)."""
    lang = LANGUAGES[language]
    sha = source_sha(language, source)
    home = cache_dir / sha
    prog = home / ("prog" if lang.compile else lang.source_name)
    error_file = home / "compile_error.txt"
    if prog.exists():
        return Build(prog, None)
    if error_file.exists():
        return Build(None, error_file.read_text(errors="replace"))
    home.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=home))
    try:
        src = tmp / lang.source_name
        src.write_bytes(source)
        if lang.compile is None:
            error = _python_check(source, display_name or lang.source_name)
            out = src
        else:
            out = tmp / "prog"
            error = _compile(lang, source, out, display_name or lang.source_name)
        if error is not None:
            _publish_text(error_file, error)
            return Build(None, error)
        os.chmod(out, 0o755)
        os.replace(out, prog)
        return Build(prog, None)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# The compiler runs in the sandbox too: a source that #includes a file outside its
# scratch dir (an answer file, a key) must not see it, in its binary or in its CE message.
COMPILE_LIMITS = Limits(
    cpu_ms=COMPILE_TIMEOUT_S * 1000, memory_mb=2048, wall_ms=COMPILE_TIMEOUT_S * 1000,
    output_kb=256 * 1024,
    processes=32,
)  # fmt: skip


def _compile(lang: Language, source: bytes, out: Path, display_name: str) -> str | None:
    """Compiles into `out`; returns the compiler's message on failure."""
    from pipeline.program.sandbox import get_sandbox

    assert lang.compile is not None
    argv = [a.format(src=lang.source_name, out="prog") for a in lang.compile]
    result = get_sandbox().run(
        argv, limits=COMPILE_LIMITS, files={lang.source_name: source}, output_file="prog"
    )
    if result.judge_error:  # e.g. no compiler here: the judge's failure, for the caller
        raise RuntimeError(f"cannot compile with {argv[0]}: {result.judge_error}")
    text = result.stderr_head.decode("utf-8", "replace").replace(lang.source_name, display_name)
    if result.cpu_exceeded or result.wall_exceeded:
        return f"compilation took longer than {COMPILE_TIMEOUT_S:.0f} s"
    if result.memory_exceeded or result.output_exceeded:
        return "compilation used too much memory or produced too large a binary"
    if result.signal or result.exit_code != 0 or not result.output.startswith(b"\x7fELF"):
        return truncate(text.strip() or f"compiler exit {result.exit_code}")
    out.write_bytes(result.output)
    return None


def _publish_text(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".msg-")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
