"""Per-language time multipliers: off by default (every language gets the problem's CPU
limit, as at Kattis); a problem or a run may scale some languages' limits (as DOMjudge
does). Measured ratios to C++ to choose them from: bench/languages.py, docs/languages.md."""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.program.languages.registry import LanguageError, get_language


def parse_multipliers(text: str) -> dict[str, float]:
    """`"java=2, py3=3"` -> {"java": 2.0, "py3": 3.0}; names or aliases; each factor >= 1."""
    found: dict[str, float] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, value = item.partition("=")
        try:
            factor = float(value)
        except ValueError:
            factor = 0.0
        if not sep:
            raise LanguageError(f"time multiplier {item!r}: expected LANGUAGE=FACTOR, FACTOR >= 1")
        found[name.strip()] = factor
    return checked_multipliers(found)


def checked_multipliers(given: Mapping[str, float]) -> dict[str, float]:
    """`given` with each language by its name (an alias is resolved); each factor >= 1."""
    found: dict[str, float] = {}
    for name, factor in given.items():
        if not factor >= 1.0:
            raise LanguageError(f"time multiplier {name}={factor}: expected a FACTOR >= 1")
        found[get_language(name).name] = float(factor)
    return found


def multiplier(multipliers: Mapping[str, float] | None, language: str | None) -> float:
    """The factor for `language` (1 when none is configured)."""
    if not multipliers or language is None:
        return 1.0
    return float(multipliers.get(get_language(language).name, 1.0))
