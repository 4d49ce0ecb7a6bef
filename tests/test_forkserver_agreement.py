"""The fork server gives the same verdicts as spawning: the seed programs and every
example under datasets/examples, on a fixed sample of each problem's golden corpus,
graded through the engine once with each runner (and the fork server really served)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.grade.engine import grade_cases
from pipeline.grade.rows import RowContext
from pipeline.grade.settings import GradeSettings
from pipeline.problem.registry import get_problem
from pipeline.program.submission import parse_spec, prepare
from tests.fork_server_probe import require_fork_server
from tests.test_seed_programs import SEEDS, _cases, _sample

EXAMPLES = Path(__file__).resolve().parents[1] / "datasets" / "examples"
PROBLEMS = ["clocks", "gomoku", "mine", "spot", "tetris"]
SEED_SPEC = {"spot": "cpp98:{}"}  # it defines `hash` and `next`: C++98 only


@pytest.mark.parametrize("name", PROBLEMS)
def test_both_runners_give_the_same_verdicts(name: str) -> None:
    require_fork_server()
    seed = SEEDS / f"{name}.cpp"
    if not seed.is_file():
        pytest.skip(f"seed programs not found at {SEEDS} (../shared is absent)")
    problem = get_problem(name)
    specs = [SEED_SPEC.get(name, "{}").format(seed)]
    specs += [str(p) for p in sorted((EXAMPLES / name).iterdir())]
    subs = [prepare(parse_spec(spec), problem) for spec in specs]
    assert all(s.compile_error is None for s in subs), [s.compile_error for s in subs]
    cases = _cases(name, _sample(name, 2))
    tables = {
        mode: grade_cases(
            problem,
            subs,
            cases,
            problem.limits,
            RowContext("agreement", name, 1, "test"),
            settings=GradeSettings(fork_server=mode),
        ).table
        for mode in (False, True)
    }
    runners = set(tables[True].column("runner").to_pylist())
    assert runners == {"fork-server"}, runners
    assert set(tables[False].column("runner").to_pylist()) == {"spawn"}
    spawned, served = (tables[m].column("verdict").to_pylist() for m in (False, True))
    differ = [
        (row["submission"], row["case_id"], a, b)
        for row, a, b in zip(tables[False].to_pylist(), spawned, served, strict=True)
        if a != b
    ]
    assert differ == []
