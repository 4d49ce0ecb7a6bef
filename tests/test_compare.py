"""The pure comparison core on synthetic results tables."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from compare_synth import row, table, timed_rows
from hypothesis import given, settings
from hypothesis import strategies as hs

from pipeline.compare.options import FAIL_ON_CHOICES, CompareError, CompareOptions
from pipeline.compare.pair import compare_results, resolve_pairs

FAMILIES = ("small", "medium", "large", "edge")


def _cases(n: int) -> dict[str, str]:
    return {f"c{i:03d}": FAMILIES[i % len(FAMILIES)] for i in range(n)}


def _by_case(comparison, column: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return dict(zip(comparison.cases["case_id"], comparison.cases[column], strict=True))


def test_flips_are_listed_with_their_kind() -> None:
    a = [
        row("A", "c1", "f", "AC"),
        row("A", "c2", "f", "WA"),
        row("A", "c3", "f", "TLE"),
        row("A", "c4", "f", "AC"),
        row("A", "c5", "f", "IE"),
        row("A", "c6", "f", "AC"),
    ]
    b = [
        row("B", "c1", "f", "WA"),
        row("B", "c2", "f", "AC"),
        row("B", "c3", "f", "RE"),
        row("B", "c4", "f", "AC"),
        row("B", "c5", "f", "AC"),
        row("B", "c6", "f", "TLE"),
    ]
    c = compare_results(table(a), table(b), [("A", "B")])
    assert _by_case(c, "flip") == {
        "c1": "AC->WA",
        "c2": "WA->AC",
        "c3": "TLE->RE",
        "c4": None,
        "c5": "IE->AC",
        "c6": "AC->TLE",
    }
    kinds = _by_case(c, "flip_kind")
    assert kinds == {
        "c1": "regression",
        "c2": "fix",
        "c3": "other",
        "c4": None,
        "c5": "other",
        "c6": "regression",
    }
    assert c.verdict.regressions == 2 and c.verdict.fixes == 1 and c.verdict.other_flips == 2
    assert c.verdict.verdict == "regression"
    family = c.summary[c.summary["family"] == "f"].iloc[0]
    assert family["flips"] == "AC->TLE:1, AC->WA:1, IE->AC:1, TLE->RE:1, WA->AC:1"
    assert family["regressions"] == 2


def test_output_change_needs_both_sides_accepted_with_different_output() -> None:
    a = [row("A", "c1", "f", output="x"), row("A", "c2", "f", output="x")]
    a += [row("A", "c3", "f", "WA", output="x")]
    b = [row("B", "c1", "f", output="y"), row("B", "c2", "f", output="x")]
    b += [row("B", "c3", "f", "WA", output="y")]
    c = compare_results(table(a), table(b), [("A", "B")])
    assert _by_case(c, "output_changed") == {"c1": True, "c2": False, "c3": False}
    assert c.verdict.output_changed == 1
    assert not c.verdict.is_regression
    assert c.verdict.trips("any-change") and not c.verdict.trips("regression")


def test_thirty_percent_slower_subset_is_flagged_exactly() -> None:
    """All of family `large` and three cases of `small` are 30 % slower in B."""
    rng = np.random.default_rng(30)
    cases = _cases(80)
    slow = {cid for cid, fam in cases.items() if fam == "large"} | {"c000", "c004", "c008"}
    a = timed_rows("v1", cases, rng, repeats=12, sigma=0.05)
    b = timed_rows(
        "v2", cases, rng, repeats=12, sigma=0.05, slow=lambda c: 1.3 * (c in slow) or 1.0
    )
    comp = compare_results(table(a), table(b), [("v1", "v2")])
    changes = _by_case(comp, "timing_change")
    assert {c for c, ch in changes.items() if ch == "slower"} == slow
    assert all(ch == "same" for c, ch in changes.items() if c not in slow)
    fam = comp.summary.set_index(comp.summary["family"].fillna("(all)"))
    assert fam.loc["large", "timing_change"] == "slower"
    assert 1.2 < fam.loc["large", "ci_low"] < fam.loc["large", "median_ratio"] < 1.4
    for other in ("small", "medium", "edge"):
        assert fam.loc[other, "timing_change"] == "same"
    assert fam.loc["small", "slower_cases"] == 3
    assert fam.loc["(all)", "timing_change"] == "same"  # a quarter of the cases: median holds
    assert comp.verdict.verdict == "regression" and comp.verdict.trips("regression")
    assert comp.verdict.slower_cases == len(slow) and comp.verdict.slower_groups == 1


def test_a_faster_candidate_is_an_improvement_and_passes_the_gate() -> None:
    rng = np.random.default_rng(31)
    cases = _cases(40)
    a = timed_rows("v1", cases, rng, repeats=10, sigma=0.05)
    b = timed_rows("v2", cases, rng, repeats=10, sigma=0.05, slow=lambda _c: 0.6)
    comp = compare_results(table(a), table(b), [("v1", "v2")])
    overall = comp.summary[comp.summary["family"].isna()].iloc[0]
    assert overall["timing_change"] == "faster"
    assert overall["ci_high"] < 0.65
    assert comp.verdict.verdict == "improvement"
    assert not comp.verdict.trips("regression") and comp.verdict.trips("any-change")


def test_a_a_identical_distributions_twenty_times() -> None:
    no_change = 0
    for i in range(20):
        rng = np.random.default_rng(1000 + i)
        cases = _cases(60)
        a = timed_rows("s", cases, rng, repeats=10, sigma=0.05, run_id="a")
        b = timed_rows("s", cases, rng, repeats=10, sigma=0.05, run_id="b")
        comp = compare_results(table(a), table(b), [("s", "s")], CompareOptions(seed=i))
        assert not comp.verdict.too_noisy
        no_change += comp.verdict.verdict == "no change"
    assert no_change >= 19


def test_a_uniform_drift_below_the_factor_is_not_a_regression() -> None:
    """A 5 % drift over every case is highly significant but below the 1.1 factor."""
    rng = np.random.default_rng(32)
    cases = _cases(60)
    a = timed_rows("s", cases, rng, repeats=10, sigma=0.02)
    b = timed_rows("s", cases, rng, repeats=10, sigma=0.02, slow=lambda _c: 1.05)
    comp = compare_results(table(a), table(b), [("s", "s")])
    overall = comp.summary[comp.summary["family"].isna()].iloc[0]
    assert overall["p_value"] < 1e-6
    assert overall["timing_change"] == "same"
    assert comp.verdict.verdict == "no change"
    # with a smaller factor the same data is a regression
    strict = compare_results(table(a), table(b), [("s", "s")], CompareOptions(factor=1.03))
    assert strict.verdict.verdict == "regression"


def test_a_significant_shift_whose_interval_reaches_1_is_inconclusive() -> None:
    """Half the cases 50 % slower (a stretch of run B slowed by something else looks like
    this): the rank test on the repeats is sure and the median ratio is past the factor,
    but resampling the cases reaches a ratio of 1: not a slowdown, and not 'no change'."""
    rng = np.random.default_rng(38)
    cases = {f"c{i:02d}": "f" for i in range(12)}
    a = timed_rows("s", cases, rng, repeats=10, sigma=0.02)
    b = timed_rows(
        "s", cases, rng, repeats=10, sigma=0.02, slow=lambda c: 1.5 if c < "c06" else 1.0
    )
    comp = compare_results(table(a), table(b), [("s", "s")])
    fam = comp.summary.iloc[0]
    assert fam["p_value"] < 1e-6 and fam["median_ratio"] > 1.1
    assert fam["ci_low"] < 1.0
    assert fam["timing_change"] == "same" and fam["too_noisy"]
    assert comp.verdict.verdict == "too noisy to conclude"
    assert not comp.verdict.trips("regression")


def test_noisy_timings_are_too_noisy_to_conclude() -> None:
    rng = np.random.default_rng(33)
    cases = _cases(40)
    a = timed_rows("s", cases, rng, repeats=6, sigma=0.4)
    b = timed_rows("s", cases, rng, repeats=6, sigma=0.4)
    comp = compare_results(table(a), table(b), [("s", "s")])
    assert comp.verdict.too_noisy
    assert comp.verdict.verdict == "too noisy to conclude"
    assert not comp.verdict.trips("regression")
    assert (comp.cases["detectable_ratio"] > 1.1).mean() > 0.9


def test_interleaved_repeats_of_one_run_are_paired() -> None:
    """The machine's speed drifts from repeat to repeat (shared by the A and B timings that
    ran back to back): the paired test sees B's 25 % through it, Mann-Whitney cannot."""
    rng = np.random.default_rng(39)
    a_rows, b_rows = [], []
    for i in range(12):
        drift = rng.lognormal(0.0, 0.3, size=9)  # one machine state per A/B pair
        base = 20.0 + i
        a = base * drift * rng.lognormal(0.0, 0.01, size=9)
        b = 1.25 * base * drift * rng.lognormal(0.0, 0.01, size=9)
        a_rows.append(row("x", f"c{i:02d}", "f", runs=a.tolist(), run_id="r1"))
        b_rows.append(row("y", f"c{i:02d}", "f", runs=b.tolist(), run_id="r1"))
    one_run = compare_results(table(a_rows + b_rows), None, [("x", "y")])
    assert set(one_run.cases["case_test"]) == {"signed-rank"}
    assert set(one_run.cases["timing_change"]) == {"slower"}
    assert (one_run.cases["detectable_ratio"] < 1.1).all()
    for r in b_rows:
        r["run_id"] = "r2"  # the same timings, claimed to come from another run
    two_runs = compare_results(table(a_rows), table(b_rows), [("x", "y")])
    assert set(two_runs.cases["case_test"]) == {"mann-whitney"}
    assert "slower" not in set(two_runs.cases["timing_change"])
    assert two_runs.cases["detectable_ratio"].median() > 1.25


def test_single_timings_use_the_wilcoxon_test_across_cases() -> None:
    rng = np.random.default_rng(34)
    cases = {f"c{i:02d}": "f" for i in range(40)}
    a = timed_rows("s", cases, rng, repeats=1, sigma=0.03)
    b = timed_rows("s", cases, rng, repeats=1, sigma=0.03, slow=lambda _c: 1.3)
    comp = compare_results(table(a), table(b), [("s", "s")])
    fam = comp.summary.iloc[0]
    assert fam["test"] == "wilcoxon" and fam["timing_change"] == "slower"
    assert set(comp.cases["timing_change"]) == {"not tested"}
    assert comp.verdict.verdict == "regression"
    few = compare_results(table(a[:3]), table(b[:3]), [("s", "s")])
    assert few.summary.iloc[0]["test"] == "none"
    assert few.summary.iloc[0]["timing_change"] == "not tested"
    assert few.verdict.verdict == "no change"
    assert any("timing not tested" in r for r in few.verdict.reasons)


def test_judge_errors_are_excluded_and_counted() -> None:
    a = [row("A", "c1", "f", "AC"), row("A", "c2", "f", "JE"), row("A", "c3", "f", "AC")]
    b = [row("B", "c1", "f", "JE"), row("B", "c2", "f", "WA"), row("B", "c3", "f", "AC")]
    comp = compare_results(table(a), table(b), [("A", "B")])
    assert _by_case(comp, "status") == {"c1": "judge_error", "c2": "judge_error", "c3": "both"}
    assert comp.cases["flip"].isna().all()
    assert comp.verdict.judge_errors == 2
    assert comp.verdict.verdict == "no change"
    assert not comp.verdict.trips("any-change")
    fam = comp.summary.iloc[0]
    assert fam["judge_errors"] == 2 and fam["cases"] == 1


def test_the_last_attempt_counts() -> None:
    a = [row("A", "c1", "f", "AC")]
    b = [row("B", "c1", "f", "AC", attempt=2), row("B", "c1", "f", "JE", attempt=1)]
    comp = compare_results(table(a), table(b), [("A", "B")])
    assert len(comp.cases) == 1 and comp.cases.iloc[0]["status"] == "both"


def test_one_sided_cases_are_changes_but_not_regressions() -> None:
    a = [row("A", "c1", "f"), row("A", "c2", "f")]
    b = [row("B", "c1", "f"), row("B", "c3", "g")]
    comp = compare_results(table(a), table(b), [("A", "B")])
    assert _by_case(comp, "status") == {"c1": "both", "c2": "only_a", "c3": "only_b"}
    assert _by_case(comp, "family") == {"c1": "f", "c2": "f", "c3": "g"}
    assert comp.verdict.only_a == 1 and comp.verdict.only_b == 1
    assert comp.verdict.trips("any-change") and not comp.verdict.trips("regression")


def test_different_batch_sizes_are_not_timed() -> None:
    runs = [10.0] * 6
    a = [row("A", "c1", "f", runs=runs), row("A", "c2", "f", runs=runs, batch_size=8)]
    b = [row("B", "c1", "f", runs=[20.0] * 6), row("B", "c2", "f", runs=[20.0] * 6)]
    comp = compare_results(table(a), table(b), [("A", "B")])
    assert _by_case(comp, "timing_change") == {"c1": "slower", "c2": None}
    assert _by_case(comp, "time_ratio") == {"c1": 2.0, "c2": 2.0}


@pytest.mark.parametrize(
    ("verdict_b", "factor_b", "expected"),
    [
        ("WA", 1.0, {"regression": True, "any-change": True, "never": False}),  # AC -> WA
        ("AC", 1.5, {"regression": True, "any-change": True, "never": False}),  # slowdown
        ("AC", 0.5, {"regression": False, "any-change": True, "never": False}),  # speedup
        ("AC", 1.0, {"regression": False, "any-change": False, "never": False}),  # nothing
        ("AC", 1.05, {"regression": False, "any-change": False, "never": False}),  # < factor
    ],
)
def test_fail_on_gates(verdict_b: str, factor_b: float, expected: dict[str, bool]) -> None:
    rng = np.random.default_rng(35)
    cases = {f"c{i}": "f" for i in range(10)}
    a = timed_rows("A", cases, rng, repeats=10, sigma=0.01)
    b = timed_rows("B", cases, rng, repeats=10, sigma=0.01, slow=lambda _c: factor_b)
    b[0]["verdict"] = verdict_b
    comp = compare_results(table(a), table(b), [("A", "B")])
    assert set(expected) == set(FAIL_ON_CHOICES)  # every gate the options offer is decided
    assert {gate: comp.verdict.trips(gate) for gate in expected} == expected
    assert not comp.verdict.too_noisy
    with pytest.raises(CompareError):
        comp.verdict.trips("sometimes")


def test_a_few_slower_cases_are_listed_but_do_not_trip_the_gate() -> None:
    """Three of 30 cases 30 % slower: flagged one by one; the family's median ratio does
    not move, so the gate (decided per family, robust to a stretch of a run being slowed
    by something else) does not trip."""
    rng = np.random.default_rng(36)
    cases = {f"c{i:02d}": "f" for i in range(30)}
    slow = {"c03", "c11", "c20"}
    a = timed_rows("A", cases, rng, repeats=10, sigma=0.03)
    b = timed_rows("B", cases, rng, repeats=10, sigma=0.03, slow=lambda c: 1.3 * (c in slow) or 1.0)
    comp = compare_results(table(a), table(b), [("A", "B")])
    changes = _by_case(comp, "timing_change")
    assert {c for c, ch in changes.items() if ch == "slower"} == slow
    assert comp.verdict.slower_cases == 3 and comp.verdict.slower_groups == 0
    assert not comp.verdict.trips("regression")
    assert any("3 cases significantly slower" in r for r in comp.verdict.reasons)


def test_a_slowed_stretch_of_one_run_is_not_a_regression() -> None:
    """A/A where a third of run B's cases (consecutive in time) ran 25 % slower because of
    something else on the machine: the family decision stays calm."""
    rng = np.random.default_rng(37)
    cases = {f"c{i:02d}": "f" for i in range(30)}
    a = timed_rows("s", cases, rng, repeats=5, sigma=0.02)
    b = timed_rows(
        "s", cases, rng, repeats=5, sigma=0.02, slow=lambda c: 1.25 if "c10" <= c < "c20" else 1.0
    )
    comp = compare_results(table(a), table(b), [("s", "s")])
    assert not comp.verdict.trips("regression")
    assert comp.verdict.slower_groups == 0


def test_a_fix_alone_does_not_trip_the_regression_gate() -> None:
    comp = compare_results(
        table([row("A", "c1", "f", "WA")]), table([row("B", "c1", "f", "AC")]), [("A", "B")]
    )
    assert comp.verdict.verdict == "improvement"
    assert not comp.verdict.trips("regression") and comp.verdict.trips("any-change")


def test_close_to_the_limit() -> None:
    a = [row("A", "c1", "f", runs=[50.0]), row("A", "c2", "f", runs=[900.0])]
    a += [row("A", "c3", "f", "TLE", runs=[1000.0])]
    b = [row("B", "c1", "f", runs=[850.0]), row("B", "c2", "f", runs=[100.0])]
    b += [row("B", "c3", "f", "TLE", runs=[1000.0])]
    comp = compare_results(table(a), table(b), [("A", "B")], CompareOptions(time_limit_ms=1000))
    assert _by_case(comp, "close_to_limit") == {"c1": True, "c2": True, "c3": False}
    assert _by_case(comp, "limit_frac_b")["c1"] == pytest.approx(0.85)
    plain = compare_results(table(a), table(b), [("A", "B")])
    assert not plain.cases["close_to_limit"].any()
    per_problem = CompareOptions(time_limit_ms={"spot": 1000.0, "mine": 1.0})
    again = compare_results(table(a), table(b), [("A", "B")], per_problem)
    assert again.cases["close_to_limit"].tolist() == comp.cases["close_to_limit"].tolist()
    other = CompareOptions(time_limit_ms={"mine": 1.0})
    assert (
        not compare_results(table(a), table(b), [("A", "B")], other).cases["close_to_limit"].any()
    )


def test_two_submissions_of_one_run_and_several_pairs() -> None:
    rows = [row("x", "c1", "f", "AC"), row("y", "c1", "f", "WA"), row("z", "c1", "f", "AC")]
    comp = compare_results(table(rows), None, [("x", "y"), ("x", "z")])
    assert comp.cases[["submission_b", "flip"]].values.tolist() == [["y", "AC->WA"], ["z", None]]
    with pytest.raises(CompareError, match="no results for 'w'"):
        compare_results(table(rows), None, [("x", "w")])


def test_resolve_pairs() -> None:
    assert resolve_pairs(["a"], ["b"], None, None) == [("a", "b")]
    assert resolve_pairs(["a", "b"], ["b", "c", "a"], None, None) == [("a", "a"), ("b", "b")]
    assert resolve_pairs(["a", "b"], ["b"], "a", None) == [("a", "b")]
    assert resolve_pairs(["a", "b"], ["a", "b"], "b", None) == [("b", "b")]
    assert resolve_pairs(["a", "b"], None, "a", "b") == [("a", "b")]
    with pytest.raises(CompareError, match="--submission-a and --submission-b"):
        resolve_pairs(["a", "b"], None, "a", None)
    with pytest.raises(CompareError, match="share no submission"):
        resolve_pairs(["a", "b"], ["c", "d"], None, None)
    with pytest.raises(CompareError, match="several submissions"):
        resolve_pairs(["a"], ["c", "d"], "a", None)


def test_options_are_checked() -> None:
    with pytest.raises(CompareError):
        CompareOptions(factor=1.0)
    with pytest.raises(CompareError):
        CompareOptions(alpha=1.5)
    with pytest.raises(CompareError, match="metric"):
        CompareOptions(metric="gpu")  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(
    verdicts=hs.lists(
        hs.tuples(hs.sampled_from(["AC", "WA", "TLE", "RE"]), hs.sampled_from(["AC", "WA", "TLE"])),
        min_size=1,
        max_size=12,
    ),
    seed=hs.integers(0, 2**16),
)
@pytest.mark.slow
def test_swapping_sides_mirrors_the_comparison(verdicts: list[tuple[str, str]], seed: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = [], []
    for i, (va, vb) in enumerate(verdicts):
        a.append(row("A", f"c{i}", "f", va, runs=rng.lognormal(2, 0.1, 6).tolist()))
        b.append(row("B", f"c{i}", "f", vb, runs=rng.lognormal(2, 0.1, 6).tolist()))
    ab = compare_results(table(a), table(b), [("A", "B")]).cases
    ba = compare_results(table(b), table(a), [("B", "A")]).cases
    mirror = {"regression": "fix", "fix": "regression", "other": "other", None: None}
    assert [mirror[k] for k in ab["flip_kind"]] == list(ba["flip_kind"])
    assert np.allclose(ab["time_ratio"] * ba["time_ratio"], 1.0)
    assert np.allclose(ab["p_value"], ba["p_value"], equal_nan=True)
    swap = {"slower": "faster", "faster": "slower"}
    assert [swap.get(x, x) for x in ab["timing_change"]] == list(ba["timing_change"])


def _interfered(rows: list[dict[str, object]], factor: float, keep: int) -> None:
    """Every timing but each case's `keep` fastest made `factor` x slower: what something
    else running during the whole of a short run does (it only ever adds time)."""
    for r in rows:
        runs = sorted(r["cpu_ms_runs"])  # type: ignore[arg-type]
        r["cpu_ms_runs"] = runs[:keep] + [x * factor for x in runs[keep:]]
        r["cpu_ms"] = float(np.median(r["cpu_ms_runs"]))


def test_a_run_shifted_whole_by_interference_is_not_a_change() -> None:
    """A/A where run B's medians moved 1.5x but its fastest runs did not: not slower, and
    the comparison says it was too noisy to conclude, in the case table and its reasons."""
    rng = np.random.default_rng(41)
    cases = {f"c{i:02d}": "f" for i in range(16)}
    a = timed_rows("s", cases, rng, repeats=7, sigma=0.02, run_id="a")
    b = timed_rows("s", cases, rng, repeats=7, sigma=0.02, run_id="b")
    _interfered(b, 1.5, keep=2)
    comp = compare_results(table(a), table(b), [("s", "s")])
    assert set(_by_case(comp, "timing_change").values()) == {"same"}
    fastest = _by_case(comp, "fastest_ratio")
    assert all(0.9 < float(x) < 1.1 for x in fastest.values())  # type: ignore[arg-type]
    assert comp.verdict.verdict == "too noisy to conclude"
    assert not comp.verdict.trips("regression")
    assert any("fastest runs" in reason for reason in comp.verdict.reasons)


def test_a_real_slowdown_moves_the_fastest_runs_too_and_is_a_regression() -> None:
    rng = np.random.default_rng(42)
    cases = {f"c{i:02d}": "f" for i in range(16)}
    a = timed_rows("s", cases, rng, repeats=7, sigma=0.02, run_id="a")
    b = timed_rows("s", cases, rng, repeats=7, sigma=0.02, run_id="b", slow=lambda _c: 1.5)
    comp = compare_results(table(a), table(b), [("s", "s")])
    assert set(_by_case(comp, "timing_change").values()) == {"slower"}
    overall = comp.summary[comp.summary["family"].isna()].iloc[0]
    assert overall["timing_change"] == "slower" and 1.4 < overall["fastest_ratio"] < 1.6
    assert comp.verdict.verdict == "regression"


def test_a_whole_run_on_a_slower_machine_divides_out_with_the_reference() -> None:
    """Run B ran 1.6x slower throughout, its reference workload too: no change, and the
    reasons say the machine moved. Without the reference the same timings are a
    regression."""
    rng = np.random.default_rng(43)
    cases = {f"c{i:02d}": "f" for i in range(16)}
    a = timed_rows("s", cases, rng, repeats=7, sigma=0.02, run_id="a")
    b = timed_rows("s", cases, rng, repeats=7, sigma=0.02, run_id="b", slow=lambda _c: 1.6)
    bare = compare_results(table(a), table(b), [("s", "s")])
    assert bare.verdict.verdict == "regression"
    for r in a:
        r["reference_ms"] = 0.046 * float(rng.lognormal(0.0, 0.02))
    for r in b:
        r["reference_ms"] = 0.046 * 1.6 * float(rng.lognormal(0.0, 0.02))
    comp = compare_results(table(a), table(b), [("s", "s")])
    overall = comp.summary[comp.summary["family"].isna()].iloc[0]
    assert 1.5 < overall["machine_ratio"] < 1.7 and 0.9 < overall["median_ratio"] < 1.1
    assert comp.verdict.verdict in ("no change", "too noisy to conclude")
    assert not comp.verdict.trips("regression")
    assert any(reason.startswith("machine: ") for reason in comp.verdict.reasons)
    assert set(_by_case(comp, "time_ratio").keys()) == set(cases)
    raw = _by_case(comp, "time_b_ms")  # shown as measured, not in reference units
    assert all(float(raw[c]) > 1.5 * float(_by_case(comp, "time_a_ms")[c]) for c in cases)  # type: ignore[arg-type]


def _scaled_rows(
    cases: dict[str, str], scale: float, runner: str | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """v1 and v2 (30 % slower on every case), the synthetic base times (5-205 ms) times
    `scale`, timed by `runner`."""
    rng = np.random.default_rng(7)
    a = timed_rows("v1", cases, rng, repeats=12, sigma=0.02)
    b = timed_rows("v2", cases, rng, repeats=12, sigma=0.02, slow=lambda _c: 1.3)
    for r in a + b:
        r["cpu_ms_runs"] = [t * scale for t in r["cpu_ms_runs"]]
        r["cpu_ms"] = float(np.median(r["cpu_ms_runs"]))
        r["runner"] = runner
    return a, b


def test_a_case_change_of_microseconds_is_not_a_timing_change() -> None:
    """30 % slower on every case, but the cases take ~0.1 ms (a tiny case forked from a
    fork server): below min_change_ms a ratio is not a change, for a case or a family;
    with no floor it is."""
    cases = _cases(40)
    a, b = _scaled_rows(cases, 0.1 / 105.0, "fork-server")  # ~0.005-0.2 ms
    tiny = compare_results(table(a), table(b), [("v1", "v2")])
    assert set(_by_case(tiny, "timing_change").values()) == {"same"}
    assert set(tiny.summary["timing_change"]) == {"same"}  # families too
    assert not tiny.summary["too_noisy"].any()  # a change of the factor would be below the floor
    assert not tiny.verdict.trips("regression")
    big = compare_results(table(a), table(b), [("v1", "v2")], CompareOptions(min_change_ms=0.0))
    assert set(_by_case(big, "timing_change").values()) == {"slower"}
    assert set(big.summary["timing_change"]) == {"slower"}
    assert big.verdict.verdict == "regression"
