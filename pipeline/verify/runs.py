"""The grading runs of one `verify`: its options, where it grades, and each submission
graded through the grading pipeline (plan_grade / run_grade, the result cache off) in a
run folder of its own.

A submission is graded up to the case that settles its verdict where one does (stop_rule):
its first rejected case where the verdict is that case's (the legacy and 2023-07 formats,
every test data folder stopping at its first rejection: as problemtools stops), else its
first TLE where a TLE settles what its folder expects. `--strict` grades on past a
rejection: the stricter reading needs every case. A submission expected to be rejected
that stops at its first rejected case is graded in case order in this process: on Ray a
submission's chunks run at once, each to its own first rejection.

With `repeat` R > 1 a case is run R times only where its time can matter (REPEAT_NEAR):
its first run was AC and within a factor 2 of the time it is judged against; every other
case is run once, as problemtools runs each. A package of at most SERIAL_CASES cases is
graded in this process, without Ray (whose start costs seconds that such a package never
wins back: each submission's cases would be one Ray task).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.distribute.cluster import SERIAL
from pipeline.grade.chunk_sizes import SUBPROCESS_CHUNK
from pipeline.grade.job import run_grade
from pipeline.grade.plan import GradeOptions, plan_grade
from pipeline.grade.settings import DEFAULT, GradeSettings
from pipeline.grade.time_verdicts import NOT_RUN
from pipeline.package.spec import Package
from pipeline.package.submissions import ExpectedSubmission
from pipeline.program.submission import SubmissionSpec
from pipeline.results.store import load_results
from pipeline.results.summary import last_attempts
from pipeline.schemas import RESULTS_SCHEMA
from pipeline.verify.expect import FIRST_REJECTED
from pipeline.verify.verdicts import FolderRules, always_breaks

RESULT_COLUMNS = [
    "submission", "problem", "family", "case_id", "verdict", "cpu_ms", "checker_msg", "attempt",
    "score", "tle_kind", "cpu_ms_runs",
]  # fmt: skip
# a case is run `repeat` times only when its first run was AC and took at least this
# fraction of a time that matters (the limit it is graded at; for an accepted
# submission, the limit / ac_to_time_limit, or the slowest accepted case so far when the
# limit is derived): a factor 2, far beyond the noise of CPU times on a loaded machine
REPEAT_NEAR = 0.5
# a package of at most this many cases is graded in this process: each submission's
# cases would be one Ray task (grade.chunk_sizes), so Ray would add its start only
SERIAL_CASES = SUBPROCESS_CHUNK
REJECTED, TLE = "rejected", "TLE"  # where a submission's grading may stop (stop_rule)


@dataclass
class VerifyOptions:
    package: Path
    repeat: int = 3  # runs of each case: the times are their medians
    address: str | None = None  # as grade's --address
    fork_server: bool = DEFAULT.fork_server
    work: Path | None = None  # the corpus and run folders; None: a temporary folder
    budget_s: float | None = None  # stop grading after this many seconds; None: no limit
    # the language version of `.py` author submissions; None: what the package says
    # (problem.yaml's gridjudge.python), else `pypy3` where it is installed, as
    # problemtools and Kattis run them (a package's Python was written and timed for
    # PyPy there, often 10x faster than CPython), else CPython
    python: str | None = None
    progress: Callable[[str], None] | None = None  # told a line as each submission is graded
    clock: Callable[[], float] = time.monotonic  # what the budget is measured with
    # gridjudge's stricter findings (warnings) are failures; every case of a rejected
    # submission is graded for them
    strict: bool = False


def executor(address: str | None, cases: int) -> str | None:
    """Where to grade: the address asked for (or RAY_ADDRESS's), else in this process for
    a package of at most SERIAL_CASES cases, else the embedded Ray."""
    if address is not None or os.environ.get("RAY_ADDRESS"):
        return address
    return SERIAL if cases <= SERIAL_CASES else None


def stop_rule(
    package: Package,
    sub: ExpectedSubmission,
    rules: Mapping[str, FolderRules] | None,
    strict: bool,
) -> str | None:
    """Where grading `sub` may stop: REJECTED (at its first rejected case: its verdict
    is that case's, verdicts.format_verdict, in a package whose folders all stop there),
    TLE (at its first TLE: that settles its expectation, TLE required or not permitted)
    or None (every case: a scoring package needs every case for the score, a judge
    message may be on any, --strict reads every case)."""
    if package.scoring or sub.message:
        return None
    own = rules is not None and not sub.listed and sub.folder in FIRST_REJECTED
    if own and not strict and always_breaks(rules):
        return REJECTED
    if "TLE" not in sub.permitted or ("TLE" in sub.required and not strict):
        return TLE
    return None


def no_rows() -> pa.Table:
    return pa.schema([RESULTS_SCHEMA.field(c) for c in RESULT_COLUMNS]).empty_table()


def grade(
    corpus: Path,
    specs: list[SubmissionSpec],
    limit_s: float,
    options: VerifyOptions,
    out: Path,
    stop: str | None = None,
    repeat_from_ms: float | None = None,
    address: str | None = None,
) -> pa.Table:
    """The last attempt of every results row of grading `specs` at `limit_s` (`stop`:
    stop_rule's; the cases not run are rows marked `tle_kind` not-run; with
    `repeat_from_ms`, only cases that took that much CPU time are repeated:
    GradeSettings). `address`: the cluster's (default: options')."""
    if not specs:
        return no_rows()
    grade_options = GradeOptions(
        corpora=[corpus],
        submissions=[],
        submission_sets=specs,
        out=out,
        address=options.address if address is None else address,
        settings=GradeSettings(
            repeat=options.repeat,
            repeat_from_ms=repeat_from_ms,
            fork_server=options.fork_server,
            time_limit=limit_s,
            max_tle=None if stop is None else 1,
            cap_rejected=stop == REJECTED,
            transcripts=False,  # verify shows none: the pipes joined, as problemtools does
        ),
        cache=False,
    )
    run_grade(plan_grade(grade_options))
    return last_attempts(load_results(out, columns=RESULT_COLUMNS))


@dataclass
class Runs:
    """The grading runs of one verify: each submission graded on its own, in its own run
    folder under `work`, so that progress is told as each finishes and the budget is
    looked at between submissions."""

    corpus: Path
    specs: dict[str, SubmissionSpec]
    options: VerifyOptions
    work: Path
    stops: dict[str, str] = field(default_factory=dict)  # label -> its stop_rule
    # graded in case order in this process, whatever `address` says: a submission
    # expected to be rejected that stops at its first rejected case (on Ray, every
    # chunk in flight would run to its own first rejection)
    ordered: set[str] = field(default_factory=set)
    not_run: dict[str, int] = field(default_factory=dict)  # label -> cases left after it
    tables: list[pa.Table] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)  # not graded: the budget ran out
    address: str | None = None  # where every grading run goes (executor())
    slowest_ms: float = 0.0  # the slowest accepted case so far (CPU ms)
    started: float = 0.0
    done: int = 0

    def __post_init__(self) -> None:
        self.started = self.options.clock()

    def out_of_budget(self) -> bool:
        budget = self.options.budget_s
        return budget is not None and self.options.clock() - self.started >= budget

    def tell(self, line: str) -> None:
        if self.options.progress is not None:
            self.options.progress(f"... {line}")

    def left_note(self, label: str) -> str:
        """What the check's line says of the cases not run after its stop, "" if none."""
        left = self.not_run.get(label, 0)
        if not left:
            return ""
        after = "its first rejected case" if self.stops.get(label) == REJECTED else "a TLE"
        return f"; {left} not run after {after}"

    def run(
        self,
        labels: list[str],
        limit_s: float,
        name: str,
        matters_s: Callable[[str], float],
    ) -> pa.Table:
        """Grade each of `labels` at `limit_s`, repeating only the cases within
        REPEAT_NEAR of `matters_s(label)`, the time that matters for it."""
        tables = []
        for label in (n for n in labels if n in self.specs):
            if self.out_of_budget():
                self.unchecked.append(label)
                continue
            out = self.work / name / f"{self.done:03d}"
            from_ms = REPEAT_NEAR * matters_s(label) * 1000.0
            table = grade(
                self.corpus,
                [self.specs[label]],
                limit_s,
                self.options,
                out,
                self.stops.get(label),
                from_ms,
                SERIAL if label in self.ordered else self.address,
            )
            tables.append(self._graded(label, name, table, limit_s))
        self.tables += tables
        return pa.concat_tables(tables) if tables else no_rows()

    def _graded(self, label: str, name: str, table: pa.Table, limit_s: float) -> pa.Table:
        """The rows that ran, noted (cases not run, the slowest accepted) and told."""
        ran = pc.fill_null(pc.not_equal(table.column("tle_kind"), NOT_RUN), True)
        self.not_run[label] = table.num_rows - int(pc.sum(ran).as_py() or 0)
        table = table.filter(ran)
        if name == "accepted":
            ac = table.filter(pc.equal(table.column("verdict"), "AC")).column("cpu_ms")
            self.slowest_ms = max(self.slowest_ms, pc.max(ac).as_py() or 0.0)
        self.done += 1
        counts = Counter(table.column("verdict").to_pylist())
        verdicts = " ".join(f"{v} {counts[v]}" for v in sorted(counts)) or "no cases"
        elapsed = self.options.clock() - self.started
        self.tell(
            f"{label}: {verdicts} (at {limit_s:g} s; {self.done} of {len(self.specs)} "
            f"submissions graded, {elapsed:.1f} s)"
        )
        return table
