"""spotlive, the built-in interactive problem: Spot played move by move against its judge
program (solvers/spotlive/judge.py) through the seam's interact.

- a seed of each verdict gets it on every case, spawned and forked from the fork server
  alike (the two agree case by case);
- the seed program's reading (the empty board counted) is wrong exactly where spot's
  "seed-reading" solver disagrees with the reference, recomputed here;
- the hostile battery, each program a submission of spotlive: none gets AC or breaks the
  judge program (JE), and nothing of the judge's answer reaches the transcript; a program
  written to reach the judge program (its files, memory, environment, a signal to every
  process it can see) gets the judge's own WA for a wrong answer.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.grade.runners.program import ProgramRunner
from pipeline.limits import Limits
from pipeline.problem.contract import CaseOutcome, self_test
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare
from solvers.spot.solve import SOLVERS
from solvers.spotlive import PROBLEM
from tests.fork_server_probe import require_fork_server

ROOT = Path(__file__).resolve().parent
SEEDS = ROOT / "submissions" / "spotlive"
HOSTILE = ROOT / "submissions" / "hostile"
EXAMPLES = ROOT.parent / "datasets" / "examples" / "spotlive"
# the wall limit bounds a deadlock (a program that never answers) on a loaded machine
LIMITS = Limits.from_seconds(1.0, memory_mb=256, wall_ms=4000)


def cases(per_family: int = 1, seed: int = 7) -> list[tuple[str, str]]:
    """(input, reference answer), `per_family` games of every family."""
    rng = random.Random(seed)
    out = []
    for family in PROBLEM.families:
        for _ in range(per_family):
            text = PROBLEM.generate(rng, family)
            out.append((text, PROBLEM.solve(text)))
    return out


def built(path: Path) -> PreparedSubmission:
    sub = prepare(parse_spec(str(path)), PROBLEM)
    if sub.compile_error is not None or sub.unavailable is not None:
        pytest.skip(f"{path.name}: {sub.compile_error or sub.unavailable}")
    return sub


@pytest.fixture(params=[False, True], ids=["spawn", "fork-server"])
def fork(request: pytest.FixtureRequest) -> Iterator[bool]:
    if request.param:
        require_fork_server()
    yield bool(request.param)


def play(path: Path, games: list[tuple[str, str]], fork: bool) -> list[CaseOutcome]:
    runner = ProgramRunner(PROBLEM, built(path), LIMITS, fork_server=fork)
    try:
        return [runner.run(text, answer) for text, answer in games]
    finally:
        runner.close()


def test_self_test_and_one_game_per_case() -> None:
    assert self_test(PROBLEM, seed=3, per_family=2) == []
    text = PROBLEM.generate(random.Random(1), "n2")
    two = text.removesuffix("0\n") + text
    assert PROBLEM.validate(two) == ["one game per case, found 2"]


VERDICTS = {
    "ac_player.py": "AC",
    "wa_never_decides.py": "WA",
    "tle_never_answers.py": "TLE",
    "tle_spins.cpp": "TLE",
    "re_crashes_on_move_2.py": "RE",
}


def test_each_seed_gets_its_verdict_spawned_and_forked_alike() -> None:
    require_fork_server()
    games = cases()
    for name, verdict in VERDICTS.items():
        some = games[:1] if verdict == "TLE" else games  # each TLE waits out its limit
        spawned, forked = (play(SEEDS / name, some, fork) for fork in (False, True))
        got = [[r.check.verdict for r in runs] for runs in (spawned, forked)]
        assert got[0] == got[1], name  # spawn and fork server agree, case by case
        assert set(got[0]) == {verdict}, (name, got[0])
        assert all(r.transcript for r in spawned + forked), name
    said = play(SEEDS / "wa_never_decides.py", games[:1], True)[0]
    assert "expected" in said.check.message and "got 'continue'" in said.check.message


def test_the_seed_reading_is_wrong_exactly_where_it_disagrees(fork: bool) -> None:
    games = cases(per_family=2, seed=11)
    runs = play(EXAMPLES / "wa_counts_empty_board.py", games, fork)
    seed_reading = SOLVERS["seed-reading"]
    for (text, answer), run in zip(games, runs, strict=True):
        theirs = PROBLEM.format(seed_reading(PROBLEM.parse(text)))
        assert run.check.verdict == ("AC" if theirs == answer else "WA"), text
    assert {r.check.verdict for r in runs} == {"AC", "WA"}  # the families show both
    correct = play(EXAMPLES / "correct.cpp", games, fork)
    assert {r.check.verdict for r in correct} == {"AC"}


BATTERY = sorted(p for p in HOSTILE.iterdir() if p.suffix in (".c", ".cpp", ".py") or p.is_dir())


@pytest.mark.parametrize("path", BATTERY, ids=[p.name for p in BATTERY])
def test_hostile_battery_as_a_submission(path: Path, fork: bool) -> None:
    text, answer = cases()[0]
    run = play(path, [(text, answer)], fork)[0]
    assert run.check.verdict not in ("AC", "JE"), run.check
    assert answer.strip() not in (run.transcript or "")


def test_a_program_after_the_judge_gets_the_judges_wrong_answer(fork: bool) -> None:
    text, answer = cases()[0]
    run = play(SEEDS / "hostile_reach_judge.py", [(text, answer)], fork)[0]
    assert run.check.verdict == "WA", run.check  # the judge ran on and judged it
    assert "got 'found nothing'" in run.check.message, run.check.message
    assert answer.strip() not in (run.transcript or "")


def test_stress_finds_and_shrinks_the_seed_readings_loss(tmp_path: Path) -> None:
    wrong = EXAMPLES / "wa_counts_empty_board.py"
    args = ["stress", "spotlive", "--submission", str(wrong), "--max-cases", "200"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "found")])
    assert result.exit_code == 1, result.output
    assert "WA: move 2: expected 'continue', got 'Player 1 wins on move 2'" in result.output
    shrunk = (tmp_path / "found" / "shrunk.in").read_text()
    assert PROBLEM.validate(shrunk) == [] and len(shrunk.split("\n")) <= 7  # N, 4 moves, 0


def test_inspect_runs_a_case_again_with_its_whole_transcript(tmp_path: Path) -> None:
    # spotlive plays against its judge program (no `interact` of its own): the case is
    # run again against it, as grade ran it
    runner = CliRunner()
    corpus, run = tmp_path / "corpus", tmp_path / "run"
    made = runner.invoke(app, ["generate", "spotlive", "--count", "2", "--out", str(corpus),
                               "--address", "local-serial"])  # fmt: skip
    assert made.exit_code == 0, made.output
    sub = str(EXAMPLES / "correct.cpp")
    graded = runner.invoke(app, ["grade", str(corpus), "-s", sub, "--out", str(run),
                                 "--address", "local-serial"])  # fmt: skip
    assert graded.exit_code == 0, graded.output
    case = str(pq.read_table(corpus, columns=["case_id"]).column(0)[0])
    again = runner.invoke(app, ["inspect", str(run), "--case", case, "-s", sub, "--transcript"])
    assert again.exit_code == 0, again.output
    assert ", run again: AC" in again.output and "\n" in again.output, again.output
