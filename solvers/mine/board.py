"""Vectorised board analysis shared by the reference solver, the validator and the
generators: neighbour counts, 8-connected blank regions, and which regions each number
cell borders. No Python loop over cells."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_KING = np.ones((3, 3), dtype=bool)
NO_REGION = np.iinfo(np.uint32).max  # "no blank neighbour" in Analysis.low


def neighbour_counts(mines: np.ndarray) -> np.ndarray:
    """Mines among the 8 neighbours (plus the cell itself, which only matters on mines)."""
    p = np.pad(mines.view(np.uint8), 1)
    rows = p[:-2] + p[1:-1] + p[2:]
    return rows[:, :-2] + rows[:, 1:-1] + rows[:, 2:]


def _box(a: np.ndarray, fill: int, op: np.ufunc) -> np.ndarray:
    """op over each cell's 3x3 box (outside the board counts as `fill`)."""
    p = np.pad(a, 1, constant_values=fill)
    rows = op(op(p[:-2], p[1:-1]), p[2:])
    return op(op(rows[:, :-2], rows[:, 1:-1]), rows[:, 2:])


@dataclass(frozen=True)
class Analysis:
    numbers: np.ndarray  # bool: safe cells with a mine among their neighbours
    labels: np.ndarray  # int32: blank region id (1..regions) or 0
    regions: int
    low: np.ndarray  # uint32 per cell: smallest (region id - 1) among the 8 neighbours
    #                  and the cell itself, or NO_REGION
    high: np.ndarray | None  # int32 per cell: largest region id among them, or 0


def analyse(mines: np.ndarray, both_ends: bool = False) -> Analysis:
    """Labels and neighbouring region ids. `both_ends` also computes the largest id, which
    the guarantee check needs (a number cell with low + 1 != high borders two regions)."""
    from scipy import ndimage  # here: `gridjudge problems` loads every plugin, not scipy

    counts = neighbour_counts(mines)
    numbers = ~mines & (counts > 0)
    blank = counts == 0  # a mine counts itself, so this is safe & no mined neighbour
    labels = np.empty(mines.shape, dtype=np.int32)
    regions = int(ndimage.label(blank, structure=_KING, output=labels))
    # region ids shifted to 0.., and 0 (no region) wrapped to the largest uint32
    low = _box((labels - 1).view(np.uint32), NO_REGION, np.minimum)
    high = _box(labels, 0, np.maximum) if both_ends else None
    return Analysis(numbers, labels, regions, low, high)


def shared_number_cells(mines: np.ndarray) -> np.ndarray:
    """Bool mask of number cells that border two or more different blank regions (the
    cells that break the problem's guarantee)."""
    a = analyse(mines, both_ends=True)
    assert a.high is not None
    return a.numbers & (a.low != NO_REGION) & (a.low.view(np.int32) + 1 != a.high)
