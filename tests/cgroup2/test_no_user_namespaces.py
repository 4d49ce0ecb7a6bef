"""An ordinary user where user namespaces are off (`sysctl user.max_user_namespaces=0`):
`gridjudge grade` refuses untrusted code in one line naming the cause and the fix, and
with --allow-unsandboxed grades it, marking run.json and every row. `make test-cgroup2`
runs this file alone, as uid 1000 in the VM after turning user namespaces off; the
other runs of tests/cgroup2 leave it out (it asserts the machine has no namespaces)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.corpus.generate import generate_corpus
from pipeline.jobs.demo import example_submissions
from pipeline.problem.registry import get_problem
from pipeline.results import store
from tests.test_forkserver_agreement import SEED_SPEC
from tests.test_seed_programs import SEEDS

SUBMISSION = SEED_SPEC["spot"].format(SEEDS / "spot.cpp")  # built by warm.py on the host


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert os.geteuid() != 0, "run this as an ordinary user"
    made = subprocess.run(["unshare", "-Ur", "true"], capture_output=True, text=True)
    assert made.returncode != 0, "user namespaces work here: turn them off first"
    out = tmp_path_factory.mktemp("c") / "spot"
    generate_corpus(get_problem("spot"), 3, 1, out, families=["n2"])
    return out


def grade(corpus: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """`gridjudge grade` as a user types it, in a process of its own, without Ray."""
    argv = [str(Path(sys.executable).with_name("gridjudge")), "grade", str(corpus)]
    argv += ["-s", SUBMISSION, "--out", str(out), "--address", "local-serial", *extra]
    return subprocess.run(argv, capture_output=True, text=True, timeout=1800)


def test_grade_refuses_in_one_line_naming_cause_and_fix(corpus: Path, tmp_path: Path) -> None:
    done = grade(corpus, tmp_path / "run")
    assert done.returncode != 0, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: refusing to run untrusted code without isolation")
    assert "no user namespaces for an ordinary user" in lines[0]
    assert "fix: sudo sysctl -w user.max_user_namespaces=" in lines[0]
    assert "--allow-unsandboxed" in lines[0]
    assert "Traceback" not in done.stdout + done.stderr


def test_allow_unsandboxed_grades_and_marks_the_run_and_its_rows(
    corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    done = grade(corpus, out, "--allow-unsandboxed", "--no-fork-server")
    assert done.returncode == 0, done.stderr
    assert "isolation: rlimits only" in done.stderr
    facts = json.loads((out / "run.json").read_text())
    assert facts["isolation"] == "rlimits only" and facts["allow_unsandboxed"] is True, facts
    rows = store.load_results(out, columns=["verdict", "runner"]).to_pylist()
    assert len(rows) == 3 and {r["verdict"] for r in rows} == {"AC"}, rows
    assert {r["runner"] for r in rows} == {"spawn (unsandboxed: no namespaces)"}, rows


def test_demo_runs_its_own_examples_and_says_so(tmp_path: Path) -> None:
    """`gridjudge demo` (the first command a new user types) grades gridjudge's own
    examples here too, saying on its first line that they run without isolation, and
    marks its run folder and rows as `grade --allow-unsandboxed` does."""
    out = tmp_path / "demo"
    argv = [str(Path(sys.executable).with_name("gridjudge")), "demo", "--problem", "spot"]
    argv += ["--cases", "3", "--address", "local-serial", "--out", str(out)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("isolation: rlimits only"), done.stderr
    run = out / "runs" / "spot"
    facts = json.loads((run / "run.json").read_text())
    assert facts["isolation"] == "rlimits only" and facts["allow_unsandboxed"] is True, facts
    rows = store.load_results(run, columns=["submission", "runner"]).to_pylist()
    examples = {r["runner"] for r in rows if not r["submission"].startswith("solver:")}
    assert examples == {"spawn (unsandboxed: no namespaces)"}, rows
    assert len(rows) == 3 * (1 + len(example_submissions("spot"))), rows
