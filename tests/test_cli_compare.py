"""`gridjudge compare` through the CLI on synthetic run folders (real parquet parts)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from compare_synth import row, timed_rows
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.compare.options import FAIL_ON_CHOICES, METRICS
from pipeline.results.store import write_results_part, write_run_json
from pipeline.schemas import COMPARE_SCHEMA, COMPARE_SUMMARY_SCHEMA

runner = CliRunner()
CASES = {f"c{i:02d}": ("easy", "hard")[i % 2] for i in range(20)}


def _run(path: Path, rows: list[dict[str, Any]], info: dict[str, Any] | None = None) -> Path:
    write_results_part(path, rows[: len(rows) // 2])
    write_results_part(path, rows[len(rows) // 2 :])  # two parts, as a real run writes
    write_run_json(path, info or {"problem": "spot"})
    return path


def _pair(tmp_path: Path, slow: float = 1.0, flip: str | None = None) -> tuple[Path, Path]:
    rng = np.random.default_rng(5)
    a = timed_rows("v1", CASES, rng, repeats=8, sigma=0.02)
    b = timed_rows("v2", CASES, rng, repeats=8, sigma=0.02, slow=lambda c: slow)
    if flip:
        b[3]["verdict"] = flip
    return _run(tmp_path / "a", a), _run(tmp_path / "b", b)


def _invoke(*args: object) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def test_same_code_passes_every_gate(tmp_path: Path) -> None:
    a, b = _pair(tmp_path)
    for gate in FAIL_ON_CHOICES:
        result = _invoke("compare", a, b, "--fail-on", gate)
        assert result.exit_code == 0, result.output
    assert "verdict: no change" in result.output


def test_a_flip_away_from_ac_trips_regression_but_not_never(tmp_path: Path) -> None:
    a, b = _pair(tmp_path, flip="WA")
    result = _invoke("compare", a, b)
    assert result.exit_code == 1, result.output
    assert "AC->WA" in result.output and "c03" in result.output
    assert "verdict: regression" in result.output
    assert _invoke("compare", a, b, "--fail-on", "never").exit_code == 0


def test_a_fix_trips_only_any_change(tmp_path: Path) -> None:
    rng = np.random.default_rng(6)
    a_rows = timed_rows("v1", CASES, rng, repeats=8, sigma=0.02)
    a_rows[3]["verdict"] = "WA"
    a = _run(tmp_path / "a", a_rows)
    b = _run(tmp_path / "b", timed_rows("v2", CASES, rng, repeats=8, sigma=0.02))
    assert _invoke("compare", a, b, "--fail-on", "regression").exit_code == 0
    assert _invoke("compare", a, b, "--fail-on", "any-change").exit_code == 1


def test_slowdown_writes_parquet_and_junit(tmp_path: Path) -> None:
    a, b = _pair(tmp_path, slow=1.3)
    out, junit = tmp_path / "cmp", tmp_path / "junit.xml"
    result = _invoke("compare", a, b, "--out", out, "--junit", junit)
    assert result.exit_code == 1, result.output
    cases = pq.read_table(out / "compare.parquet")
    assert cases.schema.equals(COMPARE_SCHEMA, check_metadata=False)
    assert cases.num_rows == len(CASES)
    assert set(cases.column("case_id").to_pylist()) == set(CASES)
    assert set(cases.column("timing_change").to_pylist()) == {"slower"}
    summary = pq.read_table(out / "compare_summary.parquet")
    assert summary.schema.equals(COMPARE_SUMMARY_SCHEMA, check_metadata=False)
    assert summary.column("family").to_pylist() == ["easy", "hard", None]
    assert (out / "compare.json").is_file()
    root = ET.parse(junit).getroot()
    failures = root.findall(".//testcase/failure")
    # both families' and the all-families timing testcases; cases carry their own flag
    assert len(failures) == 3 == int(root.get("failures", "-1"))
    assert {f.get("type") for f in failures} == {"slowdown"}
    assert int(root.get("tests", "0")) == len(CASES) + 3
    notes = [e.text or "" for e in root.iter("system-out")]
    assert len(notes) == len(CASES) and all(
        n.startswith(("slower: 1.2", "slower: 1.3")) for n in notes
    )


def test_junit_marks_flips_and_skips_judge_errors(tmp_path: Path) -> None:
    a_rows = [row("s", "c1", "f", "AC"), row("s", "c2", "f", "AC"), row("s", "c3", "f", "AC")]
    b_rows = [row("s", "c1", "f", "WA"), row("s", "c2", "f", "JE"), row("s", "c3", "f", "AC")]
    a, b = _run(tmp_path / "a", a_rows), _run(tmp_path / "b", b_rows)
    junit = tmp_path / "j.xml"
    result = _invoke("compare", a, b, "--junit", junit)
    assert result.exit_code == 1
    cases = {tc.get("name"): tc for tc in ET.parse(junit).getroot().iter("testcase")}
    assert cases["c1"].find("failure") is not None
    assert cases["c1"].find("failure").get("message") == "AC->WA"  # type: ignore[union-attr]
    assert cases["c2"].find("skipped") is not None
    assert len(list(cases["c3"])) == 0


def test_two_submissions_inside_one_run(tmp_path: Path) -> None:
    rows = [row("x", "c1", "f", "AC"), row("y", "c1", "f", "RE")]
    run = _run(tmp_path / "r", rows)
    result = _invoke("compare", run, "--submission-a", "x", "--submission-b", "y")
    assert result.exit_code == 1, result.output
    assert "AC->RE" in result.output
    missing = _invoke("compare", run, "--submission-a", "x")
    assert missing.exit_code == 2
    assert "--submission-b" in missing.output


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "does not exist"),
        ("empty_dir", "is not a run folder"),
        ("no_rows", "has no results rows"),
        ("corrupt", "corrupt parquet"),
        ("wrong_schema", "do not match the results schema"),
    ],
)
def test_bad_run_folders_are_one_line_errors(tmp_path: Path, setup: str, message: str) -> None:
    good, _ = _pair(tmp_path)
    bad = tmp_path / "bad"
    if setup != "missing":
        bad.mkdir()
    if setup == "no_rows":
        write_run_json(bad, {})
    if setup == "corrupt":
        (bad / "results").mkdir()
        (bad / "results" / "part-0.parquet").write_bytes(b"not parquet at all")
    if setup == "wrong_schema":
        (bad / "results").mkdir()
        pq.write_table(pa.table({"case_id": ["c1"]}), bad / "results" / "part-0.parquet")
    result = _invoke("compare", good, bad)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_bad_options_are_user_errors(tmp_path: Path) -> None:
    a, b = _pair(tmp_path)
    for option, choices in (("--fail-on", FAIL_ON_CHOICES), ("--metric", METRICS)):
        result = _invoke("compare", a, b, option, "sometimes")
        assert result.exit_code == 2
        assert result.output.strip() == (
            f"error: {option} must be one of {', '.join(choices)} (got 'sometimes')"
        )
    assert _invoke("compare", a, b, "--factor", "0.9").exit_code == 2
    result = _invoke("compare", a, b, "--submission-a", "nope")
    assert result.exit_code == 2 and "nope" in result.output


@pytest.mark.parametrize(
    "info",
    [
        {"limits": {"time_s": 0.1}},
        {"corpora": [{"problem": "spot", "limits": {"time_s": 0.1, "memory_mb": 256}}]},
    ],
)
def test_time_limit_from_run_json(tmp_path: Path, info: dict[str, Any]) -> None:
    a_rows = [row("s", "c1", "f", runs=[90.0]), row("s", "c2", "f", runs=[10.0])]
    b_rows = [row("s", "c1", "f", runs=[95.0]), row("s", "c2", "f", runs=[10.0])]
    a = _run(tmp_path / "a", a_rows, info)
    b = _run(tmp_path / "b", b_rows)
    out = tmp_path / "o"
    assert _invoke("compare", a, b, "--out", out).exit_code == 0
    close = pq.read_table(out / "compare.parquet").column("close_to_limit").to_pylist()
    assert close == [True, False]
    assert _invoke("compare", a, b, "--out", out, "--time-limit", "10").exit_code == 0
    assert not any(pq.read_table(out / "compare.parquet").column("close_to_limit").to_pylist())


def test_a_cut_case_list_names_only_a_file_it_wrote(tmp_path: Path) -> None:
    a, b = _pair(tmp_path)
    flipped = _run(
        tmp_path / "flipped",
        [{**r, "verdict": "WA"} for r in pq.read_table(b / "results").to_pylist()],
    )
    without_out = _invoke("compare", a, flipped, "--max-rows", "2", "--fail-on", "never")
    assert without_out.exit_code == 0, without_out.output
    assert "18 more (--out writes every row)" in without_out.output
    assert "compare.parquet" not in without_out.output
    assert not list(tmp_path.rglob("compare.parquet"))
    out = tmp_path / "cmp"
    with_out = _invoke("compare", a, flipped, "--max-rows", "2", "--fail-on", "never", "--out", out)
    assert with_out.exit_code == 0, with_out.output
    unwrapped = "".join(with_out.output.split())  # the caption wraps a long path
    assert f"everyrowisin{out / 'compare.parquet'}" in unwrapped
    assert len(pq.read_table(out / "compare.parquet")) == len(CASES)


def _a_a_run(path: Path, seed: int, machine: float) -> Path:
    """A run folder as `grade --repeat 7` writes it for one submission on 48 cases of one
    family: medians of 1-41 ms (well above the 0.2 ms floor, so the statistics decide),
    5 % noise between repeats, the first repeat of the first case a warm-up outlier, and
    the reference workload timed beside each case; `machine`: how much slower this run's
    machine was throughout (the reference ran that much slower too)."""
    rng = np.random.default_rng(seed)
    cases = {f"n50/{i:07d}": "n50" for i in range(48)}
    rows = timed_rows("solver:spot@2", cases, rng, repeats=7, sigma=0.05, run_id=path.name)
    for r in rows:
        r["cpu_ms_runs"] = [t * machine / 5 for t in r["cpu_ms_runs"]]
        r["reference_ms"] = 0.04 * machine * float(rng.lognormal(0.0, 0.02))
    rows[0]["cpu_ms_runs"][0] *= 15
    for r in rows:
        r["cpu_ms"] = float(np.median(r["cpu_ms_runs"]))
    return _run(path, rows)


def test_a_a_of_two_separate_runs_twenty_times_is_quiet(tmp_path: Path) -> None:
    """One submission graded in two separate runs (the second on a machine 30 % slower,
    which the reference workload sees), compared 20 times: `--fail-on any-change` passes
    when no flip, no output change and no significant timing change either way was
    found. Seeded synthetic timings, so the false-alarm rate is the statistics', not the
    machine's of the day."""
    verdicts = []
    for i in range(20):
        a = _a_a_run(tmp_path / f"a{i}", 2 * i, 1.0)
        b = _a_a_run(tmp_path / f"b{i}", 2 * i + 1, 1.3)
        out = tmp_path / f"c{i}"
        result = _invoke("compare", a, b, "--fail-on", "any-change", "--out", out)
        assert result.exit_code in (0, 1), result.output
        verdict = json.loads((out / "compare.json").read_text())["verdict"]
        assert verdict["regressions"] == verdict["fixes"] == verdict["output_changed"] == 0
        verdicts.append((result.exit_code, verdict["verdict"]))
    assert sum(code == 0 for code, _ in verdicts) >= 19, verdicts
    # one of them, rendered: the machine moved, nothing else did
    shown = _invoke("compare", tmp_path / "a0", tmp_path / "b0")
    assert "verdict: no change" in shown.output and "machine: " in shown.output
