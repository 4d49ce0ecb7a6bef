"""The end of a graded run, shared by `grade`, `score` and `run CONFIG`: the policy checked
against the corpora before any work, then the gradebook, feedback files and report.html."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from pipeline.corpus.store import read_manifest
from pipeline.report.html import write_report
from pipeline.results.store import has_results
from pipeline.scoring.policy import Policy, load_policy
from pipeline.scoring.run_folder import score_run


def policy_for(scoring: Policy | Path | None, corpora: list[Path]) -> Policy | None:
    """The policy to score with (a file is read), checked against the corpora's families
    and their case counts: a one-line error before anything is compiled or run."""
    if scoring is None:
        return None
    policy = scoring if isinstance(scoring, Policy) else load_policy(scoring)
    counts: dict[str, int] = {}
    for corpus in corpora:
        for family, n in read_manifest(corpus).families.items():
            counts[family] = counts.get(family, 0) + n
    policy.check(counts)
    return policy


@dataclass(frozen=True)
class Finished:
    book: pa.Table
    policy: Policy
    report: Path | None


def finish_run(
    run_dir: Path,
    policy: Policy | None = None,
    feedback: str = "hide-inputs",
    summary: pa.Table | None = None,
    html: bool = True,
) -> Finished | None:
    """gradebook.csv/.parquet, feedback/<id>.md and (when `html`) report.html of RUN_DIR;
    None for a run without a single row (a selection that chose nothing)."""
    if not has_results(run_dir):
        return None
    scores = score_run(run_dir, policy, feedback)
    report = write_report(run_dir, summary=summary, policy=scores.policy) if html else None
    return Finished(scores.book, scores.policy, report)
