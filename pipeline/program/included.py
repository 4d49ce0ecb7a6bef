"""A problem's included code (a package's `include/`): files laid beside each
submission's sources before its build, replacing a source of the same name, as the
package format says. A driver among them (a file the language starts by its name:
Python's `__main__.py`, a `main.*`) is where the program starts; otherwise the
submission starts where it would alone, so that a helper module named before it does
not become the program."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from pipeline.program.build import Source
from pipeline.program.languages import Language

# language title ("C++", "Python 3") -> its files; EVERY_LANGUAGE: a language without its own
Included = Mapping[str, tuple[Source, ...]]
EVERY_LANGUAGE = "*"


def included_for(included: Included, lang: Language) -> tuple[Source, ...]:
    """The files `lang`'s submissions get: those of its language, or those for every
    language, of the kinds its compiler takes (a C header is no Python source)."""
    files = included.get(lang.title, included.get(EVERY_LANGUAGE, ()))
    return tuple(f for f in files if lang.takes(f[0]))


def is_driver(lang: Language, name: str) -> bool:
    return name in lang.entry_names or PurePosixPath(name).stem.lower() == "main"


def with_included(
    lang: Language, sources: Sequence[Source], files: Sequence[Source], entry: str | None
) -> tuple[list[Source], str | None]:
    """The sources to build and where they start (the entry point given, else the
    included driver, else the submission's own main source), or `sources` and `entry`
    as they are when nothing is included."""
    if not files:
        return list(sources), entry
    replaced = {name for name, _ in files}
    merged = sorted([s for s in sources if s[0] not in replaced] + list(files))
    if entry is None:
        drivers = sorted(n for n in lang.compiled([n for n, _ in files]) if is_driver(lang, n))
        own = [s for s in sources if s[0] not in replaced]
        if drivers:
            entry = drivers[0]
        elif own and len(merged) > 1:
            texts = [text.decode("utf-8", "replace") for _, text in own]
            entry = lang.main_source([name for name, _ in own], texts)
    return merged, entry
