"""summarize / write_summary / the terminal table, on synthetic results tables."""

from __future__ import annotations

import io
import statistics
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from pipeline.report.terminal import graded_line, print_summary
from pipeline.results.store import (
    summarize,
    write_results_part,
    write_summary,
)
from pipeline.results.summary import SummaryError
from pipeline.schemas import PROGRAM_VERDICTS, RESULTS_SCHEMA, SUMMARY_SCHEMA, VERDICTS
from tests.result_rows import result_row
from tests.run_summary import read_summary

_row = result_row


def _table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=RESULTS_SCHEMA)


def _by_key(summary: pa.Table) -> dict[tuple[str, str, str | None], dict[str, Any]]:
    return {(r["submission"], r["problem"], r["family"]): r for r in summary.to_pylist()}


ROWS = [
    _row("a.cpp", "big/0000002", "WA", 4.0),
    _row("a.cpp", "big/0000001", "AC", 2.0),
    _row("a.cpp", "big/0000003", "TLE", 1000.0),
    _row("a.cpp", "small/0000001", "AC", 1.0),
    _row("a.cpp", "small/0000002", "IE", None),
    _row("a.cpp", "small/0000003", "JE", None),
    _row("b.py", "big/0000001", "AC", 10.0),
    _row("b.py", "big/0000002", "AC", 20.0),
    _row("b.py", "big/0000003", "AC", 30.0),
    _row("b.py", "small/0000001", "CE", None),
]


def test_summary_counts_rates_and_first_failure() -> None:
    summary = summarize(_table(ROWS))
    assert summary.schema.equals(SUMMARY_SCHEMA)
    rows = _by_key(summary)
    assert set(rows) == {
        ("a.cpp", "spot", None),
        ("a.cpp", "spot", "big"),
        ("a.cpp", "spot", "small"),
        ("b.py", "spot", None),
        ("b.py", "spot", "big"),
        ("b.py", "spot", "small"),
    }
    a = rows[("a.cpp", "spot", None)]
    assert a["cases"] == 6
    assert (a["n_AC"], a["n_WA"], a["n_TLE"], a["n_IE"], a["n_JE"]) == (2, 1, 1, 1, 1)
    assert sum(a[f"n_{v}"] for v in VERDICTS) == a["cases"]
    # IE and JE are excluded: 2 AC out of 4 program verdicts
    assert a["pass_rate"] == pytest.approx(0.5)
    # first failing in case_id order, not row order; IE/JE are not failures
    assert a["first_failing_case"] == "big/0000002"
    assert a["cpu_ms_max"] == 1000.0
    assert a["cpu_ms_p50"] == pytest.approx(3.0)  # median of 1, 2, 4, 1000
    small = rows[("a.cpp", "spot", "small")]
    assert small["pass_rate"] == 1.0 and small["first_failing_case"] is None
    b = rows[("b.py", "spot", None)]
    assert b["pass_rate"] == pytest.approx(0.75)
    assert b["first_failing_case"] == "small/0000001"
    assert b["cpu_ms_p95"] == pytest.approx(29.0)  # linear between 20 and 30
    b_small = rows[("b.py", "spot", "small")]
    assert b_small["pass_rate"] == 0.0 and b_small["cpu_ms_p50"] is None


def test_overall_row_first_then_families_sorted() -> None:
    keys = [(r["submission"], r["family"]) for r in summarize(_table(ROWS)).to_pylist()]
    assert keys == [
        ("a.cpp", None),
        ("a.cpp", "big"),
        ("a.cpp", "small"),
        ("b.py", None),
        ("b.py", "big"),
        ("b.py", "small"),
    ]


def test_only_ie_je_gives_null_pass_rate() -> None:
    summary = summarize(_table([_row("s", "f/1", "IE", None), _row("s", "f/2", "JE", None)]))
    overall = _by_key(summary)[("s", "spot", None)]
    assert overall["pass_rate"] is None and overall["cpu_ms_p50"] is None
    assert overall["first_failing_case"] is None


def test_problems_are_separate_and_retries_count_once() -> None:
    rows = [
        _row("s", "f/1", "JE", None, attempt=1),
        _row("s", "f/1", "AC", 3.0, attempt=2),
        _row("s", "f/1", "WA", 3.0, problem="mine"),
    ]
    summary = _by_key(summarize(_table(rows)))
    assert summary[("s", "spot", None)]["cases"] == 1
    assert summary[("s", "spot", None)]["n_AC"] == 1
    assert summary[("s", "spot", None)]["n_JE"] == 0
    assert summary[("s", "mine", None)]["n_WA"] == 1


def test_empty_and_bad_inputs() -> None:
    assert summarize(RESULTS_SCHEMA.empty_table()).num_rows == 0
    with pytest.raises(SummaryError, match="unknown verdict"):
        summarize(_table([_row("s", "f/1", "OK", 1.0)]))
    with pytest.raises(SummaryError, match="lack column"):
        summarize(_table(ROWS).drop_columns(["cpu_ms"]))


def test_write_summary_round_trip_and_terminal_table(tmp_path: Path) -> None:
    run = tmp_path / "run"
    write_results_part(run, ROWS[:5])
    write_results_part(run, ROWS[5:])
    written = write_summary(run)
    assert (run / "summary.parquet").is_file()
    assert read_summary(run).equals(written)
    assert written.num_rows == 6
    buf = io.StringIO()
    print_summary(written, families=True, console=Console(file=buf, width=200))
    text = buf.getvalue()
    assert "a.cpp" in text and "b.py" in text and "50.0%" in text and "big/0000002" in text
    assert "TLE" in text and "MLE" not in text  # all-zero verdict columns are left out


_verdicts = st.sampled_from(VERDICTS)
_result_rows = st.lists(
    st.tuples(
        st.sampled_from(["s1", "s2"]),
        st.sampled_from(["spot", "mine"]),
        st.sampled_from(["f1", "f2", "f3"]),
        st.integers(0, 30),
        _verdicts,
        st.one_of(st.none(), st.floats(0, 5000, allow_nan=False)),
    ),
    min_size=1,
    max_size=60,
    unique_by=lambda t: (t[0], t[1], t[2], t[3]),
)


@settings(max_examples=60, deadline=None)
@given(_result_rows)
def test_overall_rows_agree_with_their_families(rows: list[tuple[Any, ...]]) -> None:
    table = _table(
        [
            _row(sub, f"{fam}/{i:07d}", verdict, cpu, problem=prob)
            for sub, prob, fam, i, verdict, cpu in rows
        ]
    )
    summary = summarize(table).to_pylist()
    assert sum(r["cases"] for r in summary if r["family"] is None) == len(rows)
    for overall in (r for r in summary if r["family"] is None):
        fams = [
            r
            for r in summary
            if r["family"] is not None
            and (r["submission"], r["problem"]) == (overall["submission"], overall["problem"])
        ]
        for key in ["cases", *(f"n_{v}" for v in VERDICTS)]:
            assert overall[key] == sum(r[key] for r in fams)
        assert overall["cases"] == sum(overall[f"n_{v}"] for v in VERDICTS)
        firsts = [r["first_failing_case"] for r in fams if r["first_failing_case"]]
        assert overall["first_failing_case"] == (min(firsts) if firsts else None)
        maxes = [r["cpu_ms_max"] for r in fams if r["cpu_ms_max"] is not None]
        assert overall["cpu_ms_max"] == (max(maxes) if maxes else None)
        program = sum(overall[f"n_{v}"] for v in VERDICTS if v not in ("IE", "JE"))
        if program:
            assert overall["pass_rate"] == pytest.approx(overall["n_AC"] / program)
        else:
            assert overall["pass_rate"] is None
        if overall["cpu_ms_p50"] is not None:
            assert overall["cpu_ms_p50"] <= overall["cpu_ms_p95"] <= overall["cpu_ms_max"]


def _reference_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """summarize's rules, one row and one group at a time (the brute force it must match)."""
    last: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in rows:  # the highest attempt of a pair counts; the later row among equals
        key = (row["submission"], row["problem"], row["case_id"])
        if key not in last or row["attempt"] >= last[key]["attempt"]:
            last[key] = row

    def stats(group: list[dict[str, Any]]) -> dict[str, Any]:
        program = [r for r in group if r["verdict"] in PROGRAM_VERDICTS]
        cpu = [r["cpu_ms"] for r in program if r["cpu_ms"] is not None]
        failing = [r["case_id"] for r in program if r["verdict"] != "AC"]
        quantiles = statistics.quantiles(cpu, n=20, method="inclusive") if len(cpu) > 1 else []
        return {
            "cases": len(group),
            **{f"n_{v}": sum(r["verdict"] == v for r in group) for v in VERDICTS},
            "pass_rate": sum(r["verdict"] == "AC" for r in program) / len(program)
            if program
            else None,
            "cpu_ms_p50": (quantiles[9] if quantiles else cpu[0]) if cpu else None,
            "cpu_ms_p95": (quantiles[18] if quantiles else cpu[0]) if cpu else None,
            "cpu_ms_max": max(cpu) if cpu else None,
            "first_failing_case": min(failing) if failing else None,
        }

    out = []
    kept = list(last.values())
    for sub, prob in sorted({(r["submission"], r["problem"]) for r in kept}):
        pair = [r for r in kept if (r["submission"], r["problem"]) == (sub, prob)]
        out.append({"submission": sub, "problem": prob, "family": None, **stats(pair)})
        for fam in sorted({r["family"] for r in pair}):
            group = [r for r in pair if r["family"] == fam]
            out.append({"submission": sub, "problem": prob, "family": fam, **stats(group)})
    return out


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["s1", "s2", "日本"]),
            st.sampled_from(["spot", "mine"]),
            st.sampled_from(["f1", "f2", "é"]),
            st.integers(0, 12),
            _verdicts,
            st.one_of(st.none(), st.floats(0, 5000, allow_nan=False)),
            st.integers(1, 3),
        ),
        min_size=1,
        max_size=80,
    )
)
def test_summary_equals_the_row_by_row_reference(rows: list[tuple[Any, ...]]) -> None:
    table = [
        _row(sub, f"{fam}/{i:07d}", verdict, cpu, problem=prob, attempt=attempt)
        for sub, prob, fam, i, verdict, cpu, attempt in rows
    ]
    got = summarize(_table(table)).to_pylist()
    want = _reference_summary(table)
    assert [(r["submission"], r["problem"], r["family"]) for r in got] == [
        (r["submission"], r["problem"], r["family"]) for r in want
    ]
    for g, w in zip(got, want, strict=True):
        for key, value in w.items():
            assert g[key] == (pytest.approx(value) if isinstance(value, float) else value), key


LONG = "datasets/examples/spot/a_rather_long_submission_file_name_for_a_terminal.cpp"


def _long_summary() -> pa.Table:
    rows = [
        _row(LONG, f"fam{i % 3}/{i:07d}", ("AC", "WA", "TLE")[i % 3], 0.5 + i) for i in range(9)
    ]
    return summarize(_table([*rows, *ROWS]))


@pytest.mark.parametrize("width", [80, 100, 120])
def test_the_terminal_table_fits_the_width_and_names_what_it_left_out(width: int) -> None:
    buf = io.StringIO()
    print_summary(_long_summary(), families=True, console=Console(file=buf, width=width))
    text = buf.getvalue()
    assert max(len(line) for line in text.splitlines()) <= width
    first_cells = "".join(
        line.split("│")[1].strip() for line in text.splitlines() if line[:1] == "│"
    )
    assert LONG in first_cells  # folded over lines, never cut short
    for header in ("submission", "AC", "WA", "TLE", "pass"):
        assert header in text
    assert "left out to fit" in text and "cpu p95 ms" in " ".join(text.split())


def test_a_wide_terminal_shows_every_column() -> None:
    buf = io.StringIO()
    print_summary(_long_summary(), families=True, console=Console(file=buf, width=250))
    text = buf.getvalue()
    for header in ("problem", "family", "cpu p50 ms", "cpu p95 ms", "cpu max ms", "first failing"):
        assert header in text
    assert "left out" not in text


def test_graded_line_reads_sensibly_in_every_case() -> None:
    where = "embedded local Ray, 2 CPUs"
    assert graded_line(10, 0, 0, "out/r", where) == f"graded 10 pairs into out/r on {where}"
    assert graded_line(0, 0, 4800, "out/r", "nothing to grade") == (
        "nothing left to grade: all 4800 pairs were already in out/r"
    )
    assert graded_line(0, 0, 0, "out/r", "nothing to grade") == "nothing to grade into out/r"
    assert graded_line(10, 10, 0, "out/r", "the result cache") == (
        "graded 10 pairs (10 from the result cache) into out/r"
    )
    assert graded_line(12, 2, 12, "out/r", where) == (
        f"graded 12 pairs (2 from the result cache), 12 resumed, into out/r on {where}"
    )
