"""Natural order of ids (submission ids, case ids): digit runs compare as numbers, so
s2 sorts before s10."""

from __future__ import annotations

import re
from collections.abc import Iterable

_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key: text runs compare case-folded, digit runs by value."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.casefold())
        for part in _DIGITS.split(text)
        if part
    )


def natural_sorted(ids: list[str]) -> list[str]:
    return sorted(ids, key=lambda s: (natural_key(s), s))


def natural_ranks(ids: Iterable[str]) -> dict[str, int]:
    """Each distinct id's position in natural order (sort many rows by one lookup each)."""
    return {s: i for i, s in enumerate(natural_sorted(list(set(ids))))}
