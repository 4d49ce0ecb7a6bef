"""`gridjudge demo` on a real local Ray, shrunk to two problems and a few cases."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.jobs.demo import (
    DEMO_CASES_PER_FAMILY,
    DemoError,
    demo_counts,
    example_submissions,
    run_demo,
)
from pipeline.problem.registry import all_problems


@pytest.mark.ray
def test_demo_grades_solvers_and_examples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ray_cluster: object
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "demo-out"
    steps: list[str] = []
    result = run_demo(
        out, problems=("spot", "clocks"), counts={"spot": 24, "clocks": 8}, on_step=steps.append
    )
    overall = {r["submission"]: r for r in result.summary.to_pylist() if r["family"] is None}
    spot_wrong = next(s for s in overall if s.endswith("wa_counts_empty_board.cpp"))
    clocks_ok = next(s for s in overall if s.endswith("clocks/correct.cpp"))
    assert set(overall) == {"solver:spot", "solver:clocks", spot_wrong, clocks_ok}
    assert overall["solver:spot"]["n_AC"] == 24 and overall["solver:clocks"]["n_AC"] == 8
    assert overall[clocks_ok]["n_AC"] == 8
    # 2 cases of the empty_return family: the wrong program counts the empty board
    assert overall[spot_wrong]["n_WA"] >= 1
    assert overall[spot_wrong]["first_failing_case"].startswith("empty_return/")
    for name in ("summary.parquet", "report.html", "demo.json"):
        assert (out / name).is_file()
    for p in ("spot", "clocks"):
        assert (out / "runs" / p / "report.html").is_file()
    page = (out / "report.html").read_text(encoding="utf-8")
    assert spot_wrong in page and clocks_ok in page
    # one gradebook per problem, each scored out of 100 over its own problem's groups
    assert "<h3>spot</h3>" in page and "<h3>clocks</h3>" in page
    assert page.count("scored out of 100 in") == 2
    # each reference solver scores the full 100 in its problem's gradebook
    for p in ("spot", "clocks"):
        score = re.findall(
            rf'<td data-v="solver:{p}"><a href="#sub-\d+">solver:{p}</a></td>'
            r'<td class="num" data-v="([\d.]+)">',
            page,
        )
        assert score == ["100.000000"], (p, score)
    assert any(s.startswith("graded spot") for s in steps)
    # an earlier demo is replaced; any other non-empty folder is refused
    again = run_demo(out, problems=("clocks",), counts={"clocks": 8})
    assert {r["problem"] for r in again.summary.to_pylist()} == {"clocks"}
    assert not (out / "runs" / "spot").exists()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("x")
    with pytest.raises(DemoError, match="not empty"):
        run_demo(tmp_path / "other", problems=("clocks",), counts={"clocks": 8})


def test_examples_are_bundled_for_every_problem() -> None:
    found = {p: example_submissions(p) for p in ("spot", "tetris", "gomoku", "clocks", "mine")}
    assert all(found.values()), found
    assert all(Path(spec).is_file() for specs in found.values() for spec in specs)


def test_outside_a_source_checkout_the_demo_says_so_before_it_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pipeline.jobs.demo.bundled_examples", lambda: None)
    with pytest.raises(DemoError, match="bundled examples not found"):
        run_demo(tmp_path / "out", problems=("clocks",), counts={"clocks": 8})
    assert not (tmp_path / "out").exists()


def test_demo_counts_cover_every_installed_problem_by_default() -> None:
    installed = all_problems()
    assert demo_counts(None) == {
        name: DEMO_CASES_PER_FAMILY * len(p.families) for name, p in installed.items()
    }
    assert demo_counts(["clocks", "spot"], 7) == {"clocks": 7, "spot": 7}
    spot_default = DEMO_CASES_PER_FAMILY * len(installed["spot"].families)
    assert demo_counts(["clocks", "spot"], {"clocks": 3}) == {"clocks": 3, "spot": spot_default}
    with pytest.raises(DemoError, match="not installed: nosuch"):
        demo_counts(["spot", "nosuch"])
