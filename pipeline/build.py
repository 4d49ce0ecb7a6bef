"""Languages and the compile cache: one build per content hash (source + language).

A build lives in `<cache>/<sha>/`: `prog` (the binary) or `compile_error.txt` (the
compiler's message, truncated), written atomically so parallel workers may race safely.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

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
            cmd = [a.format(src=src, out=out) for a in lang.compile]
            try:
                done = subprocess.run(
                    cmd, capture_output=True, timeout=COMPILE_TIMEOUT_S, cwd=tmp, check=False
                )
            except subprocess.TimeoutExpired:
                error = f"compilation took longer than {COMPILE_TIMEOUT_S:.0f} s"
            except OSError as exc:
                # the compiler is missing: the judge's failure, raised to the caller
                raise RuntimeError(f"cannot run {cmd[0]}: {exc}") from exc
            else:
                text = (done.stderr or done.stdout).decode("utf-8", "replace")
                text = text.replace(str(src), display_name or lang.source_name)
                failed = done.returncode != 0
                error = truncate(text.strip() or f"exit {done.returncode}") if failed else None
        if error is not None:
            _publish_text(error_file, error)
            return Build(None, error)
        os.chmod(out, 0o755)
        os.replace(out, prog)
        return Build(prog, None)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _publish_text(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".msg-")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
