"""C, C++ and Python submissions for each problem, graded in the sandbox on a sample of
the golden corpus (../shared/golden): `ac_*` files must be AC on every sampled case,
`wa_*`/`tle_*` files must get that verdict on some case and AC elsewhere. The checker,
limits and I/O mode come from the registered problem."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from pipeline.grade.cases import Cases
from pipeline.grade.runners.program import ProgramRunner
from pipeline.grade.time_verdicts import confirm_wall_tles
from pipeline.problem.registry import get_problem
from pipeline.program.submission import parse_spec, prepare

HERE = Path(__file__).resolve().parent
SUBMISSIONS = HERE / "submissions"
GOLDEN = HERE.parents[1] / "shared" / "golden"
PROBLEMS = ("spot", "gomoku", "clocks", "mine", "tetris")
PER_FAMILY = 2
FILES = sorted(
    p
    for name in PROBLEMS
    for p in (SUBMISSIONS / name).glob("*")
    if p.suffix in (".c", ".cpp", ".py")
)


def golden_sample(
    problem: str, skip: set[str], per_family: int = PER_FAMILY
) -> list[dict[str, str]]:
    """A fixed sample of golden cases: the first of each family and others chosen by a
    fixed seed."""
    root = GOLDEN / problem
    if not root.is_dir():
        pytest.skip(f"golden corpus not found at {root} (../shared is absent)")
    rng = random.Random(f"sample-{problem}")
    cases = []
    for family in sorted(p.name for p in root.iterdir() if p.is_dir()):
        if family in skip:
            continue
        inputs = sorted((root / family).glob("*.in"))
        picked = {inputs[0], *rng.sample(inputs, min(per_family - 1, len(inputs)))}
        for path in sorted(picked):
            cases.append(
                {
                    "case_id": f"{family}/{path.stem}",
                    "family": family,
                    "input": path.read_text(),
                    "expected": path.with_suffix(".ans").read_text(),
                }
            )
    return cases


def directives(path: Path) -> dict[str, str]:
    """`gridjudge-test: key=value ...` in a file's first lines (e.g. skip-families)."""
    found: dict[str, str] = {}
    for line in path.read_text().splitlines()[:5]:
        if "gridjudge-test:" in line:
            for item in line.split("gridjudge-test:", 1)[1].split():
                key, _, value = item.partition("=")
                found[key] = value
    return found


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_submission_gets_the_verdict_its_name_says(path: Path) -> None:
    problem = get_problem(path.parent.name)
    skip = set(filter(None, directives(path).get("skip-families", "").split(",")))
    want = path.name.split("_", 1)[0].upper()
    # a wrong answer may hide in few cases: a wider sample; TLE runs cost time: narrower
    per_family = {"AC": PER_FAMILY, "TLE": 1}.get(want, 2 * PER_FAMILY)
    cases = golden_sample(problem.name, skip, per_family)
    spec = parse_spec(str(path))
    sub = prepare(spec, problem)
    assert sub.compile_error is None, sub.compile_error
    limits = problem.limits
    # graded as `grade` grades (pure rules beneath, the sandbox and the fork server
    # here): a wall-clock TLE under the CPU limit counts as the case's rerun alone (on a
    # loaded machine a wall limit can pass while the CPU limit is far off)
    runner, batch = ProgramRunner(problem, sub, limits), Cases.of(cases)
    try:
        graded = confirm_wall_tles(runner, batch, runner.grade(batch), limits.cpu_ms).table
    finally:
        runner.close()
    verdicts = Counter(graded.column("verdict").to_pylist())
    details = [
        f"{case['case_id']}: {row['verdict']} {row['checker_msg']}"
        for case, row in zip(cases, graded.to_pylist(), strict=True)
        if row["verdict"] != "AC"
    ][:5]
    if want == "AC":
        assert verdicts == {"AC": len(cases)}, details
    else:
        assert verdicts[want] > 0, (verdicts, details)
        assert set(verdicts) <= {"AC", want}, (verdicts, details)
