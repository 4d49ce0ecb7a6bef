"""Per-case scores of scoring packages, end to end: a 2023-07 package whose Kattis output
validator writes score.txt, and a legacy package whose testlib checker gives points
(exit 7 with `points p`, and `_pc(k)` as exit 16 + k). Each is graded and verified; the
scores are recomputed here from the inputs and the format's rules (a group's points x
the mean of its cases' fractions for `sum`, x the lowest for `min`)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app

SERIAL = ("--address", "local-serial")
# group -> inputs; sample earns nothing
GROUPS = {"sample": [4], "easy": [2, 4, 6], "hard": [3, 8, 10, 15]}

KATTIS_VALIDATOR = """\
import sys
n = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
try:
    x = int(sys.stdin.read().split()[0])
except (ValueError, IndexError):
    open(feedback + "/judgemessage.txt", "w").write("no number")
    sys.exit(43)
if not 0 < x <= 2 * n:
    open(feedback + "/judgemessage.txt", "w").write(f"{x} is out of range")
    sys.exit(43)
open(feedback + "/score.txt", "w").write(f"{x / (2 * n)}\\n")
open(feedback + "/teammessage.txt", "w").write(f"got {x}")
sys.exit(42)
"""

TESTLIB_CHECKER = """\
import sys
n = int(open(sys.argv[1]).read())
x = int(open(sys.argv[2]).read().split()[0])
if x == 2 * n:
    sys.exit(0)
if x == n:
    sys.stderr.write("points 0.5 half of it\\n")
    sys.exit(7)
if x == n + 1:
    sys.stderr.write("a quarter\\n")
    sys.exit(16 + 25)
sys.stderr.write("wrong answer\\n")
sys.exit(1)
"""

# submission -> the number it prints for input n
SUBMISSIONS = {
    "accepted/exact.py": ("print(2 * n)", lambda n: 2 * n),
    "partially_accepted/half.py": ("print(n)", lambda n: n),
    "partially_accepted/mixed.py": (
        "print(2 * n if n % 2 == 0 else n + 1)",
        lambda n: 2 * n if n % 2 == 0 else n + 1,
    ),
}


def kattis_fraction(n: int, x: int) -> float:
    return x / (2 * n) if 0 < x <= 2 * n else 0.0


def checker_points(n: int, x: int) -> float:
    return {2 * n: 1.0, n: 0.5, n + 1: 0.25}.get(x, 0.0)


def expected_score(points: dict[str, tuple[float, str]], fraction, answer) -> float:
    total = 0.0
    for group, (worth, aggregation) in points.items():
        fractions = [fraction(n, answer(n)) for n in GROUPS[group]]
        mean = sum(fractions) / len(fractions)
        total += worth * (min(fractions) if aggregation == "min" else mean)
    return total


def write_package(root: Path, problem_yaml: str, testdata: dict[str, str]) -> None:
    for group, inputs in GROUPS.items():
        folder = root / "data" / ("sample" if group == "sample" else f"secret/{group}")
        folder.mkdir(parents=True)
        for i, n in enumerate(inputs, 1):
            (folder / f"{i}.in").write_text(f"{n}\n")
            (folder / f"{i}.ans").write_text(f"{2 * n}\n")
        if group in testdata:
            (folder / "testdata.yaml").write_text(testdata[group])
    (root / "problem.yaml").write_text(problem_yaml)


def write_submissions(root: Path, scores: dict[str, float]) -> None:
    for rel, (body, _) in SUBMISSIONS.items():
        path = root / "submissions" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"n = int(input())\n{body}\n")
    expected = "".join(
        f"{rel}:\n  score: {scores[rel]!r}\n" for rel in SUBMISSIONS if rel.startswith("partially")
    )
    (root / "submissions" / "submissions.yaml").write_text(expected)


def kattis_package(root: Path) -> dict[str, float]:
    points = {"easy": (30.0, "min"), "hard": (70.0, "sum")}
    write_package(
        root,
        "problem_format_version: 2023-07-draft\nname: Scored\ntype: scoring\n"
        "limits:\n  time_limit: 2.0\n",
        {"easy": "scoring:\n  score: 30\n  aggregation: min\n", "hard": "scoring:\n  score: 70\n"},
    )
    (root / "output_validator").mkdir()
    (root / "output_validator" / "validate.py").write_text(KATTIS_VALIDATOR)
    scores = {r: expected_score(points, kattis_fraction, a) for r, (_, a) in SUBMISSIONS.items()}
    write_submissions(root, scores)
    return scores


def checker_package(root: Path) -> dict[str, float]:
    # legacy: easy is worth its range's top (min), hard accept_score 15 per case (sum)
    points = {"easy": (40.0, "min"), "hard": (15.0 * len(GROUPS["hard"]), "sum")}
    write_package(
        root,
        "name: Scored testlib\ntype: scoring\nvalidation: custom\ngridjudge:\n  checker: testlib\n",
        {"easy": "grader_flags: min\nrange: 0 40\n", "hard": "accept_score: 15\n"},
    )
    (root / "output_validators" / "check").mkdir(parents=True)
    (root / "output_validators" / "check" / "check.py").write_text(TESTLIB_CHECKER)
    (root / ".timelimit").write_text("2\n")
    scores = {r: expected_score(points, checker_points, a) for r, (_, a) in SUBMISSIONS.items()}
    write_submissions(root, scores)
    return scores


@pytest.fixture(autouse=True)
def _no_result_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRIDJUDGE_RESULT_CACHE", "off")


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("make", "fraction"), [(kattis_package, kattis_fraction), (checker_package, checker_points)]
)
def test_case_scores_are_graded_and_verified(tmp_path: Path, make, fraction) -> None:
    package = tmp_path / "scored"
    scores = make(package)
    assert 0 < scores["partially_accepted/mixed.py"] < scores["accepted/exact.py"] == 100
    code, output = cli(
        "import", str(package), "--problem", str(package), "--out", str(tmp_path / "c")
    )
    assert code == 0, output
    subs = [a for rel in SUBMISSIONS for a in ("-s", str(package / "submissions" / rel))]
    run = tmp_path / "run"
    code, output = cli("grade", str(tmp_path / "c"), *subs, "--out", str(run), *SERIAL)
    assert code == 0, output
    rows = pq.read_table(run / "results").to_pylist()
    for row in rows:  # each case's score column: the checker's fraction
        rel = "/".join(Path(row["submission"]).parts[-2:])
        n = int(GROUPS[row["family"].split("/")[-1]][int(row["case_id"].split("/")[-1]) - 1])
        want = fraction(n, SUBMISSIONS[rel][1](n))
        got = 1.0 if row["score"] is None and row["verdict"] == "AC" else (row["score"] or 0.0)
        assert got == pytest.approx(want), row
    book = {
        "/".join(Path(r["submission"]).parts[-2:]): r
        for r in pq.read_table(run / "gradebook.parquet").to_pylist()
    }
    for rel, score in scores.items():
        assert book[rel]["score"] == pytest.approx(score), rel
        assert book[rel]["max_score"] == pytest.approx(100)
    code, output = cli("verify", str(package), *SERIAL, "--repeat", "1")
    assert code == 0, output
    assert "PASS  partially_accepted/mixed.py" in output


def test_team_message_is_kept_beside_the_judge_message(tmp_path: Path) -> None:
    package = tmp_path / "scored"
    kattis_package(package)
    code, output = cli(
        "import", str(package), "--problem", str(package), "--out", str(tmp_path / "c")
    )
    assert code == 0, output
    sub = package / "submissions/partially_accepted/half.py"
    run = tmp_path / "run"
    code, output = cli("grade", str(tmp_path / "c"), "-s", str(sub), "--out", str(run), *SERIAL)
    assert code == 0, output
    messages = {r["case_id"]: r["checker_msg"] for r in pq.read_table(run / "results").to_pylist()}
    assert messages["secret/hard/2"] == "team: got 8"
