"""A run over several problems is scored per problem: every submission's score is over
its own problem's groups only (the demo's reference solvers at 100 / 100)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.generate import generate_corpus
from pipeline.problem.registry import get_problem
from pipeline.scoring.gradebook import GRADEBOOK_PARQUET, load_for_scoring
from pipeline.scoring.policy import default_policy
from pipeline.scoring.run_folder import run_policy


@pytest.fixture(scope="module")
def two_problems(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A graded run of the spot and clocks reference solvers (families `random` in
    both: a family name alone does not say the problem)."""
    root = tmp_path_factory.mktemp("two")
    generate_corpus(get_problem("spot"), 10, 3, root / "spot")
    generate_corpus(get_problem("clocks"), 10, 3, root / "clocks", families=["random", "all12"])
    args = ["grade", str(root / "spot"), str(root / "clocks"), "-s", "solver:spot"]
    args += ["-s", "solver:clocks", "--out", str(root / "run"), "--address", "local-serial"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return root / "run"


def test_each_reference_solver_scores_full_marks_on_its_own_problem(two_problems: Path) -> None:
    book = pq.read_table(two_problems / GRADEBOOK_PARQUET).to_pylist()
    got = {(r["submission"], r["problem"]): (r["score"], r["max_score"]) for r in book}
    assert got == {
        ("solver:spot", "spot"): (100.0, 100.0),
        ("solver:clocks", "clocks"): (100.0, 100.0),
    }
    clocks = next(r for r in book if r["problem"] == "clocks")
    assert clocks["points_clocks/random"] == 50.0 and clocks["cases_clocks/random"] > 0
    # no group of the other problem in its row
    assert all(clocks[k] is None for k in clocks if k.startswith("points_spot/"))


def test_the_report_has_one_gradebook_per_problem(two_problems: Path) -> None:
    page = (two_problems / "report.html").read_text(encoding="utf-8")
    assert "<h3>clocks</h3>" in page and "<h3>spot</h3>" in page
    assert page.count("scored out of 100 in") == 2


def test_the_kept_policy_names_each_groups_problem(two_problems: Path) -> None:
    policy = run_policy(two_problems, load_for_scoring(two_problems))
    by_name = {g.name: g for g in policy.groups}
    assert by_name["clocks/random"].problem == "clocks"
    assert (
        by_name["spot/random_small"].problem == "spot" if "spot/random_small" in by_name else True
    )
    assert sum(g.points for g in policy.groups if g.problem == "clocks") == pytest.approx(100.0)


def test_a_one_problem_run_keeps_one_group_per_family() -> None:
    policy = default_policy(["a", "b"])
    assert [g.name for g in policy.groups] == ["a", "b"] and policy.groups[0].problem is None
