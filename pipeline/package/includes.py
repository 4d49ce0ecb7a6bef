"""A package's included code: `include/<language>/` (a code of the format's language
table: `cpp`, `python3`, ...), and from 2023-07 on `include/default/` for every language,
read into the Problem (`Problem.includes`) so that every submission graded against the
package, in `verify` and in `grade`, is built with them (pipeline.program.included).

A language gets the default files and its own, its own replacing a default file of the
same name (problemtools adds both). A code names gridjudge's language of that name or
alias and every other version with its file endings (`python3`: CPython and PyPy; `cpp`:
each C++ standard). Only a folder's own files are read: a folder (or anything but a
file) inside one is refused in one line, as gridjudge stages a program's sources side by
side."""

from __future__ import annotations

from pathlib import Path

from pipeline.package.spec import Package, PackageError
from pipeline.program.included import EVERY_LANGUAGE
from pipeline.program.languages.registry import all_languages, get_language, is_language
from pipeline.program.submission import in_listing

INCLUDE = "include"
DEFAULT = "default"
MAX_INCLUDED_BYTES = 16 << 20  # every included file together: shipped with the problem

Files = tuple[tuple[str, bytes], ...]


def _titles(code: str) -> list[str]:
    """The titles of gridjudge's languages a format code names (none: unknown here)."""
    if not is_language(code):
        return []
    endings = set(get_language(code).extensions)
    return sorted({x.title for x in all_languages().values() if endings & set(x.extensions)})


def _paths(folder: Path) -> list[Path]:
    paths = []
    for path in sorted(folder.iterdir()):
        if not in_listing(path):
            continue
        if not path.is_file():
            raise PackageError(f"{path}: not a file (a language's files lie side by side)")
        paths.append(path)
    return paths


def _read(paths: dict[str, list[Path]], where: Path) -> dict[str, Files]:
    """Each folder's files, read within MAX_INCLUDED_BYTES together (sizes looked at
    before any byte is read; a file that grows meanwhile is read to the bound only)."""
    left = MAX_INCLUDED_BYTES
    if sum(p.stat().st_size for files in paths.values() for p in files) > left:
        raise PackageError(f"{where}: over {MAX_INCLUDED_BYTES >> 20} MB")
    read: dict[str, Files] = {}
    for name, files in paths.items():
        got = []
        for path in files:
            with path.open("rb") as f:
                data = f.read(left + 1)
            left -= len(data)
            if left < 0:
                raise PackageError(f"{where}: over {MAX_INCLUDED_BYTES >> 20} MB")
            got.append((path.name, data))
        read[name] = tuple(got)
    return read


def language_folders(root: Path) -> dict[str, Path]:
    """include/'s folders by name (a language code or `default`)."""
    folder = root / INCLUDE
    if not folder.is_dir():
        return {}
    return {p.name: p for p in sorted(folder.iterdir()) if p.is_dir() and in_listing(p)}


def unknown_codes(root: Path) -> list[str]:
    """include/'s folders that name no language gridjudge runs (their files reach no
    submission)."""
    return [name for name in language_folders(root) if name != DEFAULT and not _titles(name)]


def read_includes(package: Package) -> dict[str, Files]:
    """language title -> the files its submissions get (EVERY_LANGUAGE: the default
    files, for a language without its own folder)."""
    folders = language_folders(package.root)
    read = _read({name: _paths(path) for name, path in folders.items()}, package.root / INCLUDE)
    default = read.pop(DEFAULT, ())
    out: dict[str, Files] = {EVERY_LANGUAGE: default} if default else {}
    for code, files in read.items():
        own = {name for name, _ in files}
        for title in _titles(code):
            out[title] = tuple(sorted([f for f in default if f[0] not in own] + list(files)))
    return out
