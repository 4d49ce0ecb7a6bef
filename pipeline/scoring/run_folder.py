"""Scoring a run folder: the policy it is scored with (given, else the one kept in
RUN_DIR/scoring.yaml, else the default), the gradebook files and the feedback files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.package.scoring import scoring_policy
from pipeline.private import replace_private, write_private
from pipeline.results.store import RUN_JSON, read_run_json
from pipeline.scoring.feedback import write_feedback
from pipeline.scoring.gradebook import (
    default_policy_for,
    gradebook,
    load_for_scoring,
    write_gradebook,
)
from pipeline.scoring.policy import (
    POLICY_FILE,
    Policy,
    load_policy,
    policy_from,
)


@dataclass(frozen=True)
class RunScores:
    policy: Policy
    book: pa.Table


def run_policy(run_dir: Path, results: pa.Table, given: Policy | None = None) -> Policy:
    """`given`, else the policy the run was last scored with, else a scoring package's
    test groups (a run of that one problem), else one group per family of each problem
    (each problem scored out of the same total: policy.default_policy_by_problem);
    checked against the run's families (an unmatched family is a one-line error)."""
    kept = Path(run_dir) / POLICY_FILE
    families = pc.unique(results.column("family")).to_pylist()
    if given is not None:
        policy = given
    elif kept.is_file():
        policy = load_policy(kept)
    else:
        policy = package_policy(results) or default_policy_for(results)
    policy.assign(families)
    return policy


def package_policy(results: pa.Table) -> Policy | None:
    """The test groups of the scoring package a run graded, when it graded one problem."""
    problems = pc.unique(results.column("problem")).to_pylist()
    data = scoring_policy(problems[0]) if len(problems) == 1 else None
    return None if data is None else policy_from(data, f"{problems[0]}: test groups")


def score_run(
    run_dir: Path, given: Policy | None = None, feedback: str = "hide-inputs"
) -> RunScores:
    """Score RUN_DIR from its results parquet: gradebook.csv/.parquet, feedback/<id>.md,
    and the policy kept as scoring.yaml (what `report` scores with next)."""
    run_dir = Path(run_dir)
    results = load_for_scoring(run_dir)
    policy = run_policy(run_dir, results, given)
    book = gradebook(results, policy)
    write_gradebook(run_dir, book)
    info = read_run_json(run_dir) if (run_dir / RUN_JSON).is_file() else {}
    corpora = [Path(c["path"]) for c in info.get("corpora", []) if "path" in c]
    write_feedback(run_dir, book, policy, feedback, corpora)
    if given is not None or not (run_dir / POLICY_FILE).is_file():
        tmp = run_dir / f".{POLICY_FILE}.tmp"
        write_private(tmp, policy.to_yaml())
        replace_private(tmp, run_dir / POLICY_FILE)
    return RunScores(policy, book)
