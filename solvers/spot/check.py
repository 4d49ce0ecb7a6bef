"""Spot checks: the validator is the scanner's list of violated rules; outputs are
compared token by token (the shared checker)."""

from __future__ import annotations

from pipeline.problem.checkers import token_check
from solvers.spot.io import validate

check = token_check

__all__ = ["check", "validate"]
