"""Submission sets: every file or folder directly in a folder (`--submissions DIR`), or
the rows of a CSV (`--submissions-list FILE.csv`: id, path, optional language). Each
becomes a SubmissionSpec whose label is the submission's id, the `submission` column of
the results. A folder is one multi-file submission (see `folder_source`)."""

from __future__ import annotations

import csv
import hashlib
import os
import re
from dataclasses import replace
from pathlib import Path

from pipeline.program.build import EXTENSIONS, LANGUAGES, default_cache_dir
from pipeline.program.submission import SubmissionError, SubmissionSpec, parse_spec

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+@-]*$")
_INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"\s*$', re.MULTILINE)
_C_FAMILY = {".c", ".cc", ".cpp", ".cxx"}


def _check_id(sid: str, where: str) -> str:
    if not _ID.match(sid):
        raise SubmissionError(f"{where}: submission id {sid!r} must be letters, digits, ._+@-")
    return sid


def folder_source(folder: Path, sid: str, cache_dir: Path | None = None) -> tuple[Path, str]:
    """A C or C++ folder as one translation unit (its sources in name order, each local
    `#include "x.h"` of a header in the folder inlined once), written under the build
    cache; returns (file, language). Other languages' folders are refused in one line
    until folder submissions are a language feature."""
    files = sorted(p for p in folder.iterdir() if p.is_file())
    sources = [p for p in files if p.suffix.lower() in _C_FAMILY]
    if not sources:
        kinds = ", ".join(sorted({p.suffix or p.name for p in files})) or "nothing"
        raise SubmissionError(
            f"submission {sid!r}: folder {folder} holds no C/C++ sources ({kinds}); "
            "folder submissions are C and C++ only here"
        )
    cxx = any(p.suffix.lower() != ".c" for p in sources)
    headers = {p.name.encode(): p.read_bytes() for p in files if p.suffix.lower() in (".h", ".hpp")}
    seen: set[bytes] = set()

    def inline(text: bytes) -> bytes:
        def one(match: re.Match[bytes]) -> bytes:
            name = match.group(1)
            if name not in headers:
                return match.group(0)
            if name in seen:
                return b""
            seen.add(name)
            return inline(headers[name])

        return _INCLUDE.sub(one, text)

    unit = b"".join(
        b'#line 1 "' + p.name.encode() + b'"\n' + inline(p.read_bytes()) + b"\n" for p in sources
    )
    language = EXTENSIONS[".cpp" if cxx else ".c"]
    home = (cache_dir or default_cache_dir()) / "folders"
    home.mkdir(parents=True, exist_ok=True)
    target = home / (hashlib.sha256(unit).hexdigest()[:20] + LANGUAGES[language].source_name)
    if not target.exists():
        tmp = target.with_name(f".{target.name}.{os.getpid()}")
        tmp.write_bytes(unit)
        os.replace(tmp, target)
    return target, language


def spec_for(sid: str, path: Path, language: str | None = None) -> SubmissionSpec:
    """The spec of one submission of a set, labelled by its id."""
    if path.is_dir():
        path, language = folder_source(path, sid)
    raw = f"{language}:{path}" if language else str(path)
    return replace(parse_spec(raw), label=sid)


def from_dir(folder: Path) -> list[SubmissionSpec]:
    """Each file or folder directly in `folder` (hidden ones skipped); id = name without
    its extension."""
    if not folder.is_dir():
        raise SubmissionError(f"--submissions: no such folder {str(folder)!r}")
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    if not entries:
        raise SubmissionError(f"--submissions: folder {folder} is empty")
    return [spec_for(_check_id(p.stem if p.is_file() else p.name, str(p)), p) for p in entries]


def from_list(listing: Path) -> list[SubmissionSpec]:
    """Rows of a CSV with a header: id, path (relative to the CSV), optional language."""
    try:
        with listing.open(newline="") as fh:
            rows = list(csv.DictReader(fh))
            header = [c.strip() for c in (rows[0].keys() if rows else [])]
    except OSError as exc:
        raise SubmissionError(f"--submissions-list: cannot read {listing}: {exc}") from None
    if not rows or not {"id", "path"} <= set(header):
        raise SubmissionError(f"{listing}: expected a header with columns id, path[, language]")
    extra = set(header) - {"id", "path", "language"}
    if extra:
        raise SubmissionError(f"{listing}: unknown column(s) {', '.join(sorted(extra))}")
    specs = []
    for n, row in enumerate(rows, start=2):
        where = f"{listing}:{n}"
        sid = _check_id((row.get("id") or "").strip(), where)
        path = Path((row.get("path") or "").strip()).expanduser()
        path = path if path.is_absolute() else listing.parent / path
        if not path.exists():
            raise SubmissionError(f"{where}: no such file {str(path)!r}")
        language = (row.get("language") or "").strip() or None
        if language is not None and language not in LANGUAGES:
            raise SubmissionError(f"{where}: unknown language {language!r}")
        specs.append(spec_for(sid, path, language))
    return specs


def collect(folders: list[Path], listings: list[Path]) -> list[SubmissionSpec]:
    """Every set's specs; an id used twice is a one-line error (an id that is also a
    `-s` label is caught with the `-s` ones)."""
    specs: list[SubmissionSpec] = []
    for folder in folders:
        specs += from_dir(folder)
    for listing in listings:
        specs += from_list(listing)
    seen: set[str] = set()
    for spec in specs:
        if spec.label in seen:
            raise SubmissionError(f"submission id {spec.label!r} is given twice")
        seen.add(spec.label)
    return specs
