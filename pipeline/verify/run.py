"""`verify` as a library: a package's inputs validated, its author submissions graded
through the grading pipeline (plan_grade / run_grade, the result cache off) and judged
against their expectations, the time limit derived and its margins reported (expect.py).

1. Every input of data/sample and data/secret goes through every input validator; each
   rejected input is a failed check and is left out of grading.
2. The accepted submissions are graded at problem.yaml's time limit where it gives one,
   else at MEASURE_LIMIT_S: the slowest case of any of them x ac_to_time_limit
   (time_multiplier), rounded up to a multiple of time_resolution, is the time limit.
3. Every other submission is graded at that limit, except those required to get TLE
   (and only TLE: time_limit_exceeded), graded at limit x time_limit_to_tle
   (time_safety_margin): they must exceed even that.

With `repeat` R > 1 a case is run R times (grade --repeat: the time is their median) only
where its time can matter (REPEAT_NEAR): its first run was AC and within a factor 2 of the
limit it is graded at or of the time that sets the derived limit; every other case is
run once, as problemtools runs each. A package of at most SERIAL_CASES cases is graded
in this process, without Ray (whose start costs seconds that such a package never wins
back: each submission's cases would be one Ray task).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.corpus.store import read_manifest
from pipeline.distribute.cluster import SERIAL, Cluster
from pipeline.grade.chunk_sizes import SUBPROCESS_CHUNK
from pipeline.grade.job import run_grade
from pipeline.grade.plan import GradeOptions, plan_grade
from pipeline.grade.settings import DEFAULT, GradeSettings
from pipeline.grade.time_verdicts import NOT_RUN
from pipeline.ids import natural_key
from pipeline.package.spec import Package, is_package, read_package
from pipeline.package.submissions import FOLDERS, SUBMISSIONS, ExpectedSubmission, read_submissions
from pipeline.problem.contract import Problem
from pipeline.problem.registry import get_problem
from pipeline.program.submission import SubmissionSpec
from pipeline.results.store import load_results
from pipeline.results.summary import last_attempts
from pipeline.schemas import RESULTS_SCHEMA
from pipeline.scoring.gradebook import gradebook
from pipeline.scoring.run import package_policy
from pipeline.verify.expect import (
    SUBMISSION,
    TIMING,
    Check,
    accepted_margin,
    derive_time_limit,
    judge_submission,
    slowest,
    tle_margin,
)
from pipeline.verify.prepare import (
    PYTHON,
    VerifyError,
    label_of,
    python_for,
    specs_of,
    validate_inputs,
)

MEASURE_LIMIT_S = 60.0  # the accepted submissions' limit while the time limit is unknown
RESULT_COLUMNS = [
    "submission", "problem", "family", "case_id", "verdict", "cpu_ms", "checker_msg", "attempt",
    "score", "tle_kind",
]  # fmt: skip
UPPER = frozenset({"TLE"})  # the `required` of a submission that bounds the limit above
# a case is run `repeat` times only when its first run was AC and took at least this
# fraction of a time that matters (the limit it is graded at; for an accepted
# submission, the limit / ac_to_time_limit, or the slowest accepted case so far when the
# limit is derived): a factor 2, far beyond the noise of CPU times on a loaded machine
REPEAT_NEAR = 0.5
# a package of at most this many cases is graded in this process: each submission's
# cases would be one Ray task (grade.chunk_sizes), so Ray would add its start only
SERIAL_CASES = SUBPROCESS_CHUNK


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


@dataclass
class Verification:
    package: Package
    time_limit_s: float
    checks: list[Check] = field(default_factory=list)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]


def executor(address: str | None, cases: int) -> str | None:
    """Where to grade: the address asked for (or RAY_ADDRESS's), else in this process for
    a package of at most SERIAL_CASES cases, else the embedded Ray."""
    if address is not None or os.environ.get("RAY_ADDRESS"):
        return address
    return SERIAL if cases <= SERIAL_CASES else None


def _no_rows() -> pa.Table:
    return pa.schema([RESULTS_SCHEMA.field(c) for c in RESULT_COLUMNS]).empty_table()


def grade(
    corpus: Path,
    specs: list[SubmissionSpec],
    limit_s: float,
    options: VerifyOptions,
    out: Path,
    max_tle: int | None = None,
    repeat_from_ms: float | None = None,
    address: str | None = None,
) -> pa.Table:
    """The last attempt of every results row of grading `specs` at `limit_s` (with
    `max_tle`, a submission's cases after that many TLEs are not run: rows marked
    `tle_kind` not-run; with `repeat_from_ms`, only cases that took that much CPU time
    are repeated: GradeSettings). `address`: the cluster's (default: options')."""
    if not specs:
        return _no_rows()
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
            max_tle=max_tle,
            transcripts=False,  # verify shows none: the pipes joined, as problemtools does
        ),
        cache=False,
    )
    run_grade(plan_grade(grade_options))
    return last_attempts(load_results(out, columns=RESULT_COLUMNS))


def stops_at_first_tle(package: Package, sub: ExpectedSubmission) -> bool:
    """Whether grading `sub` may stop at its first TLE, as problemtools stops a
    submission at its first rejected case: where that TLE settles its expectation (TLE
    required, or not permitted: one more case cannot make it hold), on a pass-fail
    package (a score needs every case) with no judge message to look for. The cases
    after it would each wait out the limit: the bulk of a verify of a slow submission."""
    if package.scoring or sub.message:
        return False
    return "TLE" in sub.required or "TLE" not in sub.permitted


def by_submission(table: pa.Table) -> dict[str, list[dict[str, Any]]]:
    """submission -> its rows, in natural case order."""
    out: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(table.to_pylist(), key=lambda r: natural_key(r["case_id"])):
        out.setdefault(row["submission"], []).append(row)
    return out


def verify_package(options: VerifyOptions) -> Verification:
    """Every expectation of the package at `options.package`, checked."""
    root = Path(options.package).expanduser().resolve()
    if not is_package(root):
        raise VerifyError(f"{root}: not a problem package (no problem.yaml)")
    if options.repeat < 1:
        raise VerifyError("--repeat must be at least 1")
    if options.python is not None and options.python not in PYTHON:
        raise VerifyError(f"--python {options.python}: one of {', '.join(sorted(PYTHON))}")
    if options.budget_s is not None and options.budget_s <= 0:
        raise VerifyError("--budget must be a positive number of seconds")
    package = read_package(root)
    subs = read_submissions(root)
    if not subs:
        folders = ", ".join(FOLDERS)
        raise VerifyError(f"{root / SUBMISSIONS}: no submission in a verdict folder ({folders})")
    problem = get_problem(str(root))
    if options.work is not None:
        return _verify(package, problem, subs, options, Path(options.work))
    with tempfile.TemporaryDirectory(prefix="gridjudge-verify-") as tmp:
        return _verify(package, problem, subs, options, Path(tmp))


def _time_limit(package: Package, accepted: pa.Table) -> tuple[float, Check]:
    """The time limit (s): problem.yaml's, else derived from the slowest accepted case."""
    given = package.limits.time_s
    if package.time_limit_given:
        return given, Check(TIMING, "time limit", True, f"{given:g} s, given by the package")
    row = slowest(accepted.to_pylist())
    if row is None:
        detail = f"no accepted submission was timed: {given:g} s assumed"
        return given, Check(TIMING, "time limit", False, detail)
    t, m = row["cpu_ms"] / 1000.0, package.time_multiplier
    limit = derive_time_limit(row["cpu_ms"], m, package.time_resolution)
    detail = (
        f"{limit:g} s derived: slowest accepted case {t:.3f} s ({row['submission']}, "
        f"{row['case_id']}) x {m:g}, rounded up to a multiple of {package.time_resolution:g} s"
    )
    return limit, Check(TIMING, "time limit", True, detail)


@dataclass
class _Runs:
    """The grading runs of one verify: each submission graded on its own, in its own run
    folder under `work`, so that progress is told as each finishes and the budget is
    looked at between submissions."""

    corpus: Path
    specs: dict[str, SubmissionSpec]
    options: VerifyOptions
    work: Path
    first_tle: set[str] = field(default_factory=set)  # labels graded up to their first TLE
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
            cap = 1 if label in self.first_tle else None
            from_ms = REPEAT_NEAR * matters_s(label) * 1000.0
            spec = [self.specs[label]]
            table = grade(self.corpus, spec, limit_s, self.options, out, cap, from_ms, self.address)
            run = pc.fill_null(pc.not_equal(table.column("tle_kind"), NOT_RUN), True)
            self.not_run[label] = table.num_rows - int(pc.sum(run).as_py() or 0)
            table = table.filter(run)
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
            tables.append(table)
        self.tables += tables
        return pa.concat_tables(tables) if tables else _no_rows()


def _grade_all(package: Package, runs: _Runs, labels: dict[str, list[str]]) -> tuple[float, Check]:
    """Grade every submission (accepted first: they give the time limit); the time limit
    and its check."""
    given = package.time_limit_given
    accepted, rest, upper = labels["accepted"], labels["rest"], labels["upper"]
    m = package.time_multiplier
    # the time an accepted case's time matters against: the limit / ac_to_time_limit
    # (its margin; the limit's floor, time_resolution, when derived), and when derived
    # the slowest accepted case so far (the limit comes from the slowest)
    floor_s = package.limits.time_s if given else package.time_resolution

    def matters_first(label: str) -> float:
        if label not in accepted:
            return package.limits.time_s  # graded at the given limit: AC near it
        return max(floor_s / m, 0.0 if given else runs.slowest_ms / 1000.0)

    if not given:
        runs.tell(f"measuring the time limit: accepted submissions at {MEASURE_LIMIT_S:g} s")
    first = runs.run(
        accepted + (rest if given else []),
        package.limits.time_s if given else MEASURE_LIMIT_S,
        "accepted",
        matters_first,
    )
    limit_s, limit_check = _time_limit(package, first)
    if not given and first.num_rows == 0 and runs.unchecked:
        limit_check = Check(TIMING, "time limit", True, _NOT_CHECKED, skipped=True)
    runs.tell(f"time limit: {limit_check.detail}")
    if not given:
        runs.run(rest, limit_s, "others", lambda _: limit_s)
    tle_s = limit_s * package.time_safety_margin
    runs.run(upper, tle_s, "time_limit_exceeded", lambda _: tle_s)
    return limit_s, limit_check


_NOT_CHECKED = "not checked: the --budget ran out first"


def _verify(
    package: Package,
    problem: Problem,
    subs: list[ExpectedSubmission],
    options: VerifyOptions,
    work: Path,
) -> Verification:
    checks = validate_inputs(package, problem, work / "corpus")
    python = python_for(package, options.python)
    runs = _Runs(work / "corpus", specs_of(package, subs, checks, python), options, work)
    runs.address = executor(options.address, read_manifest(work / "corpus").count)
    labels = {id(s): label_of(package, s) for s in subs}
    runs.first_tle = {labels[id(s)] for s in subs if stops_at_first_tle(package, s)}
    accepted = [labels[id(s)] for s in subs if s.folder == "accepted"]
    upper = [labels[id(s)] for s in subs if s.required == UPPER]
    rest = [labels[id(s)] for s in subs if labels[id(s)] not in accepted + upper]
    with Cluster(runs.address):  # one cluster for every grading run
        limit_s, limit_check = _grade_all(
            package, runs, {"accepted": accepted, "rest": rest, "upper": upper}
        )
    results = pa.concat_tables(runs.tables) if runs.tables else _no_rows()
    rows, scores = by_submission(results), _scores(package, results)
    skip = set(runs.unchecked)
    for sub in subs:
        label = labels[id(sub)]
        if label in skip:
            checks.append(Check(SUBMISSION, label, True, _NOT_CHECKED, skipped=True))
        elif label in runs.specs:
            check = judge_submission(sub, label, rows.get(label, []), scores.get(label))
            left = runs.not_run.get(label, 0)
            if left:  # graded up to its first TLE, as problemtools does
                check = replace(check, detail=f"{check.detail}; {left} not run after a TLE")
            checks.append(check)
    checks.append(limit_check)
    mine = [(n, accepted_margin, package.time_multiplier) for n in accepted]
    mine += [(n, tle_margin, package.time_safety_margin) for n in upper]
    for label, margin, factor in mine:
        if label in skip:
            checks.append(Check(TIMING, f"margin {label}", True, _NOT_CHECKED, skipped=True))
        elif label in runs.specs:
            checks.append(margin(label, rows.get(label, []), limit_s, factor))
    return Verification(package, limit_s, checks)


def _scores(package: Package, results: pa.Table) -> dict[str, tuple[float, float]]:
    """submission -> (score, most it could score) on a scoring package, else nothing."""
    if not package.scoring or results.num_rows == 0:
        return {}
    policy = package_policy(results)
    if policy is None:
        return {}
    book = gradebook(results, policy).to_pylist()
    return {r["submission"]: (float(r["score"]), float(r["max_score"])) for r in book}
