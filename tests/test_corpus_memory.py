"""A 1,000,000-case corpus is written and re-read with memory bounded by the batch size."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "corpus_memory.py"


@pytest.mark.slow
def test_million_case_corpus_streams() -> None:
    # Its own process, so that the peak RSS is this job's alone.
    out = subprocess.run(
        [sys.executable, str(BENCH), "--cases", "1000000", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(out.stdout)
    assert figures["cases"] == 1_000_000
    # The whole table would take ~88 MB; streaming stays far below that.
    assert figures["table_mb"] > 60
    assert figures["peak_growth_mb"] < 0.4 * figures["table_mb"], figures
