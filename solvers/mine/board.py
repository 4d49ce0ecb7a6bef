"""Vectorised board analysis shared by the reference solver, the validator and the
generators: neighbour counts, 8-connected blank regions, and which regions each number
cell borders. No Python loop over cells."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

_KING = np.ones((3, 3), dtype=bool)
NO_REGION = np.iinfo(np.int32).max


def neighbour_counts(mines: np.ndarray) -> np.ndarray:
    """Mines among the 8 neighbours (plus the cell itself, which only matters on mines)."""
    p = np.pad(mines.astype(np.uint8), 1)
    rows = p[:-2] + p[1:-1] + p[2:]
    return rows[:, :-2] + rows[:, 1:-1] + rows[:, 2:]


@dataclass(frozen=True)
class Analysis:
    numbers: np.ndarray  # bool: safe cells with a mine among their neighbours
    labels: np.ndarray  # int32: blank region id (1..regions) or 0
    regions: int
    low: np.ndarray  # int32 per cell: smallest region id among the 8 neighbours, or NO_REGION
    high: np.ndarray | None  # int32 per cell: largest region id among neighbours, or 0


def analyse(mines: np.ndarray, both_ends: bool = False) -> Analysis:
    """Labels and neighbouring region ids. `both_ends` also computes the largest id, which
    the guarantee check needs (a number cell with low != high borders two regions)."""
    counts = neighbour_counts(mines)
    safe = ~mines
    numbers = safe & (counts > 0)
    blank = safe & (counts == 0)
    labels, regions = ndimage.label(blank, structure=_KING)
    labels = labels.astype(np.int32, copy=False)
    keyed = np.where(labels == 0, NO_REGION, labels).astype(np.int32)
    low = ndimage.minimum_filter(keyed, size=3, mode="constant", cval=NO_REGION)
    high = None
    if both_ends:
        high = ndimage.maximum_filter(labels, size=3, mode="constant", cval=0)
    return Analysis(numbers, labels, int(regions), low, high)


def shared_number_cells(mines: np.ndarray) -> np.ndarray:
    """Bool mask of number cells that border two or more different blank regions (the
    cells that break the problem's guarantee)."""
    a = analyse(mines, both_ends=True)
    assert a.high is not None
    return a.numbers & (a.low != NO_REGION) & (a.low != a.high)
