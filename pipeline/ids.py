"""Natural order of ids (submission ids, case ids): digit runs compare as numbers, so
s2 sorts before s10. Plain names for what a user named (a scoring group for a family:
its name is part of the gradebook's column names)."""

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


_NOT_PLAIN = re.compile(r"[^A-Za-z0-9_./-]")


def _plain(name: str) -> str:
    plain = _NOT_PLAIN.sub("_", name)
    return plain if plain[:1].isalnum() or plain.startswith("_") else "_" + plain


def plain_names(names: Iterable[str], reserved: Iterable[str] = ()) -> dict[str, str]:
    """Each name as a distinct plain name (letters, digits, _ . - /, starting with a
    letter, digit or _; any other character as _, then a suffix _2, _3, ... where two
    would meet), none of `reserved`. A name already plain keeps itself where it can."""
    names = list(dict.fromkeys(names))
    taken = set(reserved)
    out = {n: n for n in names if _plain(n) == n and n not in taken}
    taken |= set(out)
    for name in names:
        if name in out:
            continue
        plain = chosen = _plain(name)
        number = 2
        while chosen in taken:
            chosen, number = f"{plain}_{number}", number + 1
        out[name] = chosen
        taken.add(chosen)
    return out
