"""Clocks checks: validator from the scanner; outputs compared token by token."""

from __future__ import annotations

from pipeline.problem.checkers import token_check
from solvers.clocks.io import validate

check = token_check

__all__ = ["check", "validate"]
