"""strength's section of report.html, alone on the page past REPORT_MAX_PAIRS (grade's
report would read every row into memory): the figures, the picture and the survivors
are there, no gradebook; names from a package are escaped, control characters too."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pipeline.strength.html import REPORT_MAX_PAIRS, strength_section, write_strength_report
from pipeline.strength.matrix import Cases
from pipeline.strength.population import Program

FIGURES = {
    "programs": 2, "killed": 1, "survivors": ["s\x1b[31m<b>"], "mutants_made": 0,
    "mutants_sampled": 0, "mutants_compile_failed": 0, "cases": 3, "cpu_ms": 30.0,
    "minimal_cases": 1, "minimal_cpu_ms": 10.0, "minimal_by_cpu_cases": 1,
    "minimal_by_cpu_cpu_ms": 10.0, "optimal": False, "gap": 0.25,
}  # fmt: skip


def test_past_the_bound_the_page_holds_the_section_alone(tmp_path: Path) -> None:
    programs = [Program("w", "wrong", None), Program("s\x1b[31m<b>", "mutant", None)]  # type: ignore[arg-type]
    kills = np.array([[True, False, False], [False, False, False]])
    cases = Cases(["a/1", "a/2", "f\x07<i>/3"], ["a", "a", "f\x07<i>"])
    section = strength_section(FIGURES, programs, kills, cases)
    page = write_strength_report(
        tmp_path / "report.html", tmp_path / "run", REPORT_MAX_PAIRS + 1, section
    )
    text = page.read_text()
    assert '<section id="strength">' in text and "Gradebook" not in text
    assert f"{REPORT_MAX_PAIRS + 1} pairs" in text and "matrix.parquet" in text
    assert text.count("<rect ") == 2 * 2  # two families x two programs
    assert "1 cases (33.3%), 10.0 ms (33.3% of the CPU)" in text
    assert "not proven minimal (gap 25.0%)" in text
    assert "\x1b" not in text and "\x07" not in text and "<b>" not in text and "<i>" not in text
