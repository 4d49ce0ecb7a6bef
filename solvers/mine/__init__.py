"""mine — Mine (HDU 4678): a Sprague-Grundy game on a Minesweeper board."""

from __future__ import annotations

from pipeline.limits import Limits
from pipeline.problem.checkers import token_check
from pipeline.problem.contract import Problem
from solvers.mine.check import validate
from solvers.mine.generate import FAMILIES, generate
from solvers.mine.io import MAX_CASES, format_output, join, parse, split, split_input
from solvers.mine.search import search_accepts, solve_search
from solvers.mine.shrink import candidates as shrink
from solvers.mine.solve import plain_accepts, solve_plain, solve_sg

PROBLEM = Problem(
    name="mine",
    title="Mine (HDU 4678)",
    limits=Limits.from_seconds(2.0, memory_mb=256),
    parse=parse,
    validate=validate,
    solvers={"1": solve_plain, "2": solve_sg, "search": solve_search},
    default_solver="2",
    format=format_output,
    generate=generate,
    families=FAMILIES,
    check=token_check,
    multi_case=MAX_CASES,
    join=join,
    split=split,
    split_input=split_input,
    accepts={"1": plain_accepts, "search": search_accepts},
    shrink=shrink,
)
