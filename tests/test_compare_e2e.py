"""`compare` end to end: generated spot corpora graded by `gridjudge grade` on the shared
local Ray cluster, then compared through the CLI, as a user would."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.store import read_table
from pipeline.results.store import load_results
from pipeline.schemas import COMPARE_SCHEMA

pytestmark = [pytest.mark.ray, pytest.mark.slow]

runner = CliRunner()
V1, V2, SEED = "solver:spot@1", "solver:spot@2", "solver:spot@seed-reading"


def _ok(*args: object, code: int = 0) -> Any:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result


def _generate(out: Path, count: int, seed: int, *families: str) -> Path:
    flags = [x for f in families for x in ("--family", f)]
    _ok("generate", "spot", "--out", out, "--count", count, "--seed", seed, *flags)
    return out


def _grade(
    corpus: Path, out: Path, *submissions: str, repeat: int = 1, extra: tuple[object, ...] = ()
) -> Path:
    subs = [x for s in submissions for x in ("-s", s)]
    _ok("grade", corpus, *subs, "--out", out, "--repeat", repeat, *extra)
    return out


# --- replaying a spot game (the statement's rules, written out plainly) ------------------


def _turn(board: frozenset[tuple[int, int]], n: int) -> frozenset[tuple[int, int]]:
    return frozenset((c, n - 1 - r) for r, c in board)


def _replay(n: int, moves: list[tuple[int, int]]) -> tuple[int | None, int | None]:
    """(first move after which the board is empty again, first move whose board is a
    rotation of a board produced by an earlier move): the seed program's reading stops
    at the first, the statement at the second."""
    seen: set[frozenset[tuple[int, int]]] = set()
    board: set[tuple[int, int]] = set()
    empty_again = real = None
    for number, cell in enumerate(moves, start=1):
        board ^= {cell}
        now = frozenset(board)
        if not now and empty_again is None:
            empty_again = number
        turned = now
        for _ in range(4):
            if real is None and turned in seen:
                real = number
            turned = _turn(turned, n)
        seen.add(now)
    return empty_again, real


def _moves(problem_input: Any) -> tuple[int, list[tuple[int, int]]]:
    (game,) = problem_input
    return game.n, [(r, c) for r, c, _ in game.moves]


def test_seed_reading_flips_are_listed_and_replayed(ray_cluster: Any, tmp_path: Path) -> None:
    from pipeline.problem.registry import get_problem

    spot = get_problem("spot")
    corpus = _generate(tmp_path / "corpus", 144, 7)
    run = _grade(corpus, tmp_path / "run", V2, SEED)
    junit = tmp_path / "junit.xml"
    shown = _ok(
        "compare", run, "--submission-a", V2, "--submission-b", SEED,
        "--out", tmp_path / "cmp", "--junit", junit, "--max-rows", 1000, code=1,
    )  # fmt: skip
    cases = pq.read_table(tmp_path / "cmp" / "compare.parquet")
    assert cases.schema.equals(COMPARE_SCHEMA, check_metadata=False)
    assert cases.num_rows == 144
    rows = cases.to_pylist()
    flipped = {r["case_id"]: r["flip"] for r in rows if r["flip"] is not None}
    assert flipped and set(flipped.values()) == {"AC->WA"}

    # Replay every case: the flipped ones are exactly those whose board returns to empty
    # before any real repeat, and the seed reading stopped right there.
    outputs = {
        r["case_id"]: r["output_head"]
        for r in load_results(run).to_pylist()
        if r["submission"] == SEED
    }
    caused = {}
    for case in read_table(corpus).to_pylist():
        empty_again, real = _replay(*_moves(spot.parse(case["input"])))
        if empty_again is not None and (real is None or empty_again < real):
            caused[case["case_id"]] = empty_again
    assert set(caused) == set(flipped)
    for case_id, move in caused.items():
        player = 2 if move % 2 else 1
        assert outputs[case_id].strip() == f"Player {player} wins on move {move}"
        assert case_id in shown.output  # listed on the terminal too

    failed = {
        tc.get("name")
        for tc in ET.parse(junit).getroot().iter("testcase")
        if (f := tc.find("failure")) is not None and f.get("type") == "verdict-flip"
    }
    assert failed == set(flipped)
    verdict = json.loads((tmp_path / "cmp" / "compare.json").read_text())["verdict"]
    assert verdict["verdict"] == "regression" and verdict["regressions"] == len(flipped)


def test_spot_v2_is_significantly_faster_than_v1_on_n50(ray_cluster: Any, tmp_path: Path) -> None:
    corpus = _generate(tmp_path / "corpus", 50, 11, "n50")
    run = _grade(corpus, tmp_path / "run", V1, V2, repeat=5)
    refs = load_results(run, columns=["reference_ms"]).column(0).to_pylist()
    assert len(refs) == 100 and all(r is not None and r > 0 for r in refs)  # timed alongside
    shown = _ok("compare", run, "--submission-a", V1, "--submission-b", V2, "--out", tmp_path / "c")
    summary = pq.read_table(tmp_path / "c" / "compare_summary.parquet").to_pylist()
    overall = next(r for r in summary if r["family"] is None)
    assert overall["cases"] == 50 and overall["flips"] == "" and overall["regressions"] == 0
    assert overall["test"] == "van-elteren" and overall["q_value"] < 0.05
    assert overall["timing_change"] == "faster"
    assert overall["ci_low"] <= overall["median_ratio"] <= overall["ci_high"] < 1 / 1.1
    interval = f"[{overall['ci_low']:.3f}, {overall['ci_high']:.3f}]"
    assert interval in shown.output
    assert "verdict: improvement" in shown.output
    cases = pq.read_table(tmp_path / "c" / "compare.parquet").to_pylist()
    assert all(r["flip"] is None and not r["output_changed"] for r in cases)


def test_a_a_two_runs_of_one_submission_agree_on_everything_but_timing(
    ray_cluster: Any, tmp_path: Path
) -> None:
    """The same submission graded in two independent runs, compared through the CLI: the
    same verdicts and outputs case by case, no flip, a complete table. Not the timing
    decision: two separate runs of an in-process solver differ by their worker process's
    own speed, which no reference workload sees (docs/compare.md), so whether it says
    "same" is the machine's of the day; the statistics' false-alarm rate is tested on
    seeded timings (tests/test_cli_compare.py, test_compare.py)."""
    corpus = _generate(tmp_path / "corpus", 48, 5, "n50")
    a = _grade(corpus, tmp_path / "a", V2, repeat=7)
    b = _grade(corpus, tmp_path / "b", V2, repeat=7)
    out = tmp_path / "c"
    result = runner.invoke(
        app, ["compare", str(a), str(b), "--fail-on", "any-change", "--out", str(out)]
    )
    assert result.exit_code in (0, 1), result.output  # 1 only for a timing change
    verdict = json.loads((out / "compare.json").read_text())["verdict"]
    assert verdict["regressions"] == verdict["fixes"] == verdict["output_changed"] == 0
    cases = pq.read_table(out / "compare.parquet")
    assert cases.schema.equals(COMPARE_SCHEMA, check_metadata=False) and cases.num_rows == 48
    rows = cases.to_pylist()
    assert {(r["verdict_a"], r["verdict_b"]) for r in rows} == {("AC", "AC")}
    assert all(r["flip"] is None and not r["output_changed"] for r in rows)
    assert all(r["time_ratio"] is not None for r in rows)  # every case timed on both sides
    summary = pq.read_table(out / "compare_summary.parquet").to_pylist()
    assert [(r["family"], r["cases"], r["flips"]) for r in summary] == [
        ("n50", 48, ""),
        (None, 48, ""),
    ]
    assert all(r["machine_ratio"] is not None for r in summary)  # the reference, both sides


SPOT_C = r"""
#include <stdio.h>
#include <string.h>
#include <time.h>

static unsigned char seen[101][50][50], board[50][50];

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* is `cur` the earlier board `e` turned k quarter turns? */
static int turned(int n, unsigned char cur[50][50], unsigned char e[50][50], int k) {
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int v = k == 0 ? e[r][c] : k == 1 ? e[n - 1 - c][r]
                  : k == 2 ? e[n - 1 - r][n - 1 - c] : e[c][n - 1 - r];
            if (cur[r][c] != v) return 0;
        }
    return 1;
}

int main(void) {
    int n, big = 0;
    while (scanf("%d", &n) == 1 && n) {
        int count = 0, answer = 0;
        big |= n >= 30;
        memset(board, 0, sizeof board);
        for (int move = 1; move <= 2 * n; move++) {
            int r, c;
            char op;
            if (scanf("%d %d %c", &r, &c, &op) != 3) return 1;
            if (answer) continue;
            board[r - 1][c - 1] = op == '+';
            for (int i = 0; i < count && !answer; i++)
                for (int k = 0; k < 4 && !answer; k++)
                    if (turned(n, board, seen[i], k)) answer = move;
            memcpy(seen[count++], board, sizeof board);
        }
        if (answer) printf("Player %d wins on move %d\n", answer % 2 ? 2 : 1, answer);
        else printf("Draw\n");
    }
    /* work on large boards: BASE_MS more for both programs, and the slow one then runs
       until it has used SLOW times the CPU the plain one ends at */
    double target = big ? (cpu_ms() + BASE_MS) * SLOW : 0;
    while (cpu_ms() < target) {}
    return 0;
}
"""
BASE_MS = 30.0  # well above a large board's own work (~8-15 ms, itself bimodal here)


def _spot_c(slow: float) -> str:
    return f"#define BASE_MS {BASE_MS}\n#define SLOW {slow}\n" + SPOT_C


def test_a_submission_30_percent_slower_on_some_cases(ray_cluster: Any, tmp_path: Path) -> None:
    """Two C submissions, identical but that the slow one uses 30 % more CPU of its own
    on large boards (the grader also counts a little start-up that neither can see).
    Compiled programs, so that start-up noise stays small beside the effect; graded in one
    run (interleaved)."""
    base, slow = tmp_path / "spot_base.c", tmp_path / "spot_slow30.c"
    base.write_text(_spot_c(1.0))
    slow.write_text(_spot_c(1.3))
    spec_a, spec_b = str(base), str(slow)
    # 10 cases a family: one case's timing upset by the machine cannot move a family
    corpus = _generate(tmp_path / "corpus", 20, 3, "n2", "n50")
    run = _grade(corpus, tmp_path / "run", spec_a, spec_b, repeat=13)
    out = tmp_path / "c"
    _ok("compare", run, "--submission-a", spec_a, "--submission-b", spec_b, "--out", out, code=1)
    cases = pq.read_table(out / "compare.parquet").to_pylist()
    assert len(cases) == 20
    assert {r["verdict_a"] for r in cases} == {r["verdict_b"] for r in cases} == {"AC"}
    slower = {r["case_id"] for r in cases if r["timing_change"] == "slower"}
    assert slower == {r["case_id"] for r in cases if r["family"] == "n50"}
    assert all(r["timing_change"] == "same" for r in cases if r["family"] == "n2")
    for r in cases:
        if r["family"] == "n50":
            assert 1.1 < r["time_ratio"] < 1.6  # 1.3 by design, give or take the machine
    summary = {r["family"]: r for r in pq.read_table(out / "compare_summary.parquet").to_pylist()}
    assert summary["n50"]["timing_change"] == "slower"
    assert summary["n2"]["timing_change"] == "same"
    assert summary["n50"]["ci_low"] > 1.1
