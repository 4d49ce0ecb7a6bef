"""gomoku — 勝利的五子棋 (ZeroJudge f790): count dead fours, live fours, live threes."""

from __future__ import annotations

from pipeline.limits import Limits
from pipeline.problem.contract import Problem
from solvers.gomoku.check import check, validate
from solvers.gomoku.generate import FAMILIES, generate
from solvers.gomoku.io import format_output, parse
from solvers.gomoku.shrink import candidates as shrink
from solvers.gomoku.solve import SOLVERS

PROBLEM = Problem(
    name="gomoku",
    title="勝利的五子棋 (ZeroJudge f790)",
    limits=Limits.from_seconds(1.0, memory_mb=256),
    parse=parse,
    validate=validate,
    solvers=SOLVERS,
    default_solver="2",
    format=format_output,
    generate=generate,
    families=FAMILIES,
    check=check,
    multi_case=1,
    shrink=shrink,
)
