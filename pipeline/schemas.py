"""Every Arrow schema, the Verdict enum and SCHEMA_VERSION — defined here and nowhere else."""

from __future__ import annotations

from enum import Enum

import pyarrow as pa

SCHEMA_VERSION = 1


class Verdict(str, Enum):
    """Outcome of one submission on one case.

    IE: the case itself is bad (rejected by the problem's validator), not the program.
    JE: the judge failed (infrastructure); retried and never counted against a submission.
    """

    AC = "AC"  # accepted
    WA = "WA"  # wrong answer
    PE = "PE"  # presentation error: right tokens, wrong layout
    TLE = "TLE"  # time limit (CPU or wall clock)
    MLE = "MLE"  # memory limit
    RE = "RE"  # runtime error: non-zero exit or signal
    OLE = "OLE"  # output limit
    CE = "CE"  # compile error
    IE = "IE"  # input error: the case failed validation
    JE = "JE"  # judge error

    def __str__(self) -> str:
        return self.value


VERDICTS: tuple[str, ...] = tuple(v.value for v in Verdict)

# Verdicts that blame the program (used for pass rates; IE and JE are not its fault).
PROGRAM_VERDICTS: frozenset[str] = frozenset(VERDICTS) - {"IE", "JE"}

CORPUS_SCHEMA = pa.schema(
    [
        pa.field("case_id", pa.string(), nullable=False),
        pa.field("problem", pa.string(), nullable=False),
        pa.field("family", pa.string(), nullable=False),
        pa.field("input", pa.large_string(), nullable=False),
        pa.field("expected", pa.large_string(), nullable=True),
        pa.field("seed", pa.int64(), nullable=True),
        pa.field("params", pa.string(), nullable=True),
    ],
    metadata={"gridjudge.kind": "corpus", "gridjudge.schema_version": str(SCHEMA_VERSION)},
)

RESULTS_SCHEMA = pa.schema(
    [
        pa.field("run_id", pa.string(), nullable=False),
        pa.field("submission", pa.string(), nullable=False),
        pa.field("submission_sha", pa.string(), nullable=False),
        pa.field("problem", pa.string(), nullable=False),
        pa.field("case_id", pa.string(), nullable=False),
        pa.field("family", pa.string(), nullable=False),
        pa.field("verdict", pa.string(), nullable=False),
        pa.field("cpu_ms", pa.float64(), nullable=True),
        pa.field("wall_ms", pa.float64(), nullable=True),
        pa.field("peak_rss_kb", pa.int64(), nullable=True),
        pa.field("exit_code", pa.int32(), nullable=True),
        pa.field("signal", pa.int32(), nullable=True),
        pa.field("output_sha256", pa.string(), nullable=True),
        pa.field("output_head", pa.string(), nullable=True),
        pa.field("checker_msg", pa.string(), nullable=True),
        pa.field("attempt", pa.int32(), nullable=False),
        pa.field("node", pa.string(), nullable=True),
        pa.field("batch_size", pa.int32(), nullable=False),
        # Every timing of a `grade --repeat R` run, so that `compare` can test repeated
        # timings; cpu_ms/wall_ms hold their medians.
        pa.field("cpu_ms_runs", pa.list_(pa.float64()), nullable=True),
        pa.field("wall_ms_runs", pa.list_(pa.float64()), nullable=True),
        # with --repeat: the reference workload timed in the same rounds (pipeline/reference.py)
        pa.field("reference_ms", pa.float64(), nullable=True),
        # True: the row was taken from the result cache (pipeline/grade/cache.py), not
        # graded in this run; its timings were measured by an earlier one. False or null
        # (rows made without `grade`): graded fresh. Parts older than the column read False.
        pa.field("cached", pa.bool_(), nullable=True),
        # How the case was run: in-process, spawn, fork-server, or "spawn (<why>)" where
        # a fork server was asked for and could not serve (null: parts older than it).
        pa.field("runner", pa.string(), nullable=True),
        # A TLE's kind: "cpu" (over the CPU limit), "wall" (killed by the wall clock under
        # the CPU limit, again when run alone), "not-run" (the submission had --max-tle
        # TLEs already: the case was not run), "idle" (an interactive case whose two
        # sides waited for each other: ended early, not run again); null for other
        # verdicts and older parts.
        pa.field("tle_kind", pa.string(), nullable=True),
        # The case's score as its checker gave it, a fraction of the case's full score (a
        # package's score.txt, testlib points); null: by verdict (AC full, else nothing).
        pa.field("score", pa.float64(), nullable=True),
        # An interactive case's exchange (pipeline.program.relay.Transcript.render):
        # each direction's first and last KiB in the order they passed, `>` what the
        # submission wrote, `<` what the judge program wrote; null for other problems.
        pa.field("transcript", pa.string(), nullable=True),
        # The CPU a fork-served case was charged for its server's start-up (a native
        # program's pre-main work, an interpreter's own start-up), beside cpu_ms: a
        # spawned run pays it in every run, inside cpu_ms (0 here). Null: rows without
        # a program (in-process, not run) and older parts.
        pa.field("start_cpu_ms", pa.float64(), nullable=True),
    ],
    metadata={"gridjudge.kind": "results", "gridjudge.schema_version": str(SCHEMA_VERSION)},
)

SUMMARY_SCHEMA = pa.schema(
    [
        pa.field("submission", pa.string(), nullable=False),
        pa.field("problem", pa.string(), nullable=False),
        # null family: the row over all families of that submission x problem
        pa.field("family", pa.string(), nullable=True),
        pa.field("cases", pa.int64(), nullable=False),
        *[pa.field(f"n_{v}", pa.int64(), nullable=False) for v in VERDICTS],
        pa.field("pass_rate", pa.float64(), nullable=True),
        pa.field("cpu_ms_p50", pa.float64(), nullable=True),
        pa.field("cpu_ms_p95", pa.float64(), nullable=True),
        pa.field("cpu_ms_max", pa.float64(), nullable=True),
        pa.field("first_failing_case", pa.string(), nullable=True),
    ],
    metadata={"gridjudge.kind": "summary", "gridjudge.schema_version": str(SCHEMA_VERSION)},
)

# `gridjudge compare`: one row per (submission pair, case) in compare.parquet; the rules
# behind each column are documented in pipeline/compare.py.
COMPARE_SCHEMA = pa.schema(
    [
        pa.field("submission_a", pa.string(), nullable=False),
        pa.field("submission_b", pa.string(), nullable=False),
        pa.field("problem", pa.string(), nullable=False),
        pa.field("family", pa.string(), nullable=False),
        pa.field("case_id", pa.string(), nullable=False),
        # both | only_a | only_b | judge_error (JE on either side: excluded)
        pa.field("status", pa.string(), nullable=False),
        pa.field("verdict_a", pa.string(), nullable=True),
        pa.field("verdict_b", pa.string(), nullable=True),
        pa.field("flip", pa.string(), nullable=True),  # e.g. "AC->WA"
        pa.field("flip_kind", pa.string(), nullable=True),  # regression | fix | other
        pa.field("output_changed", pa.bool_(), nullable=False),
        pa.field("time_a_ms", pa.float64(), nullable=True),
        pa.field("time_b_ms", pa.float64(), nullable=True),
        pa.field("time_ratio", pa.float64(), nullable=True),  # B / A
        pa.field("fastest_ratio", pa.float64(), nullable=True),  # B / A of the fastest runs
        pa.field("machine_ratio", pa.float64(), nullable=True),  # B / A of reference_ms
        pa.field("n_runs_a", pa.int32(), nullable=False),
        pa.field("n_runs_b", pa.int32(), nullable=False),
        # mann-whitney | signed-rank (interleaved repeats of one run) | null (not tested)
        pa.field("case_test", pa.string(), nullable=True),
        pa.field("p_value", pa.float64(), nullable=True),  # two-sided
        pa.field("q_value", pa.float64(), nullable=True),  # Benjamini-Hochberg adjusted
        # slower | faster | same | not tested (no repeats) | null (not timed)
        pa.field("timing_change", pa.string(), nullable=True),
        pa.field("detectable_ratio", pa.float64(), nullable=True),
        pa.field("batch_size_a", pa.int32(), nullable=True),
        pa.field("batch_size_b", pa.int32(), nullable=True),
        pa.field("limit_frac_a", pa.float64(), nullable=True),
        pa.field("limit_frac_b", pa.float64(), nullable=True),
        pa.field("close_to_limit", pa.bool_(), nullable=False),
    ],
    metadata={"gridjudge.kind": "compare", "gridjudge.schema_version": str(SCHEMA_VERSION)},
)

# One row per submission pair x problem x family (family null: all families).
COMPARE_SUMMARY_SCHEMA = pa.schema(
    [
        pa.field("submission_a", pa.string(), nullable=False),
        pa.field("submission_b", pa.string(), nullable=False),
        pa.field("problem", pa.string(), nullable=False),
        pa.field("family", pa.string(), nullable=True),
        *[
            pa.field(name, pa.int64(), nullable=False)
            for name in ("cases", "only_a", "only_b", "judge_errors")
        ],
        pa.field("flips", pa.string(), nullable=False),  # "AC->WA:3, TLE->AC:1"
        *[
            pa.field(name, pa.int64(), nullable=False)
            for name in ("regressions", "fixes", "other_flips", "output_changed", "timed", "tested")
        ],
        pa.field("median_ratio", pa.float64(), nullable=True),
        pa.field("fastest_ratio", pa.float64(), nullable=True),
        pa.field("machine_ratio", pa.float64(), nullable=True),
        pa.field("ci_low", pa.float64(), nullable=True),
        pa.field("ci_high", pa.float64(), nullable=True),
        pa.field("test", pa.string(), nullable=False),  # van-elteren | wilcoxon | none
        pa.field("p_value", pa.float64(), nullable=True),
        pa.field("q_value", pa.float64(), nullable=True),
        pa.field("timing_change", pa.string(), nullable=True),
        pa.field("detectable_ratio", pa.float64(), nullable=True),
        pa.field("too_noisy", pa.bool_(), nullable=False),
        *[
            pa.field(name, pa.int64(), nullable=False)
            for name in ("slower_cases", "faster_cases", "close_to_limit")
        ],
    ],
    metadata={
        "gridjudge.kind": "compare_summary",
        "gridjudge.schema_version": str(SCHEMA_VERSION),
    },
)


def _strength(kind: str, fields: list[pa.Field]) -> pa.Schema:
    return pa.schema(
        fields,
        metadata={"gridjudge.kind": kind, "gridjudge.schema_version": str(SCHEMA_VERSION)},
    )


# `gridjudge strength` (docs/strength.md): the kill matrix, one row per (program, case)
STRENGTH_MATRIX_SCHEMA = _strength(
    "strength_matrix",
    [
        pa.field("program", pa.string(), nullable=False),
        pa.field("kind", pa.string(), nullable=False),  # wrong | rejected | example | mutant
        pa.field("case_id", pa.string(), nullable=False),
        pa.field("family", pa.string(), nullable=False),
        pa.field("verdict", pa.string(), nullable=False),
        pa.field("cpu_ms", pa.float64(), nullable=True),
        pa.field("killed", pa.bool_(), nullable=False),
        # False: a TLE row of a program that had --max-tle TLEs already (not run, no kill)
        pa.field("ran", pa.bool_(), nullable=False),
    ],
)
STRENGTH_PROGRAMS_SCHEMA = _strength(
    "strength_programs",
    [
        pa.field("program", pa.string(), nullable=False),
        pa.field("kind", pa.string(), nullable=False),
        pa.field("origin", pa.string(), nullable=False),
        pa.field("kills", pa.int64(), nullable=False),
        pa.field("first_kill", pa.string(), nullable=True),  # null: a survivor
    ],
)
STRENGTH_CASES_SCHEMA = _strength(
    "strength_cases",
    [
        pa.field("case_id", pa.string(), nullable=False),
        pa.field("family", pa.string(), nullable=False),
        pa.field("kills", pa.int64(), nullable=False),
        pa.field("cpu_ms", pa.float64(), nullable=False),  # the population's, summed
        pa.field("minimal", pa.bool_(), nullable=False),
        pa.field("minimal_cpu", pa.bool_(), nullable=False),
    ],
)
STRENGTH_FAMILIES_SCHEMA = _strength(
    "strength_families",
    [
        pa.field("family", pa.string(), nullable=False),
        pa.field("cases", pa.int64(), nullable=False),
        pa.field("kills", pa.int64(), nullable=False),
        pa.field("programs_killed", pa.int64(), nullable=False),
    ],
)
