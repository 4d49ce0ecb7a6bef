"""clocks — The Clocks (IOI'94, USACO 1.4): reads clocks.in, writes clocks.out."""

from __future__ import annotations

from pipeline.limits import Limits
from pipeline.problem.contract import IOMode, Problem
from solvers.clocks.check import check, validate
from solvers.clocks.generate import FAMILIES, generate
from solvers.clocks.io import format_output, parse
from solvers.clocks.shrink import candidates as shrink
from solvers.clocks.solve import SOLVERS

PROBLEM = Problem(
    name="clocks",
    title="The Clocks (IOI'94, USACO 1.4)",
    limits=Limits.from_seconds(1.0, memory_mb=256),
    parse=parse,
    validate=validate,
    solvers=SOLVERS,
    default_solver="2",
    format=format_output,
    generate=generate,
    families=FAMILIES,
    check=check,
    io=IOMode(input_file="clocks.in", output_file="clocks.out"),
    multi_case=1,
    shrink=shrink,
)
