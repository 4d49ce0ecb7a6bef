"""Regression comparison between two results tables (pure: tables in, tables out).

Side A is the baseline, side B the candidate; each side is one submission's rows of a
RESULTS_SCHEMA table (two runs, or two submissions of one run). `compare_results` returns
one row per case present on either side and one summary row per submission pair x problem
x family (plus a row over all families, family = null), and a whole-run verdict.

Rules (the defaults are in CompareOptions):
- Rows: the last attempt of each (submission, problem, case_id). A case whose row is JE on
  either side is excluded from everything and counted as `judge_error`. A case present on
  one side only is `only_a` / `only_b` (a change, never a flip).
- Flips: verdict A != verdict B. Kind `regression` = away from AC (AC -> anything but IE),
  `fix` = to AC (anything but IE -> AC), `other` = between two failures or involving IE
  (IE blames the case, not the program). `output_changed` = AC on both sides with a
  different output_sha256 (several valid answers).
- Timing compares only cases AC on both sides with the same batch_size (a batch's share
  is not comparable with a single run) and a time on both sides. Times are CPU ms by
  default (`metric="wall"` for wall-clock); times <= 1 us are raised to 1 us.
  time_ratio = B / A of the medians of the repeated timings; fastest_ratio = B / A of the
  fastest of them (the floor: what the code costs when nothing else interferes).
- Per case, with >= `min_repeats` timings on both sides: two-sided Mann-Whitney U p-value
  (as asv does); when both sides come from one run with as many (>= 6) timings, which
  `grade --repeat` interleaves A, B, A, B, the Wilcoxon signed-rank test of the paired
  differences instead (the pairs ran back to back, so a slow stretch of the machine hits
  both). Benjamini-Hochberg adjusted over all tested cases of the pair (q). A case
  is `slower` iff q < alpha AND ratio > factor AND fastest_ratio > factor; `faster` alike
  below 1/factor. Interference only ever adds time, so it moves medians but rarely the
  fastest run; code that really got slower moves both.
  `detectable_ratio`: the change such a test detects with 80 % power at level alpha, from
  the robust spread (IQR / 1.349) of both sides' log timings and the repeat counts.
- Per family (and over all families): the median of the per-case ratios with a seeded
  percentile-bootstrap interval (resampling cases). Test: the van Elteren test (Mann-Whitney
  stratified by case) when cases have repeats, else the Wilcoxon signed-rank test of the
  per-case log ratios (>= 6 cases), else none (`not tested`). p-values are BH-adjusted over
  the pair's rows. A family is `slower` iff q < alpha AND median ratio > factor AND the
  interval lies above 1 (the rank test on the repeats and the interval over cases agree)
  AND its fastest_ratio (the median over cases of theirs) > factor; `faster` alike below
  1/factor and 1. A uniform drift below the factor never counts,
  however significant.
- Noise. Repeats of a case run back to back, so they miss what slows a whole stretch of a
  run (another process on the sibling hyperthread: measured here, 10-35 % for a third of
  a run's cases). Per-case flags between two separate runs are therefore indicative only;
  the decisions are taken per family, whose median and interval resample cases and so
  carry that noise. In-process runs of a few milliseconds can be shifted whole (medians
  up to +80 % between two runs here, the fastest runs within 3 %): the fastest_ratio
  condition keeps such a shift from reading as a change. A family is `too_noisy`
  (inconclusive) when no change beyond the factor was found but its interval reaches
  beyond the factor or below its inverse: a change of the factor could have been missed.
  The comparison is too noisy when any row is. Grading both submissions in one run
  (`grade --repeat` interleaves them) removes run-to-run drift.
- Machine speed. With `grade --repeat`, every round of a case also times a fixed
  reference workload (pipeline/reference.py). Where both sides have it, timings are
  compared in its units (time / reference of that case): a stretch where the whole machine
  ran slower divides out (measured: whole runs 1.6x slower, reference 1.6x slower with
  them). machine_ratio = B / A of the reference; the reasons say so beyond +-5 %.
- Whole-run verdict: `regression` if any flip away from AC or any family (or all-families
  row) significantly slower; else `too noisy to conclude`; else `improvement` if any fix
  or significantly faster family; else `no change`. The gate `--fail-on regression` trips
  exactly on `regression`; `any-change` also on fixes, other flips, output changes, cases
  on one side only and faster families; JE cases never count.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import pandas as pd
import pyarrow as pa

from pipeline.compare.cases import (
    CASE_COLUMNS,
    CompareError,
    align,
    case_tests,
    objects_with_none,
    side_frame,
)
from pipeline.compare.families import summarize_pair

# machine_ratio this far from 1 is worth a line in the reasons
MACHINE_NOTE = 0.05

FailOn = Literal["regression", "any-change", "never"]
FAIL_ON_CHOICES: tuple[str, ...] = ("regression", "any-change", "never")


@dataclass(frozen=True)
class CompareOptions:
    metric: Literal["cpu", "wall"] = "cpu"
    alpha: float = 0.05
    factor: float = 1.1
    min_repeats: int = 5
    resamples: int = 2000
    confidence: float = 0.95
    seed: int = 0
    # CPU (or wall) limit per case in ms: one for every problem, or per problem name.
    time_limit_ms: float | dict[str, float] | None = None
    close_fraction: float = 0.8
    # Timings of rows taken from the result cache (measured by an earlier run) count too.
    include_cached: bool = False

    def __post_init__(self) -> None:
        if self.factor <= 1.0:
            raise CompareError(f"factor must be > 1 (got {self.factor})")
        if not 0.0 < self.alpha < 1.0:
            raise CompareError(f"alpha must be in (0, 1) (got {self.alpha})")
        if self.min_repeats < 2:
            raise CompareError(f"min_repeats must be >= 2 (got {self.min_repeats})")


@dataclass(frozen=True)
class RunVerdict:
    verdict: str  # "regression" | "too noisy to conclude" | "improvement" | "no change"
    regressions: int
    fixes: int
    other_flips: int
    output_changed: int
    slower_cases: int
    faster_cases: int
    slower_groups: int
    faster_groups: int
    only_a: int
    only_b: int
    judge_errors: int
    too_noisy: bool
    reasons: tuple[str, ...] = ()

    @property
    def significant_slowdown(self) -> bool:
        return self.slower_groups > 0

    @property
    def is_regression(self) -> bool:
        return self.regressions > 0 or self.significant_slowdown

    @property
    def any_change(self) -> bool:
        counts = (
            self.regressions,
            self.fixes,
            self.other_flips,
            self.output_changed,
            self.slower_groups,
            self.faster_groups,
            self.only_a,
            self.only_b,
        )
        return any(c > 0 for c in counts)

    def trips(self, fail_on: str) -> bool:
        """Whether the gate `--fail-on fail_on` fails this comparison."""
        if fail_on == "regression":
            return self.is_regression
        if fail_on == "any-change":
            return self.any_change
        if fail_on == "never":
            return False
        raise CompareError(f"--fail-on must be one of {', '.join(FAIL_ON_CHOICES)}")


@dataclass
class Comparison:
    cases: pd.DataFrame  # one row per (pair, problem, case_id); columns CASE_COLUMNS
    summary: pd.DataFrame  # one row per (pair, problem, family|None); SUMMARY_COLUMNS
    verdict: RunVerdict
    options: CompareOptions = field(default_factory=CompareOptions)


def _to_frame(results: pa.Table | pd.DataFrame) -> pd.DataFrame:
    if isinstance(results, pa.Table):
        return results.to_pandas()
    return results


def submissions_of(results: pa.Table | pd.DataFrame) -> list[str]:
    """The submission labels of a results table, in first-seen order."""
    return list(dict.fromkeys(_to_frame(results)["submission"].tolist()))


def compare_pair(
    results_a: pa.Table | pd.DataFrame,
    results_b: pa.Table | pd.DataFrame,
    submission_a: str,
    submission_b: str,
    options: CompareOptions | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Case table and summary rows of one submission pair (A = baseline)."""
    opts = options or CompareOptions()
    a = side_frame(_to_frame(results_a), submission_a, opts.metric, "A")
    b = side_frame(_to_frame(results_b), submission_b, opts.metric, "B")
    m = align(a, b, opts)
    case_tests(m, opts)
    m["submission_a"], m["submission_b"] = submission_a, submission_b
    m = m.sort_values(["problem", "family", "case_id"], kind="stable").reset_index(drop=True)
    seed = zlib.crc32(f"{submission_a}\0{submission_b}".encode()) ^ opts.seed
    summary = summarize_pair(m, opts, seed)
    m = m.rename(columns={"time_a": "time_a_ms", "time_b": "time_b_ms"})
    return objects_with_none(m[list(CASE_COLUMNS)]), objects_with_none(summary)


def compare_results(
    results_a: pa.Table | pd.DataFrame,
    results_b: pa.Table | pd.DataFrame | None,
    pairs: Sequence[tuple[str, str]],
    options: CompareOptions | None = None,
) -> Comparison:
    """Compare each (submission A, submission B) pair; `results_b` None compares two
    submissions of the same table."""
    opts = options or CompareOptions()
    if not pairs:
        raise CompareError("nothing to compare: no submission pair")
    other = results_a if results_b is None else results_b
    parts = [compare_pair(results_a, other, sa, sb, opts) for sa, sb in pairs]
    cases = pd.concat([c for c, _ in parts], ignore_index=True)
    summary = pd.concat([s for _, s in parts], ignore_index=True)
    return Comparison(
        cases=cases, summary=summary, verdict=run_verdict(cases, summary), options=opts
    )


def run_verdict(cases: pd.DataFrame, summary: pd.DataFrame) -> RunVerdict:
    """The whole-comparison verdict from the case and summary tables (rules: module doc)."""
    kinds = cases["flip_kind"].value_counts()
    status = cases["status"].value_counts()
    change = cases["timing_change"].value_counts()
    groups = summary["timing_change"].value_counts()
    too_noisy = bool(summary["too_noisy"].any())
    counts: dict[str, int] = {
        "regressions": int(kinds.get("regression", 0)),
        "fixes": int(kinds.get("fix", 0)),
        "other_flips": int(kinds.get("other", 0)),
        "output_changed": int(cases["output_changed"].sum()),
        "slower_cases": int(change.get("slower", 0)),
        "faster_cases": int(change.get("faster", 0)),
        "slower_groups": int(groups.get("slower", 0)),
        "faster_groups": int(groups.get("faster", 0)),
        "only_a": int(status.get("only_a", 0)),
        "only_b": int(status.get("only_b", 0)),
        "judge_errors": int(status.get("judge_error", 0)),
    }
    reasons = _reasons(cases, summary, counts, too_noisy)
    if counts["regressions"] or counts["slower_groups"]:
        label = "regression"
    elif too_noisy:
        label = "too noisy to conclude"
    elif counts["fixes"] or counts["faster_groups"]:
        label = "improvement"
    else:
        label = "no change"
    return RunVerdict(verdict=label, too_noisy=too_noisy, reasons=tuple(reasons), **counts)


def _reasons(
    cases: pd.DataFrame, summary: pd.DataFrame, counts: dict[str, int], too_noisy: bool
) -> list[str]:
    out: list[str] = []
    flips = cases["flip"].dropna().value_counts()
    if len(flips):
        listed = ", ".join(f"{k} x{v}" for k, v in flips.items())
        out.append(f"{int(flips.sum())} verdict flips ({listed})")
    if counts["output_changed"]:
        out.append(f"{counts['output_changed']} cases AC on both sides with a different output")
    for _, row in summary[summary["timing_change"].isin(["slower", "faster"])].iterrows():
        where = row["family"] if isinstance(row["family"], str) else "all families"
        out.append(
            f"{row['submission_b']} vs {row['submission_a']}, {row['problem']}/{where}: "
            f"{row['timing_change']}, median ratio {row['median_ratio']:.3f} "
            f"(CI {row['ci_low']:.3f}-{row['ci_high']:.3f}, q={row['q_value']:.2g})"
        )
    for kind in ("slower", "faster"):
        n = counts[f"{kind}_cases"]
        if n:
            out.append(f"{n} cases significantly {kind} on their own (listed; not the gate)")
    for key, text in (
        ("only_a", "cases only in A"),
        ("only_b", "cases only in B"),
        ("judge_errors", "cases excluded for a judge error (JE)"),
    ):
        if counts[key]:
            out.append(f"{counts[key]} {text}")
    for _, row in summary[summary["too_noisy"]].iterrows():
        where = row["family"] if isinstance(row["family"], str) else "all families"
        out.append(
            f"too noisy: {row['problem']}/{where} median ratio {row['median_ratio']:.3f} "
            f"with interval {row['ci_low']:.3f}-{row['ci_high']:.3f} reaching past the factor, "
            f"fastest runs {row['fastest_ratio']:.3f}"
        )
    overall = summary[summary["family"].isna()]
    for _, row in overall[(overall["machine_ratio"] - 1.0).abs() > MACHINE_NOTE].iterrows():
        out.append(
            f"machine: the reference workload took {row['machine_ratio']:.2f}x as long in B "
            f"as in A ({row['problem']}); timings were compared in its units"
        )
    untested = overall[(overall["timed"] > 0) & (overall["test"] == "none")]
    if len(untested):
        out.append(
            "timing not tested: too few timings (repeat each case >= min_repeats times "
            "or compare >= 6 timed cases)"
        )
    return out


def resolve_pairs(
    subs_a: Sequence[str],
    subs_b: Sequence[str] | None,
    submission_a: str | None,
    submission_b: str | None,
) -> list[tuple[str, str]]:
    """Which submissions to compare. One run (`subs_b` None): both names are required.
    Two runs: the names given; a missing B name defaults to A's name if run B has it, else
    to run B's only submission; with no names, each run's only submission, else every
    submission the two runs share."""
    if subs_b is None:
        if submission_a is None or submission_b is None:
            raise CompareError("comparing inside one run needs --submission-a and --submission-b")
        return [(submission_a, submission_b)]
    if submission_a is None and submission_b is None:
        if len(subs_a) == 1 and len(subs_b) == 1:
            return [(subs_a[0], subs_b[0])]
        shared = [s for s in subs_a if s in set(subs_b)]
        if not shared:
            raise CompareError(
                "the runs share no submission: name them with --submission-a/--submission-b"
            )
        return [(s, s) for s in shared]
    if submission_a is None:
        submission_a = _default_name(submission_b, subs_a, "A")
    if submission_b is None:
        submission_b = _default_name(submission_a, subs_b, "B")
    return [(submission_a, submission_b)]


def _default_name(name: str | None, subs: Sequence[str], side: str) -> str:
    if name in subs:
        return str(name)
    if len(subs) == 1:
        return subs[0]
    raise CompareError(
        f"run {side} has several submissions ({', '.join(subs)}): "
        f"name one with --submission-{side.lower()}"
    )
