"""Selective grading: which (submission, case) pairs of a `grade` to run.

    --only failing   pairs whose row in the earlier run (--since RUN_DIR) is not AC
    --only changed   pairs whose submission's content hash differs from the one that
                     graded the pair in the earlier run
    --only new       pairs the earlier run has no row for
    --family GLOB, --case GLOB, --only-submission GLOB   (fnmatch patterns on the
                     family, the case id and the submission's label)

Every filter given must hold. A run folder's rows are the selected pairs only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Literal, get_args

from pipeline.errors import GridjudgeError
from pipeline.program.submission import PreparedSubmission
from pipeline.results import store as run_folder
from pipeline.results.summary import last_attempts

Only = Literal["failing", "changed", "new"]  # what `--only` selects
ONLY: tuple[str, ...] = get_args(Only)


class SelectError(GridjudgeError):
    """A selection that cannot be made; one line for the user."""


@dataclass(frozen=True)
class Earlier:
    """What an earlier run says of a pair: the submission's hash and the verdict."""

    sha: str
    verdict: str


@dataclass
class Selection:
    only: str | None = None
    since: dict[tuple[str, str], Earlier] = field(default_factory=dict)
    family: str | None = None
    case: str | None = None
    submission: str | None = None

    @property
    def active(self) -> bool:
        return any(v is not None for v in (self.only, self.family, self.case, self.submission))

    def wants(self, sub: PreparedSubmission, case_id: str, family: str | None) -> bool:
        if self.submission is not None and not fnmatchcase(sub.label, self.submission):
            return False
        if self.case is not None and not fnmatchcase(case_id, self.case):
            return False
        if self.family is not None and not fnmatchcase(family or "", self.family):
            return False
        if self.only is None:
            return True
        earlier = self.since.get((sub.label, case_id))
        if self.only == "new":
            return earlier is None
        if earlier is None:
            return False
        if self.only == "failing":
            return earlier.verdict != "AC"
        return earlier.sha != sub.sha  # changed


def make_selection(
    only: str | None,
    since: Path | None,
    family: str | None = None,
    case: str | None = None,
    submission: str | None = None,
) -> Selection:
    """Check the options and read the earlier run's rows (the last attempt of each pair)."""
    if only is not None and only not in ONLY:
        raise SelectError(f"--only {only!r}: expected one of {', '.join(ONLY)}")
    if (only is None) != (since is None):
        raise SelectError("--only and --since go together")
    earlier: dict[tuple[str, str], Earlier] = {}
    if since is not None:
        columns = ["submission", "problem", "case_id", "submission_sha", "verdict", "attempt"]
        rows = last_attempts(run_folder.load_results(Path(since), columns=columns))
        wanted = ("submission", "case_id", "submission_sha", "verdict")
        for label, case_id, sha, verdict in zip(
            *(rows.column(c).to_pylist() for c in wanted), strict=True
        ):
            earlier[(label, case_id)] = Earlier(sha, verdict)
    return Selection(only, earlier, family, case, submission)
