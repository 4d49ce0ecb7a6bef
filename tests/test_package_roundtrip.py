"""The round trip of issue 16: each built-in problem exported as a Kattis package
(`gridjudge export`), imported back, and graded as a package gives the verdicts the
built-in plugin gives on the same inputs, for the seed program (../shared/seed_programs)
and the examples (datasets/examples); `gridjudge verify` of every export exits 0. The
interactive spotlive goes the same way: exported as an interactive package, its judge
program the interactor, the examples play it on both sides.

The built-in side grades the package's own data/ imported as the built-in problem, so
both sides see the same inputs and answers. Verdicts must be equal, but for PE, which a
Kattis validator cannot say (gomoku's exported validator reports a layout difference as
a wrong answer, with `PE:` in its message). A case timed near its limit on either side
may be AC in one run and TLE in the other: such cases are not compared, and there must
be few of them."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.problem.registry import get_problem
from pipeline.verify.expect import spec_verdict

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "datasets" / "examples"
SEEDS = REPO.parent / "shared" / "seed_programs"
# cases exported: enough that every example shows its verdict (spot's WA shows only in
# its empty_return family, tetris' slow example only on its 8th hard40 board)
COUNTS = {"spot": 24, "mine": 18, "tetris": 56, "gomoku": 22, "clocks": 16, "spotlive": 24}
SEED_LANGUAGE = {"spot": "cpp98:"}  # it defines `hash` and `next`, as newer libraries do
NEAR = 0.2  # a case timed within 20% of its limit is not compared


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def graded(corpus: Path, run: Path, subs: list[str]) -> dict[tuple[str, str], dict]:
    """(submission file name, case id) -> its results row."""
    code, output = cli(
        "grade", str(corpus), *[a for s in subs for a in ("-s", s)], "--out", str(run)
    )
    assert code == 0, output
    rows = pq.read_table(run / "results").to_pylist()
    return {(Path(r["submission"].split(":")[-1]).name, r["case_id"]): r for r in rows}


def same(builtin: str, package: str) -> bool:
    return builtin == package or (builtin, package) == ("PE", "WA")


def near_limit(row: dict, limit_ms: float) -> bool:
    return row["cpu_ms"] is not None and abs(row["cpu_ms"] - limit_ms) <= NEAR * limit_ms


def subs_of(problem: str) -> list[str]:
    if problem == "spotlive":  # interactive: no seed program plays it, the examples do
        return [str(p) for p in sorted((EXAMPLES / problem).iterdir())]
    seed = SEEDS / f"{problem}.cpp"
    if not seed.is_file():
        pytest.skip(f"seed programs not found at {SEEDS} (../shared is absent)")
    return [
        f"{SEED_LANGUAGE.get(problem, '')}{seed}",
        *map(str, sorted((EXAMPLES / problem).iterdir())),
    ]


def round_trip(problem: str, tmp_path: Path) -> None:
    subs = subs_of(problem)
    package = tmp_path / problem
    code, output = cli("export", problem, "--out", str(package), "--count", str(COUNTS[problem]))
    assert code == 0, output
    corpora = {}
    for side, name in (("package", str(package)), ("builtin", problem)):
        code, output = cli("import", str(package), "--problem", name, "--out", str(tmp_path / side))
        assert code == 0, output
        corpora[side] = graded(tmp_path / side, tmp_path / f"run-{side}", subs)
    package_rows, builtin_rows = corpora["package"], corpora["builtin"]
    assert package_rows.keys() == builtin_rows.keys()
    limit = get_problem(problem).limits.cpu_ms
    near = [
        k
        for k in package_rows
        if near_limit(package_rows[k], limit) or near_limit(builtin_rows[k], limit)
    ]
    assert len(near) <= len(package_rows) // 10, near
    differ = {
        k: (builtin_rows[k]["verdict"], package_rows[k]["verdict"], package_rows[k]["checker_msg"])
        for k in package_rows
        if k not in near and not same(builtin_rows[k]["verdict"], package_rows[k]["verdict"])
    }
    assert not differ, differ
    for example in (EXAMPLES / problem).iterdir():  # each example shows its verdict
        verdicts = {
            spec_verdict(r["verdict"]) for (s, _), r in package_rows.items() if s == example.name
        }
        want = {"correct": "AC", "wa": "WA", "slow": "TLE"}[
            example.name.split("_")[0].split(".")[0]
        ]
        assert want in verdicts, (example.name, verdicts)
    code, output = cli("verify", str(package), "--repeat", "1")
    assert code == 0, output
    assert "all " in output and "FAIL" not in output, output


@pytest.mark.parametrize("problem", ["spot", "mine", "gomoku", "clocks", "spotlive"])
def test_round_trip(problem: str, tmp_path: Path, ray_cluster: object) -> None:
    round_trip(problem, tmp_path)


@pytest.mark.slow
def test_round_trip_tetris(tmp_path: Path, ray_cluster: object) -> None:
    round_trip("tetris", tmp_path)
