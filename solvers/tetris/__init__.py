"""tetris — A New Tetris Game (HDU 1760): placing 2x2 squares, normal play."""

from __future__ import annotations

from pipeline.limits import Limits
from pipeline.problem.checkers import token_check
from pipeline.problem.contract import Problem
from solvers.tetris.generate import FAMILIES, generate
from solvers.tetris.io import MAX_CASES, format_output, join, parse, split, split_input, validate
from solvers.tetris.shrink import candidates as shrink
from solvers.tetris.solve import solve_grundy, solve_plain

PROBLEM = Problem(
    name="tetris",
    title="A New Tetris Game (HDU 1760)",
    limits=Limits.from_seconds(1.0, memory_mb=256),
    parse=parse,
    validate=validate,
    solvers={"1": solve_plain, "2": solve_grundy},
    default_solver="2",
    format=format_output,
    generate=generate,
    families=FAMILIES,
    check=token_check,
    multi_case=MAX_CASES,
    join=join,
    split=split,
    split_input=split_input,
    shrink=shrink,
)
