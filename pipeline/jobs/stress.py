"""`gridjudge stress` as one call: prepare the programs, search for a failing case
(pipeline.stress.search), and write what was found to files."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from pipeline.errors import GridjudgeError
from pipeline.private import private_dir, write_private
from pipeline.problem.registry import get_problem
from pipeline.program.submission import parse_spec, prepare
from pipeline.stress.search import Failure, StressError, StressResult, stress


def stress_programs(
    problem: str,
    submission: str,
    *,
    against: str | None,
    solver: str | None,
    seed: int,
    families: Sequence[str],
    max_cases: int,
    time_budget_s: float,
    progress: Callable[[StressResult], None] | None = None,
) -> StressResult:
    """Stress the submission spec `submission` against a solver version of `problem`, or
    against the submission spec `against`; nothing is compiled for a request that cannot
    run."""
    p = get_problem(problem)
    if against is not None and solver is not None:
        raise StressError("give --against or --solver, not both")
    prepared = prepare(parse_spec(submission), p)
    other = prepare(parse_spec(against), p) if against is not None else None
    return stress(
        p,
        prepared,
        seed=seed,
        families=families,
        max_cases=max_cases,
        time_budget_s=time_budget_s,
        solver=solver,
        against=other,
        progress=progress,
    )


def write_failure(out: Path, failure: Failure) -> list[Path]:
    """`X.in` -> X.in, X.ans, X.out (the submission's output) beside it; anything else is
    a folder that gets shrunk.{in,ans,out} and original.{in,ans}."""
    if out.suffix == ".in":
        files = {out: failure.shrunk, out.with_suffix(".ans"): failure.expected}
        files[out.with_suffix(".out")] = failure.actual
    else:
        files = {
            out / "shrunk.in": failure.shrunk,
            out / "shrunk.ans": failure.expected,
            out / "shrunk.out": failure.actual,
            out / "original.in": failure.original,
            out / "original.ans": failure.original_expected,
        }
    try:
        for path, text in files.items():
            write_private(private_dir(path.parent) / path.name, text)
    except OSError as exc:
        raise GridjudgeError(f"cannot write {out}: {exc}") from None
    return list(files)
