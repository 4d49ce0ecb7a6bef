"""The compile cache: one build per key (sources + language + toolchain version + flags).

A build lives in `<cache>/<key>/`: `out/` (the files a run places in its scratch dir:
the binary, the jar, or the sources of an interpreted language) with `entry` (what the
run command starts), or `compile_error.txt` (the compiler's message, truncated). Both
are published atomically, so parallel workers may race safely. The compiler runs in the
sandbox, in a compiler's view (sandbox/views.py): of the host it sees the system folders
and of /etc, /var and /opt only what it reads, so a source that #includes a file outside
its scratch dir (/etc/passwd, an answer file, another build) finds nothing to put in its
binary or to quote in its CE message.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.program import execute
from pipeline.program.languages import BuildFailure, Language, get_language, toolchain_version
from pipeline.program.languages.contract import stage_names
from pipeline.text import compiler_message

COMPILE_TIMEOUT_S = 120.0
MESSAGE_LIMIT = 2000
COMPILE_LIMITS = Limits(
    cpu_ms=COMPILE_TIMEOUT_S * 1000, memory_mb=2048, wall_ms=COMPILE_TIMEOUT_S * 1000,
    output_kb=256 * 1024,
    processes=64,
)  # fmt: skip

# compilers start threads (see Language.thread_stack_mb)
COMPILE_STACK_MB = 64
# what every compiler's view shows under /etc (the loader's cache; the links through which
# /usr/bin names a toolchain), with what its language reads (Language.compile_reads)
COMPILE_READS = ("/etc/ld.so.cache", "/etc/alternatives")

Source = tuple[str, bytes]  # (file name as the user gave it, content)


def default_cache_dir() -> Path:
    """GRIDJUDGE_CACHE/build, else ~/.cache/gridjudge/build."""
    base = os.environ.get("GRIDJUDGE_CACHE")
    return (Path(base) if base else Path.home() / ".cache" / "gridjudge") / "build"


def truncate(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """A compiler's message as kept: repeated lines folded, cut at a line end."""
    return compiler_message(message, limit)


@dataclass(frozen=True)
class Build:
    """The outcome of building sources: the files to place and what to start, or the
    compiler's message."""

    files: dict[str, Path] | None
    entry: str = ""
    error: str | None = None

    @property
    def program(self) -> Path | None:
        """The folder holding the built files (None after a compile error)."""
        if not self.files:
            return None
        return next(iter(self.files.values())).parent


@dataclass(frozen=True)
class Staged:
    """Sources as they are laid in the scratch dir: main source last (OCaml links in
    that order), with the names the user gave them for messages."""

    names: tuple[str, ...]
    texts: tuple[bytes, ...]
    main: str
    display: dict[str, str]


def stage(lang: Language, sources: Sequence[Source], entry: str | None = None) -> Staged:
    """Raises ValueError for a name that cannot be used (see contract.stage_names), or
    an `entry` that names none of several sources."""
    original = [name for name, _ in sources]
    names = stage_names(lang, original)
    texts = [data for _, data in sources]
    main = lang.main_source(names, [t.decode("utf-8", "replace") for t in texts])
    if entry is not None and len(names) > 1:
        main = names[original.index(entry_source(original, entry))]
    order = sorted(range(len(names)), key=lambda i: (names[i] == main, names[i]))
    display = {names[i]: original[i] for i in order if names[i] != original[i]}
    return Staged(tuple(names[i] for i in order), tuple(texts[i] for i in order), main, display)


def entry_source(names: Sequence[str], entry: str) -> str:
    """The source a submission's entry point (submissions.yaml `entrypoint`) names: a
    file (`main.py`), or a class by its file (Java `Main` or `pkg.Main`: Main.java;
    Kotlin `MainKt`: main.kt or Main.kt). Raises ValueError when it names none."""
    if entry in names:
        return entry
    wanted = entry.rpartition(".")[2]
    for name in names:
        stem = name.rpartition(".")[0]
        if wanted in (stem, f"{stem[:1].upper()}{stem[1:]}Kt"):
            return name
    raise ValueError(f"entrypoint {entry!r} names none of its sources ({', '.join(names)})")


def compile_view(lang: Language) -> tuple[str, ...]:
    """What `lang`'s compiler sees under /etc, /var and /opt (sandbox/views.py)."""
    return (*COMPILE_READS, *lang.compile_reads)


def build_key(lang: Language, staged: Staged) -> str:
    h = hashlib.sha256()
    # the view too: a build made in another view (a message quoting a host file, a CE of
    # a compiler that missed its configuration) is not this one's
    view = "view " + " ".join(compile_view(lang))
    for part in (lang.name, toolchain_version(lang), lang.flags(), view):
        h.update(part.encode() + b"\0")
    for name, text in zip(staged.names, staged.texts, strict=True):
        h.update(name.encode() + b"\0" + hashlib.sha256(text).digest())
    return h.hexdigest()


def build(
    language: str | Language, sources: Sequence[Source], cache_dir: Path, entry: str | None = None
) -> Build:
    """Builds once per key into `cache_dir` (`entry`: the entry point given, else the
    language's rule picks it); never raises for a bad source (the compiler's message is
    returned instead). Raises RuntimeError when the judge itself cannot compile (no
    toolchain, a sandbox failure)."""
    lang = get_language(language) if isinstance(language, str) else language
    staged = stage(lang, sources, entry)
    home = cache_dir / build_key(lang, staged)
    found = _cached(home)
    if found is not None:
        return found
    home.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=home))
    try:
        error = _make(lang, staged, tmp / "out")
        if error is not None:
            _publish_text(home / "compile_error.txt", truncate(error))
        else:
            for path in (tmp / "out").iterdir():
                os.chmod(path, 0o755)
            try:
                os.rename(tmp / "out", home / "out")  # a racing worker may have won
            except OSError:
                if not (home / "out").is_dir():
                    raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    built = _cached(home)
    assert built is not None
    return built


def _cached(home: Path) -> Build | None:
    out, entry = home / "out", home / "out" / ".entry"
    if entry.is_file():
        files = {p.name: p for p in sorted(out.iterdir()) if p.name != ".entry"}
        return Build(files, entry.read_text())
    error_file = home / "compile_error.txt"
    if error_file.is_file():
        return Build(None, error=error_file.read_text(errors="replace"))
    return None


def _make(lang: Language, staged: Staged, out: Path) -> str | None:
    """Compiles (or checks) into `out`; returns the compiler's message on failure."""
    out.mkdir()
    files = dict(zip(staged.names, staged.texts, strict=True))
    if lang.interpreted:
        if lang.check is not None:
            result = _sandboxed(lang, lang.check, staged, files, None)
            if result.signal or result.exit_code != 0:
                return _message(lang, result, staged, "check")
        for name, text in files.items():
            (out / name).write_bytes(text)
        (out / ".entry").write_text(staged.main)
        return None
    assert lang.compile is not None
    result = _sandboxed(lang, lang.compile, staged, files, lang.artefact)
    if result.cpu_exceeded or result.wall_exceeded:
        return f"compilation took longer than {COMPILE_TIMEOUT_S:.0f} s"
    if result.memory_exceeded or result.output_exceeded:
        return "compilation used too much memory or produced too large a program"
    data = result.output
    if result.signal or result.exit_code != 0 or (lang.magic and not data.startswith(lang.magic)):
        return _message(lang, result, staged, "compiler")
    made, entry = {lang.artefact: data}, ""
    if lang.finish is not None:
        try:
            made, entry = lang.finish(data, staged.main)
        except BuildFailure as exc:
            return str(exc)
    for name, content in made.items():
        (out / name).write_bytes(content)
    (out / ".entry").write_text(entry)
    return None


def _sandboxed(
    lang: Language,
    template: Sequence[str],
    staged: Staged,
    files: dict[str, bytes],
    output_file: str | None,
) -> ExecutionResult:
    sources = lang.compiled(staged.names)
    argv = lang.expand(template, sources, main=staged.main, stack_mb=COMPILE_STACK_MB)
    placed: dict[str, bytes | str | Path] = dict(files)
    result = execute.run_command(
        argv,
        execute.RunRequest(
            COMPILE_LIMITS, files=placed, output_file=output_file, view=compile_view(lang)
        ),
    )
    if result.judge_error:  # e.g. no compiler here: the judge's failure, for the caller
        raise RuntimeError(f"cannot compile {lang.name}: {result.judge_error}")
    return result


def _message(lang: Language, result: ExecutionResult, staged: Staged, what: str) -> str:
    """The compiler's words (stderr, else what it printed), with the user's file names."""
    text = result.stderr_head.decode("utf-8", "replace")
    if not text.strip():
        text = result.output[:4096].decode("utf-8", "replace")
    if lang.noise:
        lines = text.splitlines()
        text = "\n".join(ln for ln in lines if not ln.startswith(lang.noise))
    for name, shown in staged.display.items():
        text = text.replace(name, shown)
    return text.strip() or f"{what} exit {result.exit_code}"


def _publish_text(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".msg-")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
