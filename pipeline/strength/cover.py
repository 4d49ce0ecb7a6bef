"""The smallest set of cases that kills every killed program: an exact set cover solved as
a 0/1 program by HiGHS (scipy.optimize.milp), by count of cases or by their CPU.

Pure: a boolean kill matrix (programs x cases) and a cost per case in, case positions
out. The matrix is first reduced without changing the optimum (programs that no case
kills are left out, identical programs merged, cases that kill nothing dropped, of
identical cases only the cheapest and then the first kept), so the solver sees only the
distinct choices.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csc_matrix

from pipeline.errors import GridjudgeError

# the smallest cost a case gets in a CPU-weighted cover: a case measured at 0 ms would
# otherwise be free, and free cases may be taken without need
MIN_CASE_COST = 1e-3


class CoverError(GridjudgeError):
    """The solver found no optimal cover (it ran out of time); one line."""


@dataclass(frozen=True)
class Cover:
    cases: list[int]  # positions of the chosen cases, ascending
    cost: float  # their total cost (count, or CPU ms for a weighted cover)
    optimal: bool  # False: the time limit ended the search; the best cover found
    gap: float = 0.0  # then how far above the proven lower bound it may be (relative)


def _distinct_columns(kills: np.ndarray, cost: np.ndarray) -> list[int]:
    """Of the cases with the same kill set (that kill something), the cheapest, then the
    first: an optimal cover never needs two alike."""
    kept: dict[bytes, int] = {}
    for j in range(kills.shape[1]):
        column = kills[:, j]
        if not column.any():
            continue
        key = np.packbits(column).tobytes()
        best = kept.get(key)
        if best is None or cost[j] < cost[best]:
            kept[key] = j
    return sorted(kept.values())


def _objective(cost: np.ndarray, by_cpu: bool) -> np.ndarray:
    """The solver's cost per case. By count: 1 each plus the case's share of the CPU of
    all cases, less than 1 over any set, so among the smallest sets the cheapest wins;
    by CPU: the cost (at least MIN_CASE_COST) plus a count share below the smallest
    cost step, so among the cheapest sets the smallest wins."""
    if by_cpu:
        weights = np.maximum(cost, MIN_CASE_COST)
        return weights + MIN_CASE_COST / (len(cost) + 1)
    total = float(cost.sum())
    share = cost / (total * 2) if total > 0 else np.zeros_like(cost)
    return 1.0 + share


def minimal_cover(
    kills: np.ndarray,
    cost: np.ndarray | None = None,
    *,
    by_cpu: bool = False,
    time_limit_s: float | None = None,
) -> Cover:
    """The smallest (or, with `by_cpu`, the cheapest) set of cases such that every
    program some case kills is killed by one of them. `kills[i, j]`: case j kills
    program i; `cost[j]`: case j's CPU ms (ties between sets of one size go to the
    cheaper). Deterministic: the same matrix gives the same cover."""
    kills = np.asarray(kills, dtype=bool)
    n_cases = kills.shape[1] if kills.ndim == 2 else 0
    cost = np.zeros(n_cases) if cost is None else np.asarray(cost, dtype=float)
    if cost.shape != (n_cases,):
        raise ValueError(f"cost has shape {cost.shape}, the matrix {n_cases} cases")
    killed = np.unique(kills[kills.any(axis=1)], axis=0) if n_cases else kills[:0]
    if killed.shape[0] == 0:
        return Cover([], 0.0, True)
    columns = _distinct_columns(killed, cost)
    sub = killed[:, columns]
    c = _objective(cost[columns], by_cpu)
    options: dict[str, float] = {"mip_rel_gap": 0.0}
    if time_limit_s is not None:
        options["time_limit"] = time_limit_s
    result = milp(
        c,
        constraints=LinearConstraint(csc_matrix(sub.astype(np.int8)), lb=1, ub=np.inf),
        integrality=np.ones(len(columns)),
        bounds=Bounds(0, 1),
        options=options,
    )
    if result.x is None:
        raise CoverError(f"the set cover found no solution: {result.message}")
    chosen = sorted(columns[k] for k in np.flatnonzero(result.x > 0.5))
    total = float(cost[chosen].sum()) if by_cpu else float(len(chosen))
    gap = float(getattr(result, "mip_gap", 0.0) or 0.0)
    return Cover(chosen, total, result.status == 0, 0.0 if result.status == 0 else gap)
