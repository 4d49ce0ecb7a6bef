"""spotlive's input rules: spot's, and exactly one game per case (the judge plays one)."""

from __future__ import annotations

from solvers.spot.io import scan
from solvers.spot.io import validate as spot_validate


def validate(text: str) -> list[str]:
    errors = spot_validate(text)
    if errors:
        return errors
    games = len(scan(text).games)
    return [] if games == 1 else [f"one game per case, found {games}"]


__all__ = ["validate"]
