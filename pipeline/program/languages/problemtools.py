"""The language versions that run a package's submissions as problemtools runs them
(its languages.yaml): C++ as gnu++23, C as gnu17. `verify` grades a package's author
submissions with these where the toolchain is here, so that a submission that uses
C++23 is no CE; where one is missing, gridjudge's default for the extension. Python is
chosen per package by `verify` (pipeline.verify.prepare.python_for): PyPy 3 where installed,
as here, unless the package says otherwise (gridjudge's exports: CPython, since PyPy 3 is
often an older Python, Debian 12's 3.9, on which `X | None` in an annotation evaluated at
run time is a TypeError). docs/languages.md lists every difference."""

from __future__ import annotations

from pipeline.program.languages.registry import get_language, missing

AS_PROBLEMTOOLS = {
    ".c": "c17",
    ".cpp": "cpp23",
    ".cc": "cpp23",
    ".cxx": "cpp23",
}


def problemtools_language(extension: str) -> str | None:
    """The language version problemtools' configuration corresponds to for a source
    with this extension, when its toolchain is installed here; else None."""
    name = AS_PROBLEMTOOLS.get(extension)
    if name is None or missing(get_language(name)) is not None:
        return None
    return name
