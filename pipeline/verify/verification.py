"""`verify` as a library: a package's inputs validated, its output validator fed junk
(verify.junk), its author submissions graded (verify.runs) and judged against their
expectations, the time limit derived and its margins reported (expect.py).

1. Every input of data/sample and data/secret goes through every input validator; each
   rejected input is a failed check and is left out of grading.
2. The accepted submissions are graded at problem.yaml's time limit where it gives one,
   else at MEASURE_LIMIT_S: the slowest case of any of them (the least of its runs) x
   ac_to_time_limit (time_multiplier), rounded up to a multiple of time_resolution, is
   the time limit; one within NEAR_BOUNDARY of a rounding boundary is warned about.
3. The submissions required to get TLE (time_limit_exceeded), and in the legacy and
   2023-07 formats every rejected one judged by its folder, are graded at limit x
   time_limit_to_tle (time_safety_margin) and judged at the limit from the same runs, as
   problemtools judges them (a verdict the folder expects only at the higher limit holds
   with a warning: "OK with extra time"); a TLE submission not exceeding even the higher
   limit is a failure of the 2025-09 text's margin, a warning in the legacy and 2023-07
   formats ("sensitive to time limit"). Every other submission is graded at the limit.

The submissions of each step are graded side by side on the cluster (verify.runs), each
in case order where its first rejection settles it; with a given limit, steps 2 and 3
are one step. A submission whose grading fails (its task raised, or the cluster lost it)
is a JE check of its own; the others are still judged.

Warnings are gridjudge's findings beyond the format's own tool's; with `strict` they
are failures.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.corpus.store import read_manifest
from pipeline.distribute.cluster import Cluster
from pipeline.grade.interrupts import on_sigterm, sigterm_interrupts
from pipeline.ids import natural_key
from pipeline.package.generation import generate_package, missing_files
from pipeline.package.generators import GENERATORS_YAML, has_generators
from pipeline.package.spec import Package, is_package, read_package
from pipeline.package.submissions import FOLDERS, SUBMISSIONS, ExpectedSubmission, read_submissions
from pipeline.problem.contract import Problem
from pipeline.problem.registry import get_problem
from pipeline.scoring.gradebook import gradebook
from pipeline.scoring.run_folder import package_policy
from pipeline.verify.answers import answer_checks, case_file_checks
from pipeline.verify.expect import (
    FIRST_REJECTED,
    INPUTS,
    NEAR_BOUNDARY,
    SUBMISSION,
    TIMING,
    Check,
    accepted_margin,
    at_limit,
    derive_time_limit,
    judge_submission,
    least_ms,
    near_boundary,
    slowest,
    tle_margin,
)
from pipeline.verify.invalid import invalid_checks
from pipeline.verify.junk import junk_check
from pipeline.verify.prepare import (
    PYTHON,
    VerifyError,
    include_checks,
    label_of,
    python_for,
    specs_of,
    validate_inputs,
)
from pipeline.verify.runs import (
    REJECTED,
    Phase,
    Runs,
    VerifyOptions,
    executor,
    no_rows,
    stop_rule,
)
from pipeline.verify.statements import statement_checks
from pipeline.verify.verdicts import FolderRules, folder_rules

MEASURE_LIMIT_S = 60.0  # the accepted submissions' limit while the time limit is unknown
UPPER = frozenset({"TLE"})  # the `required` of a submission that bounds the limit above


@dataclass
class Verification:
    package: Package
    time_limit_s: float
    checks: list[Check] = field(default_factory=list)
    # submission -> the pids of the worker processes it was graded in
    workers: dict[str, set[int]] = field(default_factory=dict)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    @property
    def warnings(self) -> list[Check]:
        return [c for c in self.checks if c.status == "WARN"]


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
    made = _generate_missing(root, options)
    package = read_package(root)
    subs = read_submissions(root)
    if not subs:
        folders = ", ".join(FOLDERS)
        raise VerifyError(f"{root / SUBMISSIONS}: no submission in a verdict folder ({folders})")
    problem = get_problem(str(root))
    if options.work is not None:
        result = _verify(package, problem, subs, options, Path(options.work))
    else:
        with tempfile.TemporaryDirectory(prefix="gridjudge-verify-") as tmp:
            result = _verify(package, problem, subs, options, Path(tmp))
    result.checks[:0] = made
    if options.strict:
        result.checks = [c.strict() for c in result.checks]
    return result


def _generate_missing(root: Path, options: VerifyOptions) -> list[Check]:
    """The cases of generators/generators.yaml not in data/ yet, generated first (a
    package whose secret data only that file makes can be verified), as one check."""
    if not has_generators(root):
        return []
    missing = missing_files(root)
    if not missing:
        return [Check(INPUTS, GENERATORS_YAML.as_posix(), True, "every case is in data/")]
    if options.progress is not None:
        options.progress(f"generating {len(missing)} missing cases from {GENERATORS_YAML}")
    done = generate_package(root, fork=options.fork_server, address=options.address, keep=True)
    detail = f"{len(missing)} missing cases generated ({len(done.written)} files written)"
    return [Check(INPUTS, GENERATORS_YAML.as_posix(), True, "; ".join([detail, *done.notes]))]


def _time_limit(package: Package, accepted: pa.Table) -> tuple[float, Check]:
    """The time limit (s): problem.yaml's, else derived from the slowest accepted case
    (the least of its runs: load only adds time), warned about near a rounding boundary."""
    given = package.limits.time_s
    if package.time_limit_given:
        return given, Check(TIMING, "time limit", True, f"{given:g} s, given by the package")
    row = slowest(accepted.to_pylist())
    if row is None:
        detail = f"no accepted submission was timed: {given:g} s assumed"
        return given, Check(TIMING, "time limit", False, detail)
    ms, m, res = least_ms(row) or 0.0, package.time_multiplier, package.time_resolution
    limit = derive_time_limit(ms, m, res)
    start = row.get("start_cpu_ms") or 0.0
    with_start = f", {start:.0f} ms of it its start-up" if start >= 1 else ""
    detail = (
        f"{limit:g} s derived: slowest accepted case {ms / 1000.0:.3f} s ({row['submission']}, "
        f"{row['case_id']}; the least of its runs{with_start}) x {m:g}, rounded up to a "
        f"multiple of {res:g} s"
    )
    boundary = near_boundary(ms, m, res)
    if boundary is None:
        return limit, Check(TIMING, "time limit", True, detail)
    detail += (
        f"; {ms / 1000.0 * m:.3f} s is within {NEAR_BOUNDARY:.0%} of the {boundary:g} s "
        "rounding boundary: a machine a little faster or slower derives another limit"
    )
    return limit, Check(TIMING, "time limit", True, detail, warning=True)


def _at_both(
    package: Package, sub: ExpectedSubmission, rules: Mapping[str, FolderRules] | None
) -> bool:
    """Whether `sub` is judged as problemtools judges a rejected submission: at the limit
    and, failing that, at limit x margin ("OK with extra time"), from one run at the
    higher limit (the legacy and 2023-07 formats, a folder's own expectation)."""
    own = rules is not None and not sub.listed and not package.scoring
    return own and sub.folder in FIRST_REJECTED and sub.folder != "accepted"


def _grade_all(package: Package, runs: Runs, labels: dict[str, list[str]]) -> tuple[float, Check]:
    """Grade every submission, side by side within a step: with a given limit, all in
    one step; else the accepted first (their slowest case derives the time limit), then
    every other. The time limit and its check."""
    given = package.time_limit_given
    accepted, rest, high = labels["accepted"], labels["rest"], labels["high"]
    m = package.time_multiplier
    # the time an accepted case's time matters against: the limit / ac_to_time_limit
    # (its margin; the limit's floor, time_resolution, when derived), and when derived
    # the slowest accepted case so far (the limit comes from the slowest)
    floor_s = package.limits.time_s if given else package.time_resolution

    def matters_first(label: str) -> float:
        if label not in accepted:
            return package.limits.time_s  # graded at the given limit: AC near it
        return max(floor_s / m, 0.0 if given else runs.slowest_ms / 1000.0)

    if given:
        limit_s, limit_check = _time_limit(package, no_rows())
        runs.tell(f"time limit: {limit_check.detail}")
        margin = Phase(high, limit_s * package.time_safety_margin, "margin", lambda _: limit_s)
        runs.run(Phase(accepted + rest, limit_s, "accepted", matters_first), margin)
        return limit_s, limit_check
    runs.tell(f"measuring the time limit: accepted submissions at {MEASURE_LIMIT_S:g} s")
    first = runs.run(Phase(accepted, MEASURE_LIMIT_S, "accepted", matters_first))
    limit_s, limit_check = _time_limit(package, first)
    if first.num_rows == 0 and runs.unchecked:
        limit_check = Check(TIMING, "time limit", True, _NOT_CHECKED, skipped=True)
    runs.tell(f"time limit: {limit_check.detail}")
    tle_s = limit_s * package.time_safety_margin
    runs.run(
        Phase(rest, limit_s, "others", lambda _: limit_s),
        Phase(high, tle_s, "margin", lambda _: limit_s),
    )
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
    checks += statement_checks(package) + case_file_checks(package)
    checks += answer_checks(package, problem, options.fork_server)
    checks += invalid_checks(package, problem, options.fork_server)
    checks += junk_check(package, problem) + include_checks(package)
    python = python_for(package, options.python)
    runs = Runs(work / "corpus", specs_of(package, subs, checks, python), options, work)
    runs.cases = read_manifest(work / "corpus").count
    runs.address = executor(options.address, runs.cases * len(runs.specs))
    rules = folder_rules(package)
    labels = {id(s): label_of(package, s) for s in subs}
    runs.stops = {
        labels[id(s)]: rule
        for s in subs
        if (rule := stop_rule(package, s, rules, options.strict)) is not None
    }
    accepted = [labels[id(s)] for s in subs if s.folder == "accepted"]
    runs.ordered = {n for n, rule in runs.stops.items() if rule == REJECTED} - set(accepted)
    high = [labels[id(s)] for s in subs if s.required == UPPER or _at_both(package, s, rules)]
    rest = [labels[id(s)] for s in subs if labels[id(s)] not in accepted + high]
    with sigterm_interrupts(), Cluster(runs.address) as runs.cluster:  # for every grading run
        on_sigterm()  # ray.init replaced the handler
        limit_s, limit_check = _grade_all(
            package, runs, {"accepted": accepted, "rest": rest, "high": high}
        )
    results = pa.concat_tables(runs.tables) if runs.tables else no_rows()
    judged = _Judged(package, runs, by_submission(results), _scores(package, results), rules)
    for sub in subs:
        label = labels[id(sub)]
        checks += judged.submission(sub, label, limit_s, label in high, sub.required == UPPER)
    checks.append(limit_check)
    return Verification(package, limit_s, checks + judged.margins(limit_s), runs.workers)


@dataclass
class _Judged:
    """Each submission's checks from its rows (verify's last step)."""

    package: Package
    runs: Runs
    rows: dict[str, list[dict[str, Any]]]
    scores: dict[str, tuple[float, float]]
    rules: Mapping[str, FolderRules] | None
    margins_of: list[tuple[str, Callable[[list[dict[str, Any]], float], Check]]] = field(
        default_factory=list
    )

    def submission(
        self, sub: ExpectedSubmission, label: str, limit_s: float, high: bool, upper: bool
    ) -> list[Check]:
        """Its check (graded at limit x margin when `high`: judged at the limit, and at
        limit x margin where the format's tool looks there too); `upper`: it must get
        TLE, and its margin is checked."""
        own = self.rules is not None and not sub.listed
        if sub.folder == "accepted":
            m = self.package.time_multiplier
            self.margins_of.append((label, lambda r, s: accepted_margin(label, r, s, m)))
        if upper:
            k = self.package.time_safety_margin
            self.margins_of.append((label, lambda r, s: tle_margin(label, r, s, k, own)))
        if label in self.runs.unchecked:
            return [Check(SUBMISSION, label, True, _NOT_CHECKED, skipped=True)]
        if label not in self.runs.specs:
            return []
        if label in self.runs.faults:  # a fault of the judge, not of the submission
            detail = f"JE: grading it failed: {self.runs.faults[label]}"
            return [Check(SUBMISSION, label, False, detail)]
        rows = self.rows.get(label, [])
        seen = at_limit(rows, limit_s) if high else rows
        score = self.scores.get(label)
        check = judge_submission(sub, label, seen, score, self.rules, rows if high else None)
        note = self.runs.left_note(label)
        return [replace(check, detail=f"{check.detail}{note}") if note else check]

    def margins(self, limit_s: float) -> list[Check]:
        out = []
        for label, margin in self.margins_of:
            if label in self.runs.unchecked:
                out.append(Check(TIMING, f"margin {label}", True, _NOT_CHECKED, skipped=True))
            elif label in self.runs.specs and label not in self.runs.faults:
                out.append(margin(self.rows.get(label, []), limit_s))
        return out


def _scores(package: Package, results: pa.Table) -> dict[str, tuple[float, float]]:
    """submission -> (score, most it could score) on a scoring package, else nothing."""
    if not package.scoring or results.num_rows == 0:
        return {}
    policy = package_policy(results)
    if policy is None:
        return {}
    book = gradebook(results, policy).to_pylist()
    return {r["submission"]: (float(r["score"]), float(r["max_score"])) for r in book}
