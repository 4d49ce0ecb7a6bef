"""spot — The Spot Game (UVa 141)."""

from __future__ import annotations

from pipeline.limits import Limits
from pipeline.problem.contract import Problem
from solvers.spot.check import check, validate
from solvers.spot.generate import FAMILIES, generate
from solvers.spot.io import format_output, join, parse, split, split_input
from solvers.spot.shrink import candidates as shrink
from solvers.spot.solve import SOLVERS

PROBLEM = Problem(
    name="spot",
    title="The Spot Game (UVa 141)",
    limits=Limits.from_seconds(1.0, memory_mb=256),
    parse=parse,
    validate=validate,
    solvers=SOLVERS,
    default_solver="2",
    format=format_output,
    generate=generate,
    families=FAMILIES,
    check=check,
    multi_case=100_000,
    join=join,
    split=split,
    split_input=split_input,
    rule_variants=frozenset({"seed-reading"}),
    shrink=shrink,
)
