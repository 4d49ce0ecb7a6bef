"""Tables that fit the terminal: columns are given in order with a drop rank, and the
least needed ones are left out (and named in the caption) until the rest fit the width.
Text columns wrap; their width counts as at most WRAP_WIDTH when deciding."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text

WRAP_WIDTH = 16  # a wrapping column's share of the width when deciding what fits
CELL_OVERHEAD = 3  # a column's border and padding in rich's default box
DROP_HINT = "left out to fit {width} columns: {names} (a wider terminal or COLUMNS shows them)"


@dataclass(frozen=True)
class Column:
    header: str
    drop: int | None = None  # dropped first: the lowest number; None: never dropped
    wraps: bool = False  # long text (paths, lists): wraps at spaces, long words folded
    justify: str = "left"
    style: str = ""


def fitted_table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    width: int | None,
    *,
    title: str = "",
    sections: Sequence[bool] = (),
) -> Table:
    """A rich table of `rows` (rich markup cells, one per column) without the columns that
    do not fit `width` (None: every column). `sections`: rows that end a section."""
    kept = list(range(len(columns)))
    if width is not None:
        natural = [
            _natural_width(column, [row[i] for row in rows]) for i, column in enumerate(columns)
        ]
        droppable = sorted(
            (i for i, c in enumerate(columns) if c.drop is not None),
            key=lambda i: columns[i].drop or 0,
        )
        while droppable and _needed(kept, natural) > width:
            kept.remove(droppable.pop(0))
    table = Table(title=title or None)
    for i in kept:
        column = columns[i]
        table.add_column(
            column.header,
            justify=column.justify,  # type: ignore[arg-type]
            style=column.style,
            overflow="fold",
            no_wrap=not column.wraps,
        )
    for number, row in enumerate(rows):
        end = number < len(sections) and sections[number]
        table.add_row(*(row[i] for i in kept), end_section=end)
    left_out = [columns[i].header for i in range(len(columns)) if i not in kept]
    if left_out:
        table.caption = DROP_HINT.format(width=width, names=", ".join(left_out))
    return table


def _natural_width(column: Column, cells: list[str]) -> int:
    widest = max([len(column.header), *(Text.from_markup(c).cell_len for c in cells)])
    return min(widest, WRAP_WIDTH) if column.wraps else widest


def _needed(kept: list[int], natural: list[int]) -> int:
    return sum(natural[i] + CELL_OVERHEAD for i in kept) + 1
