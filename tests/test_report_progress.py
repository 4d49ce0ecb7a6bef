"""Progress on a console that is not a terminal: plain lines while work advances (each
10 % and each 10 s), not one render at the end."""

from __future__ import annotations

import io
from collections import Counter

from rich.console import Console

from pipeline.report.progress import PLAIN_EVERY_S, CountProgress, GradeProgress, PlainLines


def _piped() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=False, width=200), buf


def test_grade_progress_prints_a_line_every_tenth_when_piped() -> None:
    console, buf = _piped()
    with GradeProgress(200, 0, console) as progress:
        progress.on_start("local-serial")
        for i in range(200):
            progress.on_rows(1, Counter({"AC" if i % 4 else "WA": 1}))
            if i == 99:
                assert "100/200 (50%)" in buf.getvalue()  # printed while running
    lines = buf.getvalue().splitlines()
    assert lines[0].startswith("grading on local-serial: 0/200 (0%)")
    shown = [line.split(": ", 1)[1].split(" (")[0] for line in lines[1:]]
    for done in range(20, 201, 20):
        assert f"{done}/200" in shown
    assert lines[-1].startswith("grading on local-serial: 200/200 (100%)")
    assert lines[-1].endswith("AC 150 WA 50")
    assert "━" not in buf.getvalue()  # no bar


def test_resumed_pairs_count_as_done_but_not_in_the_rate() -> None:
    console, buf = _piped()
    now = [0.0]
    lines = PlainLines(console, "grading", 100, done=50, clock=lambda: now[0])
    now[0] = 2.0
    lines.advance(10)
    assert "grading: 60/100 (60%) 5 cases/s 00:00:02" in buf.getvalue()


def test_a_slow_run_prints_at_least_every_few_seconds() -> None:
    console, buf = _piped()
    now = [0.0]
    lines = PlainLines(console, "grading", 100_000, clock=lambda: now[0])
    for _ in range(5):
        now[0] += PLAIN_EVERY_S
        lines.advance(1)  # far below the next 10 %
    assert len(buf.getvalue().splitlines()) == 5
    now[0] += PLAIN_EVERY_S / 2
    lines.advance(1)
    assert len(buf.getvalue().splitlines()) == 5


def test_count_progress_prints_plain_lines_when_piped() -> None:
    console, buf = _piped()
    with CountProgress("generating spot", 50, console) as progress:
        for _ in range(5):
            progress.advance(10)
    assert buf.getvalue().splitlines()[-1].startswith("generating spot: 50/50 (100%)")


def test_on_a_terminal_the_live_bar_is_used() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=120)
    with GradeProgress(10, 0, console) as progress:
        progress.on_rows(10, Counter({"AC": 10}))
    assert "━" in buf.getvalue() and "(100%)" not in buf.getvalue()
