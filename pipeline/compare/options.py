"""What a comparison may be asked: its options, the timing metrics and the gate choices.

The rest of the package (cases, families, pair, runs, render) and the front ends (the
`compare` command, run configs) take these from here, so each default and each choice
list is written once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeVar, get_args

from pipeline.errors import GridjudgeError

Metric = Literal["cpu", "wall"]
METRICS: tuple[Metric, ...] = get_args(Metric)

# The gate: which comparisons fail (`--fail-on`, a run config's `compare.fail_on`).
FailOn = Literal["regression", "any-change", "never"]
FAIL_ON_CHOICES: tuple[FailOn, ...] = get_args(FailOn)
DEFAULT_FAIL_ON: FailOn = "regression"

COMPARE_FILE = "compare.parquet"
COMPARE_SUMMARY_FILE = "compare_summary.parquet"
COMPARE_JSON = "compare.json"
OUTPUT_FILES = (COMPARE_FILE, COMPARE_SUMMARY_FILE, COMPARE_JSON)  # what --out holds
MAX_ROWS = 50  # rows shown per case list on the terminal


Choice = TypeVar("Choice", bound=str)


class CompareError(GridjudgeError):
    """Two runs cannot be compared as asked; one line for the user."""


def one_of(value: str, choices: tuple[Choice, ...], name: str) -> Choice:
    """`value` as one of `choices`; anything else is a one-line CompareError naming `name`."""
    for choice in choices:
        if value == choice:
            return choice
    raise CompareError(f"{name} must be one of {', '.join(choices)} (got {value!r})")


@dataclass(frozen=True)
class CompareOptions:
    """How cases are compared (rules: pipeline/compare/pair.py)."""

    metric: Metric = "cpu"
    alpha: float = 0.05  # significance level
    factor: float = 1.1  # effect size: a change counts only beyond this ratio
    # ... and beyond this many ms in the medians: a forked run of a tiny case measures
    # ~0.1 ms, and one binary against another differs by tens of microseconds there; a
    # solver timed in-process runs at a speed of its worker process's own (docs/compare.md)
    min_change_ms: float = 0.2
    min_repeats: int = 5  # timings needed on both sides for a per-case test
    resamples: int = 2000  # bootstrap resamples of a family's median ratio
    confidence: float = 0.95  # of that interval
    seed: int = 0  # bootstrap seed
    # CPU (or wall) limit per case in ms: one for every problem, or per problem name.
    time_limit_ms: float | dict[str, float] | None = None
    close_fraction: float = 0.8  # a time at least this share of the limit is "close"
    # Timings of rows taken from the result cache (measured by an earlier run) count too.
    include_cached: bool = False

    def __post_init__(self) -> None:
        one_of(self.metric, METRICS, "metric")
        if self.factor <= 1.0:
            raise CompareError(f"factor must be > 1 (got {self.factor})")
        if not 0.0 < self.alpha < 1.0:
            raise CompareError(f"alpha must be in (0, 1) (got {self.alpha})")
        if self.min_repeats < 2:
            raise CompareError(f"min_repeats must be >= 2 (got {self.min_repeats})")
