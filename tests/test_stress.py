"""`stress` end to end: a rule variant of the spot solver, a deliberately wrong C program
(against the reference solver and against another program), correct submissions, the
CLI (exit codes, printed counterexample, --out files)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.grade.verdict import judge
from pipeline.problem.registry import get_problem
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare
from pipeline.schemas import Verdict
from pipeline.stress.search import StressError, stress
from solvers.clocks.shrink import measure as clocks_measure
from solvers.spot.io import parse as spot_parse
from tests._fake_problem import make_problem

HERE = Path(__file__).resolve().parent
WRONG_CLOCKS = HERE / "submissions" / "stress" / "wa_clocks_descending.c"
AC_CLOCKS = HERE / "submissions" / "clocks" / "ac_search_file_io.c"
AC_GOMOKU = HERE / "submissions" / "gomoku" / "ac_scan_lines.c"
runner = CliRunner()


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("build-cache")


def _prepared(spec: str, problem: str, cache: Path) -> PreparedSubmission:
    return prepare(parse_spec(spec), get_problem(problem), cache)


def _returns_to_empty(n: int, moves: tuple[tuple[int, int, bool], ...]) -> bool:
    board: set[tuple[int, int]] = set()
    for r, c, add in moves:
        (board.add if add else board.discard)((r, c))
        if not board:
            return True
    return False


def test_seed_reading_spot_is_caught_and_shrunk_to_a_tiny_game(cache: Path) -> None:
    spot = get_problem("spot")
    sub = _prepared("solver:spot@seed-reading", "spot", cache)
    result = stress(spot, sub, seed=3, max_cases=300, time_budget_s=60)
    failure = result.failure
    assert failure is not None and result.stopped_by == "failure"
    assert failure.verdict == Verdict.WA
    assert result.verdicts["WA"] == 1 and result.cases == result.verdicts.total()
    (game,) = spot_parse(failure.shrunk)
    (original,) = spot_parse(failure.original)
    assert game.n <= 3 and game.n <= original.n
    assert spot.validate(failure.shrunk) == []
    # still a counterexample: the two readings of the rules differ on it ...
    assert spot.solve(failure.shrunk) != spot.solve(failure.shrunk, "seed-reading")
    assert failure.expected == spot.solve(failure.shrunk)
    assert failure.actual == spot.solve(failure.shrunk, "seed-reading")
    # ... because the board returns to empty (what the seed's reading counts as a repeat)
    assert _returns_to_empty(game.n, game.moves)
    assert failure.shrink_steps >= 1


def test_wrong_c_clocks_is_caught_and_shrunk_to_a_local_minimum(cache: Path) -> None:
    clocks = get_problem("clocks")
    sub = _prepared(str(WRONG_CLOCKS), "clocks", cache)
    result = stress(clocks, sub, seed=1, max_cases=200, time_budget_s=60)
    failure = result.failure
    assert failure is not None and failure.verdict == Verdict.WA
    assert clocks_measure(failure.shrunk) <= clocks_measure(failure.original)
    # the program prints the moves in descending order: wrong only with >= 2 distinct moves
    assert len(set(failure.expected.split())) >= 2
    assert failure.actual.split() == sorted(failure.expected.split(), key=int, reverse=True)
    # a local minimum: the program is right on every smaller candidate
    limits = clocks.limits
    assert clocks.shrink is not None
    smaller = list(clocks.shrink(failure.shrunk))
    assert smaller
    for candidate in smaller:
        run = sub.run(candidate, limits)
        verdict = judge(clocks, candidate, clocks.solve(candidate), run, limits).verdict
        assert verdict == Verdict.AC, candidate


def test_two_programs_compared_find_the_wrong_one(cache: Path) -> None:
    clocks = get_problem("clocks")
    sub = _prepared(str(WRONG_CLOCKS), "clocks", cache)
    other = _prepared(str(AC_CLOCKS), "clocks", cache)
    result = stress(clocks, sub, against=other, seed=5, max_cases=100, time_budget_s=60)
    assert result.reference == other.label
    failure = result.failure
    assert failure is not None and failure.verdict == Verdict.WA
    assert failure.expected == clocks.solve(failure.shrunk)  # the other program is right
    assert clocks_measure(failure.shrunk) <= clocks_measure(failure.original)


def test_a_correct_program_reports_no_failure(cache: Path) -> None:
    gomoku = get_problem("gomoku")
    sub = _prepared(str(AC_GOMOKU), "gomoku", cache)
    result = stress(gomoku, sub, seed=0, max_cases=25, time_budget_s=60)
    assert result.failure is None and result.stopped_by == "max_cases"
    assert result.cases == 25 and result.verdicts == {"AC": 25}


def test_cases_are_reproducible_from_the_seed(cache: Path) -> None:
    spot = get_problem("spot")
    sub = _prepared("solver:spot@seed-reading", "spot", cache)
    first = stress(spot, sub, seed=11, max_cases=300, time_budget_s=60)
    again = stress(spot, sub, seed=11, max_cases=300, time_budget_s=60)
    assert first.failure is not None and again.failure is not None
    assert (first.failure.index, first.failure.original, first.failure.shrunk) == (
        again.failure.index,
        again.failure.original,
        again.failure.shrunk,
    )
    family = first.failure.family
    regenerated = spot.generate(random.Random(f"11:{first.failure.index}"), family)
    assert regenerated == first.failure.original


def test_setup_errors_are_one_line(cache: Path) -> None:
    spot = get_problem("spot")
    sub = _prepared("solver:spot@1", "spot", cache)
    with pytest.raises(StressError, match="no family 'nope'"):
        stress(spot, sub, families=["nope"])
    with pytest.raises(StressError, match="no solver '9'"):
        stress(spot, sub, solver="9")


def test_cli_prints_and_writes_the_shrunk_counterexample(tmp_path: Path) -> None:
    out = tmp_path / "found"
    args = ["stress", "spot", "--submission", "solver:spot@seed-reading", "--seed", "3"]
    result = runner.invoke(app, [*args, "--family", "empty_return", "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert "FAILED case" in result.output and "--- verdict: WA" in result.output
    spot = get_problem("spot")
    shrunk = (out / "shrunk.in").read_text()
    assert spot.validate(shrunk) == [] and shrunk in result.output
    assert (out / "shrunk.ans").read_text() == spot.solve(shrunk)
    assert (out / "shrunk.out").read_text() == spot.solve(shrunk, "seed-reading")
    original = (out / "original.in").read_text()
    assert (out / "original.ans").read_text() == spot.solve(original)


def test_cli_in_file_out_and_compare_mode(tmp_path: Path) -> None:
    target = tmp_path / "case.in"
    args = ["stress", "clocks", "--submission", str(WRONG_CLOCKS), "--against", str(AC_CLOCKS)]
    result = runner.invoke(app, [*args, "--max-cases", "50", "--out", str(target)])
    assert result.exit_code == 1, result.output
    clocks = get_problem("clocks")
    shrunk = target.read_text()
    assert target.with_suffix(".ans").read_text() == clocks.solve(shrunk)
    assert target.with_suffix(".out").read_text() != clocks.solve(shrunk)


def test_cli_exit_codes_for_no_failure_and_user_errors() -> None:
    ok = runner.invoke(
        app,
        ["stress", "clocks", "--submission", "solver:clocks@1", "--max-cases", "20"],
    )
    assert ok.exit_code == 0, ok.output
    assert "no failure: 20 cases (20 AC)" in ok.output
    both = runner.invoke(
        app,
        ["stress", "clocks", "--submission", "solver:clocks@1", "--against", "x", "--solver", "2"],
    )
    assert both.exit_code == 2 and "not both" in both.output
    family = runner.invoke(
        app, ["stress", "clocks", "--submission", "solver:clocks@1", "--family", "nope"]
    )
    assert family.exit_code == 2 and "no family 'nope'" in family.output
    missing = runner.invoke(app, ["stress", "clocks", "--submission", "/no/such/file.c"])
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_a_rotation_repeat_survives_shrinking(cache: Path) -> None:
    """A C++ program that ignores rotations: the board cuts keep quarter turns, so the
    counterexample shrinks to a tiny board that still needs a rotation."""
    spot = get_problem("spot")
    sub = _prepared(str(HERE / "submissions" / "spot" / "wa_no_rotations.cpp"), "spot", cache)
    result = stress(spot, sub, seed=0, families=["rot90", "rot270"], max_cases=50)
    failure = result.failure
    assert failure is not None and failure.verdict == Verdict.WA
    (game,) = spot_parse(failure.shrunk)
    assert game.n <= 3
    boards: list[frozenset[tuple[int, int]]] = []
    board: set[tuple[int, int]] = set()
    for r, c, add in game.moves:
        (board.add if add else board.discard)((r, c))
        boards.append(frozenset(board))
    decided = int(failure.expected.split()[-1])  # "Player K wins on move M"
    assert boards[decided - 1] not in boards[: decided - 1]  # not an identical repeat


def test_time_budget_stops_generation(cache: Path) -> None:
    sub = _prepared("solver:clocks@1", "clocks", cache)
    result = stress(get_problem("clocks"), sub, max_cases=10**6, time_budget_s=0.0)
    assert result.failure is None and result.stopped_by == "time_budget"
    assert result.cases == 0


def test_a_mine_board_shrinks_to_a_few_cells(cache: Path) -> None:
    """Row/column blocks cut with the guarantee repaired: a random board shrinks to a tiny
    one on which the program (it ignores number cells bordering no blank) is still wrong."""
    mine = get_problem("mine")
    wrong = HERE / "submissions" / "mine" / "wa_ignores_lone_numbers.cpp"
    sub = _prepared(str(wrong), "mine", cache)
    result = stress(mine, sub, seed=0, families=["random"], max_cases=50)
    failure = result.failure
    assert failure is not None and failure.verdict == Verdict.WA
    (case,) = mine.parse(failure.shrunk)
    (original,) = mine.parse(failure.original)
    assert case.n * case.m <= 4 < original.n * original.m
    assert mine.validate(failure.shrunk) == []
    assert failure.expected == mine.solve(failure.shrunk)


# ---- the fake "sum" problem: a program wrong on any 7, shrinkers given or broken ----

WRONG_SUM = "cmd:awk '{s=0; for(i=1;i<=NF;i++){s+=$i; if($i==7) s++}; print s}'"


def _drop_one(text: str) -> Iterator[str]:
    nums = text.split()
    for i in range(len(nums)):
        yield " ".join(nums[:i] + nums[i + 1 :]) + "\n"


def _broken(text: str) -> Iterator[str]:
    yield from _drop_one(text)
    raise RuntimeError("shrinker bug")


@pytest.mark.parametrize(
    ("shrinker", "expect_error"), [(None, False), (_drop_one, False), (_broken, True)]
)
def test_a_problem_shrinker_given_absent_or_broken(
    cache: Path, shrinker: Callable[[str], Iterator[str]] | None, expect_error: bool
) -> None:
    problem = dataclasses.replace(make_problem(), shrink=shrinker)
    sub = prepare(parse_spec(WRONG_SUM), problem, cache)
    result = stress(problem, sub, seed=2, max_cases=200, time_budget_s=60)
    failure = result.failure
    assert failure is not None and failure.verdict == Verdict.WA
    assert "7" in failure.original.split()
    if shrinker is None:
        assert failure.shrunk == failure.original and failure.shrink_tries == 0
    else:
        assert failure.shrunk == "7\n"  # the single number the program gets wrong
        assert (failure.expected, failure.actual) == ("7\n", "8\n")
    assert (failure.shrink_error is not None) == expect_error


def test_a_reference_version_for_small_inputs_skips_the_others(cache: Path) -> None:
    mine = get_problem("mine")
    sub = _prepared("solver:mine@2", "mine", cache)
    result = stress(mine, sub, solver="search", families=["tiny", "random"], max_cases=6)
    assert result.failure is None
    assert result.reference_failed == 3 and result.verdicts == {"AC": 3}  # "random": too big
