"""A tiny problem for unit tests of the submission/sandbox/grading parts: the input is
numbers, the answer their sum."""

from __future__ import annotations

import random

from pipeline.limits import Limits
from pipeline.problem.checkers import token_check
from pipeline.problem.contract import IOMode, Problem


def _parse(text: str) -> list[int]:
    return [int(t) for t in text.split()]


def _solve(numbers: list[int]) -> int:
    if not numbers:
        raise ValueError("nothing to add")
    return sum(numbers)


def _solve_slow(numbers: list[int]) -> int:
    total = 0
    for n in numbers:
        total += n
    return total


def _generate(rng: random.Random, family: str, **params: object) -> str:
    return " ".join(str(rng.randint(0, 9)) for _ in range(5)) + "\n"


def make_problem(name: str = "sum", io: IOMode | None = None) -> Problem:
    return Problem(
        name=name,
        title="Sum",
        limits=Limits.from_seconds(1.0, memory_mb=256),
        parse=_parse,
        validate=lambda text: [] if text.split() else ["empty input"],
        solvers={"1": _solve, "2": _solve_slow},
        default_solver="1",
        format=lambda out: f"{out}\n",
        generate=_generate,
        families=["random"],
        check=token_check,
        io=io or IOMode(),
    )
