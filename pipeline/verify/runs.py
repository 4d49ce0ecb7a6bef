"""The grading runs of one `verify`: its options, where it grades, and each submission
graded through the grading pipeline (grade.plan / grade.driver, the result cache off) in a
run folder of its own, the submissions of a step side by side on the cluster
(grade.together: one task stream, whatever the number of workers).

A submission is graded up to the case that settles its verdict where one does (stop_rule):
its first rejected case where the verdict is that case's (the legacy and 2023-07 formats,
every test data folder stopping at its first rejection: as problemtools stops), else its
first TLE where a TLE settles what its folder expects. `--strict` grades on past a
rejection: the stricter reading needs every case. A submission expected to be rejected
that stops at its first rejected case is graded in case order, as one task: chunks side
by side would each run to their own first rejection. Other submissions' cases are cut
into chunks as grade cuts them.

With `repeat` R > 1 a case is run R times only where its time can matter: its first run
was AC and over the time it is judged against (Phase.matters_s). verify reads the least
of a case's runs, which another run can only lower: below that time no repeat can change
a limit, a margin or a verdict. Every other case is run once, as problemtools runs each.
A package of at most SERIAL_RUNS runs (cases x submissions) is graded in this process,
without Ray (whose start costs seconds that such a package never wins back: all its runs
would be one Ray task's worth).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.distribute.cluster import SERIAL, Cluster, DistributeError
from pipeline.grade.chunk_sizes import SUBPROCESS_CHUNK
from pipeline.grade.plan import GradeOptions, plan_grade
from pipeline.grade.settings import DEFAULT, GradeSettings
from pipeline.grade.time_verdicts import NOT_RUN
from pipeline.grade.together import Ended, Planned, grade_together
from pipeline.package.spec import Package
from pipeline.package.submissions import ExpectedSubmission
from pipeline.program.submission import SubmissionSpec
from pipeline.results.store import load_results
from pipeline.results.summary import last_attempts
from pipeline.schemas import RESULTS_SCHEMA
from pipeline.verify.expect import FIRST_REJECTED, least_ms
from pipeline.verify.verdicts import FolderRules, always_breaks

RESULT_COLUMNS = [
    "submission", "problem", "family", "case_id", "verdict", "cpu_ms", "checker_msg", "attempt",
    "score", "tle_kind", "cpu_ms_runs", "start_cpu_ms",
]  # fmt: skip
# a package of at most this many runs (cases x submissions) is graded in this process:
# all of them would be one Ray task's worth (grade.chunk_sizes), Ray would add its start
SERIAL_RUNS = SUBPROCESS_CHUNK
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
    # grading tasks at once (submissions side by side); None: the cluster's CPUs
    workers: int | None = None


def executor(address: str | None, runs: int) -> str | None:
    """Where to grade: the address asked for (or RAY_ADDRESS's), else in this process for
    a package of at most SERIAL_RUNS runs (cases x submissions), else the embedded Ray."""
    if address is not None or os.environ.get("RAY_ADDRESS"):
        return address
    return SERIAL if runs <= SERIAL_RUNS else None


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


def grade_options(
    corpus: Path,
    spec: SubmissionSpec,
    limit_s: float,
    options: VerifyOptions,
    out: Path,
    stop: str | None = None,
    repeat_from_ms: float | None = None,
    chunk_size: int | None = None,
) -> GradeOptions:
    """The grading run of one submission at `limit_s` (`stop`: stop_rule's; the cases
    not run are rows marked `tle_kind` not-run; with `repeat_from_ms`, only cases that
    took that much CPU time are repeated: GradeSettings; `chunk_size`: cases per task,
    the engine's choice when None)."""
    return GradeOptions(
        corpora=[corpus],
        submissions=[],
        submission_sets=[spec],
        out=out,
        address=options.address,
        chunk_size=chunk_size,
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


@dataclass
class Phase:
    """Submissions graded at one limit, in run folders under work/`name`; a case is
    repeated only when its first run took at least `matters_s(label)`, the time that
    matters for it (the limit it is graded at; for an accepted submission, the limit /
    ac_to_time_limit, or the slowest accepted case so far when the limit is derived;
    asked as its grading starts: earlier submissions may have moved it)."""

    labels: list[str]
    limit_s: float
    name: str
    matters_s: Callable[[str], float]


@dataclass
class Runs:
    """The grading runs of one verify: each submission graded on its own, in its own run
    folder under `work`, all of a step's submissions side by side on the cluster
    (grade.together), so that progress is told as each finishes and the budget is looked
    at as each starts."""

    corpus: Path
    specs: dict[str, SubmissionSpec]
    options: VerifyOptions
    work: Path
    stops: dict[str, str] = field(default_factory=dict)  # label -> its stop_rule
    # graded in case order, in one task: a submission expected to be rejected that stops
    # at its first rejected case (chunks side by side would each run to their own first
    # rejection)
    ordered: set[str] = field(default_factory=set)
    not_run: dict[str, int] = field(default_factory=dict)  # label -> cases left after it
    tables: list[pa.Table] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)  # not graded: the budget ran out
    faults: dict[str, str] = field(default_factory=dict)  # label -> why its grading failed
    workers: dict[str, set[int]] = field(default_factory=dict)  # label -> pids graded in
    address: str | None = None  # where every grading run goes (executor())
    cluster: Cluster | None = None  # entered, at `address`
    cases: int = 1  # in the corpus
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

    def run(self, *phases: Phase) -> pa.Table:
        """Grade every submission of `phases`, side by side; their rows."""
        assert self.cluster is not None, "Runs.run outside `with Cluster`"
        tables: list[pa.Table] = []
        begun: dict[str, tuple[str, Phase]] = {}  # run key -> its label and phase

        def plans() -> Iterator[Planned]:
            for phase in phases:
                for label in (n for n in phase.labels if n in self.specs):
                    if self.out_of_budget():
                        self.unchecked.append(label)
                        continue
                    key = f"{phase.name}/{len(begun):03d}"
                    begun[key] = (label, phase)
                    grading = plan_grade(self._options(label, phase, self.work / key))
                    yield Planned(key, grading, in_order=label in self.ordered)

        def ended(run: Ended) -> None:
            label, phase = begun[run.key]
            self.workers[label] = run.workers
            if run.fault:
                self.faults[label] = run.fault
                self.tell(f"{label}: its grading failed: {run.fault}")
                return
            out = run.driver.plan.options.out
            table = last_attempts(load_results(out, columns=RESULT_COLUMNS))
            tables.append(self._graded(label, phase, table))

        workers = self.options.workers or self.cluster.total_cpus()
        try:
            grade_together(self.cluster, plans(), ended, workers)
        except DistributeError as exc:  # the cluster failed: what ended is kept
            for phase in phases:
                for label in phase.labels:
                    if label in self.specs and not self.graded(label):
                        self.faults.setdefault(label, f"not graded: {exc}")
        self.tables += tables
        return pa.concat_tables(tables) if tables else no_rows()

    def graded(self, label: str) -> bool:
        """Whether `label` has its rows, a fault, or was left for the budget."""
        return label in self.not_run or label in self.faults or label in self.unchecked

    def _options(self, label: str, phase: Phase, out: Path) -> GradeOptions:
        from_ms = phase.matters_s(label) * 1000.0
        size = max(1, self.cases) if label in self.ordered else None
        stop = self.stops.get(label)
        return grade_options(
            self.corpus, self.specs[label], phase.limit_s, self.options, out, stop, from_ms, size
        )

    def _graded(self, label: str, phase: Phase, table: pa.Table) -> pa.Table:
        """The rows that ran, noted (cases not run, the slowest accepted) and told."""
        name, limit_s = phase.name, phase.limit_s
        ran = pc.fill_null(pc.not_equal(table.column("tle_kind"), NOT_RUN), True)
        self.not_run[label] = table.num_rows - int(pc.sum(ran).as_py() or 0)
        table = table.filter(ran)
        if name == "accepted":  # as the limit is derived from it: least_ms
            ac = table.filter(pc.equal(table.column("verdict"), "AC")).to_pylist()
            self.slowest_ms = max([self.slowest_ms, *(least_ms(r) or 0.0 for r in ac)])
        self.done += 1
        counts = Counter(table.column("verdict").to_pylist())
        verdicts = " ".join(f"{v} {counts[v]}" for v in sorted(counts)) or "no cases"
        elapsed = self.options.clock() - self.started
        self.tell(
            f"{label}: {verdicts} (at {limit_s:g} s; {self.done} of {len(self.specs)} "
            f"submissions graded, {elapsed:.1f} s)"
        )
        return table
