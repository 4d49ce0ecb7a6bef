"""A package's checker runs from fork servers that belong to one submission's runner: a
server holds what its cases sent it (a hijacked checker could keep one submission's
outputs and show them to the next), so no server ever judges two submissions, and none
outlives the runner that owns it. Real package, real C++ output validator, real sandbox."""

from __future__ import annotations

from pipeline.grade.cases import Cases
from pipeline.grade.runners.program import ProgramRunner
from pipeline.problem.registry import get_problem
from pipeline.program.submission import parse_spec, prepare
from tests.fork_server_probe import require_fork_server
from tests.test_packages import PACKAGES, _needs

PACKAGE = PACKAGES / "pairsum_cpp"
CASES = Cases.of(
    [
        {"case_id": f"c{n}", "family": "f", "input": f"{n}\n", "expected": f"{n}\n"}
        for n in (5, 12, 40)
    ]
)


def _runner(name: str) -> ProgramRunner:
    problem = get_problem(str(PACKAGE))
    sub = prepare(parse_spec(str(PACKAGE / "submissions" / name)), problem)
    return ProgramRunner(problem, sub, problem.limits)


def test_each_submission_has_checker_servers_of_its_own() -> None:
    _needs("cpp")
    require_fork_server()
    runners = [_runner("accepted/split.py"), _runner("wrong_answer/off.py")]
    try:
        verdicts = [r.grade(CASES).table.column("verdict").to_pylist() for r in runners]
        assert verdicts == [["AC"] * 3, ["WA"] * 3]
        # one checker server per runner, started for it and serving all its cases
        assert [r.judges.started for r in runners] == [1, 1]
        servers = [list(r.judges._live.values()) for r in runners]
        assert [len(s) for s in servers] == [1, 1]
        assert servers[0][0] is not servers[1][0]
        assert all(s[0].alive for s in servers)
    finally:
        for r in runners:
            r.close()
    assert not any(s[0].alive for s in servers)  # closed with the runner that owned it


def test_outside_a_runner_a_checker_is_spawned_inside_it_is_served() -> None:
    """No process-wide server is left to share: a check made outside any runner starts
    no server at all; the runner's own starts when it grades."""
    _needs("cpp")
    require_fork_server()
    runner = _runner("accepted/split.py")
    try:
        got = [runner.problem.check(f"{n}\n", f"{n}\n", "2 2\n") for n in (5, 6)]
        assert [str(c.verdict) for c in got] == ["WA", "WA"]
        assert got[0].message == "sum is 4, not 5"
        assert runner.judges.started == 0
        runner.grade(CASES)
        assert runner.judges.started == 1
    finally:
        runner.close()
