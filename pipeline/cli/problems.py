"""`gridjudge problems`: the installed problems in a table."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from pipeline.cli.common import user_errors
from pipeline.problem.registry import all_problems


@user_errors
def problems() -> None:
    """List the installed problems: limits, I/O mode, solver versions, generator families."""
    table = Table(title="gridjudge problems")
    for column in ("name", "title", "limits", "I/O", "cases/file", "solvers", "families"):
        table.add_column(column, overflow="fold")
    for name, p in all_problems().items():
        versions = ", ".join(f"{v}*" if v == p.default_solver else v for v in p.solvers)
        table.add_row(
            name,
            p.title,
            f"{p.limits.time_s:g} s, {p.limits.memory_mb} MB",
            p.io.describe(),
            str(p.multi_case),
            versions,
            ", ".join(p.families),
        )
    Console(width=160).print(table)
