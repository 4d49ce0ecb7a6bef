"""`gridjudge doctor`: what isolation a submission gets on this machine, the toolchains,
and how trustworthy timings are here; each gap with the command that closes it."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from pipeline.cli.common import user_errors
from pipeline.program.doctor import diagnose

STATUS_STYLE = {"ok": "green", "gap": "yellow", "info": "dim"}


@user_errors
def doctor(
    as_json: bool = typer.Option(False, "--json", help="Print the findings as JSON."),
) -> None:
    """Check this machine: root or not, user namespaces, cgroups (v1, v2, a delegated
    subtree), bubblewrap, the isolation a submission gets, toolchains per language and
    timing hygiene (frequency governor, busy SMT siblings, load)."""
    found = diagnose()
    if as_json:
        typer.echo(json.dumps(found.as_dict(), indent=2))
        return
    table = Table(title=f"gridjudge doctor: a submission gets {found.isolation} isolation")
    for column in ("area", "check", "status", "detail", "fix"):
        table.add_column(column, overflow="fold")
    for row in found.rows:
        status = f"[{STATUS_STYLE[row.status]}]{row.status}[/]"
        table.add_row(row.area, row.check, status, row.detail, row.fix)
    Console(width=160).print(table)
