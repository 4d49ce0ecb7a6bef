"""A survivor searched by `stress`: random cases of the problem's generator until one
kills it, shrunk; the cases found written as a regression corpus, so the next corpus
(the minimal one plus these) kills what this one let through.

Only a built-in problem has a generator; a survivor no search kills within its budget
may be an equivalent mutant (it computes the same function) or a hole the generator
never makes: the table says which survivors were searched and for how long.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from pipeline.corpus.store import CorpusWriter
from pipeline.problem.contract import Problem
from pipeline.program.submission import prepare
from pipeline.strength.population import Program
from pipeline.stress.search import Failure, stress

REGRESSION_FAMILY = "strength"


@dataclass(frozen=True)
class Search:
    program: str
    cases: int  # cases the search ran
    elapsed_s: float
    failure: Failure | None


def search_survivors(
    problem: Problem,
    survivors: list[Program],
    seed: int,
    budget_s: float,
    on_search: Callable[[Search], None] = lambda _: None,
) -> list[Search]:
    """Each survivor stressed against the problem's reference solver for `budget_s`
    seconds (the generator's cases from `seed`); a problem without a generator has
    nothing to search with."""
    out = []
    for program in survivors:
        prepared = prepare(program.spec, problem)
        result = stress(problem, prepared, seed=seed, time_budget_s=budget_s, max_cases=10**9)
        found = Search(program.label, result.cases, result.elapsed_s, result.failure)
        on_search(found)
        out.append(found)
    return out


def search_table(searches: list[Search]) -> pa.Table:
    """survivors.parquet: one row per survivor searched; the shrunk case when found."""
    return pa.table(
        {
            "program": [s.program for s in searches],
            "cases_searched": pa.array([s.cases for s in searches], pa.int64()),
            "seconds": [round(s.elapsed_s, 3) for s in searches],
            "verdict": [str(s.failure.verdict) if s.failure else None for s in searches],
            "family": [s.failure.family if s.failure else None for s in searches],
            "input": [s.failure.shrunk if s.failure else None for s in searches],
            "expected": [s.failure.expected if s.failure else None for s in searches],
        }
    )


def write_regression(problem: Problem, searches: list[Search], out: Path) -> int:
    """The shrunk killing cases as a corpus (family `strength`, one case per survivor
    killed, named after it); how many were written."""
    found = [s for s in searches if s.failure is not None]
    with CorpusWriter(out, problem.name, source="gridjudge strength") as writer:
        for s in found:
            assert s.failure is not None
            writer.add(f"{REGRESSION_FAMILY}/{s.program}", REGRESSION_FAMILY, s.failure.shrunk,
                       s.failure.expected)  # fmt: skip
    return len(found)
