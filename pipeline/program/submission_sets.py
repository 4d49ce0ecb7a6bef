"""Submission sets: every file or folder directly in a folder (`--submissions DIR`), or
the rows of a CSV (`--submissions-list FILE.csv`: id, path, optional language). Each
becomes a SubmissionSpec whose label is the submission's id, the `submission` column of
the results. A folder is one multi-file submission."""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from pipeline.program.languages.registry import for_extension, is_language
from pipeline.program.submission import SubmissionError, SubmissionSpec, in_listing, parse_spec

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


SkipReport = Callable[[Path, str], None]
ADVICE = (
    "give each source its language's extension (`gridjudge languages` lists them) or "
    "make it executable; --skip-unknown leaves out what is not a source"
)


def not_a_source(path: Path) -> str | None:
    """Why `path` (a file or folder of a submissions folder) is not a source, or None."""
    if path.is_dir():
        if any(for_extension(p.suffix) for p in path.iterdir() if p.is_file()):
            return None
        return "a folder without source files of a known language"
    if for_extension(path.suffix) is not None or os.access(path, os.X_OK):
        return None
    kind = f"{path.suffix} files" if path.suffix else "files without an extension"
    return f"not a source: no language uses {kind}"


def from_dir(
    folder: Path, skip_unknown: bool = False, on_skip: SkipReport | None = None
) -> list[SubmissionSpec]:
    """Each file or folder directly in `folder` (hidden ones and `__pycache__` skipped);
    id = name without its extension. Every entry that cannot be graded is named in one error; with
    `skip_unknown` the ones that are not sources are left out (told to `on_skip`)."""
    if not folder.is_dir():
        raise SubmissionError(f"--submissions: no such folder {str(folder)!r}")
    entries = sorted(p for p in folder.iterdir() if in_listing(p))
    if not entries:
        raise SubmissionError(f"--submissions: folder {folder} is empty")
    specs, problems = [], []
    for path in entries:
        shown = f"{path.name}/" if path.is_dir() else path.name
        why = not_a_source(path)
        if why is not None and skip_unknown:
            if on_skip is not None:
                on_skip(path, why)
            continue
        try:
            if why is not None:
                raise SubmissionError(why)
            sid = _check_id(path.stem if path.is_file() else path.name, shown)
            specs.append(spec_for(sid, path))
        except SubmissionError as exc:
            problems.append(f"{shown} ({_short(str(exc), path, shown)})")
    if problems:
        what = "entry" if len(problems) == 1 else "entries"
        raise SubmissionError(
            f"--submissions {folder}: {len(problems)} {what} cannot be graded: "
            f"{'; '.join(problems)}; {ADVICE}"
        )
    return specs


def _short(message: str, path: Path, shown: str) -> str:
    """A spec error as said of an entry of the folder: without the path it names and
    without the advice for a command-line spec (LANG:PATH does not fit a folder)."""
    for prefix in (f"submission {str(path)!r}: ", f"{shown}: "):
        message = message.removeprefix(prefix)
    return message.split("; name it as", 1)[0]


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


def collect(
    folders: list[Path],
    listings: list[Path],
    skip_unknown: bool = False,
    on_skip: SkipReport | None = None,
) -> list[SubmissionSpec]:
    """Every set's specs; an id used twice is a one-line error (an id that is also a
    `-s` label is caught with the `-s` ones). `skip_unknown`: see from_dir."""
    specs: list[SubmissionSpec] = []
    for folder in folders:
        specs += from_dir(folder, skip_unknown, on_skip)
    for listing in listings:
        specs += from_list(listing)
    seen: set[str] = set()
    for spec in specs:
        if spec.label in seen:
            raise SubmissionError(f"submission id {spec.label!r} is given twice")
        seen.add(spec.label)
    return specs
