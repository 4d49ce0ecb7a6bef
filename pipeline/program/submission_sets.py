"""Submission sets: every file or folder directly in a folder (`--submissions DIR`), or
the rows of a CSV (`--submissions-list FILE.csv`: id, path, optional language). Each
becomes a SubmissionSpec whose label is the submission's id, the `submission` column of
the results. A folder is one multi-file submission."""

from __future__ import annotations

import csv
import re
from dataclasses import replace
from pathlib import Path

from pipeline.program.languages.registry import is_language
from pipeline.program.submission import SubmissionError, SubmissionSpec, parse_spec

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+@-]*$")


def _check_id(sid: str, where: str) -> str:
    if not _ID.match(sid):
        raise SubmissionError(f"{where}: submission id {sid!r} must be letters, digits, ._+@-")
    return sid


def spec_for(sid: str, path: Path, language: str | None = None) -> SubmissionSpec:
    """The spec of one submission of a set, labelled by its id (a folder is one submission
    of several sources, compiled together)."""
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
        if language is not None and not is_language(language):
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
