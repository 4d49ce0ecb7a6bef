"""spotlive — The Spot Game (UVa 141) played move by move: an interactive problem.

The rules and cases are spot's (one game per case); the submission does not read the
game at once but plays it against the judge program (`judge.py`), which gives one move at
a time and wants, after each, `continue` or the game's result. The reference answer is
spot's; the judge holds the submission to it move by move.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.limits import Limits
from pipeline.problem.contract import Problem
from solvers.spot.check import check
from solvers.spot.generate import FAMILIES, generate
from solvers.spot.io import format_output, parse
from solvers.spot.shrink import candidates as shrink
from solvers.spot.solve import SOLVERS
from solvers.spotlive.rules import validate

JUDGE = Path(__file__).resolve().parent / "judge.py"

PROBLEM = Problem(
    name="spotlive",
    title="The Spot Game, move by move (UVa 141, interactive)",
    limits=Limits.from_seconds(1.0, memory_mb=256),
    parse=parse,
    validate=validate,
    solvers=SOLVERS,
    default_solver="2",
    format=format_output,
    generate=generate,
    families=FAMILIES,
    check=check,
    rule_variants=frozenset({"seed-reading"}),
    shrink=shrink,
    judge_program=JUDGE,
)
