"""`gridjudge problems`: the installed problems in a table."""

from __future__ import annotations

from pipeline.cli.common import user_errors
from pipeline.problem.registry import all_problems
from pipeline.report.fit import Column, fitted_table
from pipeline.report.terminal import wide_console

COLUMNS = (
    Column("name"),
    Column("title", drop=1, wraps=True),
    Column("limits", wraps=True),
    Column("I/O", drop=0, wraps=True),
    Column("cases/file", drop=2),
    Column("solvers", wraps=True),
    Column("families", wraps=True),
)


@user_errors
def problems() -> None:
    """List the installed problems: limits, I/O mode, solver versions, generator families."""
    rows = []
    for name, p in all_problems().items():
        versions = ", ".join(f"{v}*" if v == p.default_solver else v for v in p.solvers)
        rows.append(
            [
                name,
                p.title,
                f"{p.limits.time_s:g} s, {p.limits.memory_mb} MB",
                p.io.describe(),
                str(p.multi_case),
                versions,
                ", ".join(p.families),
            ]
        )
    console = wide_console()
    console.print(fitted_table(COLUMNS, rows, console.width, title="gridjudge problems"))
