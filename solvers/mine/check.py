"""mine input validator: structure, ranges, distinct mines, and the guarantee that no
number cell borders two different blank regions (vectorised: fine on 1000 x 1000)."""

from __future__ import annotations

import numpy as np

from pipeline.problem.contract import InvalidInput
from solvers.mine.board import shared_number_cells
from solvers.mine.io import MineCase, range_errors, read_cases


def duplicate_error(case: MineCase) -> str | None:
    flat = case.xs * case.m + case.ys
    order = np.argsort(flat, kind="stable")
    same = flat[order][1:] == flat[order][:-1]
    if not same.any():
        return None
    # report the duplicate whose second listing comes first in the input
    second = order[1:][same]
    i = int(second.min())
    return f"mine ({case.xs[i]},{case.ys[i]}) listed twice (again as mine {i + 1})"


def guarantee_error(case: MineCase) -> str | None:
    bad = shared_number_cells(case.grid())
    if not bad.any():
        return None
    r, c = np.unravel_index(int(np.argmax(bad)), bad.shape)
    more = int(bad.sum()) - 1
    tail = f" (and {more} more such cells)" if more else ""
    return f"number cell ({r},{c}) borders two blank regions{tail}"


def validate(text: str) -> list[str]:
    try:
        cases = read_cases(text)
    except InvalidInput as exc:
        return [str(exc)]
    errors = range_errors(cases)
    if errors:
        return errors
    for c, case in enumerate(cases, 1):
        for message in (duplicate_error(case), guarantee_error(case)):
            if message:
                errors.append(f"case {c}: {message}")
    return errors
