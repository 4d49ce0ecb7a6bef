"""The shrinker: a greedy loop over a predicate, hypothesis-style."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

DEFAULT_MAX_STEPS = 200
DEFAULT_MAX_TRIES = 5000


@dataclass(frozen=True)
class ShrinkOutcome:
    text: str
    steps: int  # accepted reductions
    tries: int  # predicate calls (valid candidates not seen before)


def shrink_trace(
    input_text: str,
    still_fails: Callable[[str], bool],
    candidates: Callable[[str], Iterable[str]],
    validate: Callable[[str], list[str]] | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    max_tries: int = DEFAULT_MAX_TRIES,
    deadline: float | None = None,
) -> ShrinkOutcome:
    """Greedy shrinking: take the first candidate (of the current text) that is valid and
    still fails, repeat until none does, or `max_steps` reductions, `max_tries` predicate
    calls or the `deadline` (time.monotonic()) are reached. No text is tried twice.
    `validate` returns the broken rules (empty list = valid), like Problem.validate."""
    current, steps, tries = input_text, 0, 0
    seen = {input_text}
    while steps < max_steps:
        for candidate in candidates(current):
            if tries >= max_tries or (deadline is not None and time.monotonic() > deadline):
                return ShrinkOutcome(current, steps, tries)
            if candidate in seen:
                continue
            seen.add(candidate)
            if validate is not None and validate(candidate):
                continue
            tries += 1
            if still_fails(candidate):
                current, steps = candidate, steps + 1
                break
        else:
            break
    return ShrinkOutcome(current, steps, tries)


def shrink(
    input_text: str,
    still_fails: Callable[[str], bool],
    candidates: Callable[[str], Iterable[str]],
    validate: Callable[[str], list[str]] | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> str:
    """The smallest failing input the greedy loop reaches (see `shrink_trace`)."""
    return shrink_trace(input_text, still_fails, candidates, validate, max_steps).text
