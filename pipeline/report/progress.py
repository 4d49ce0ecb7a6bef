"""Live progress lines: `generate`'s cases written, and `grade`'s pairs done with cases
per second over the whole run and the verdicts so far in their colours. On a console that
is not a terminal (output redirected to a file or a CI log) a live bar shows nothing
until it ends, so there plain lines are printed instead (PlainLines)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from pipeline.report.terminal import verdict_counts


class _RateColumn(ProgressColumn):
    """Cases per second over the whole run so far (rich's own speed is a short window)."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        done = task.completed - task.fields.get("resumed", 0)
        rate = done / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.0f} cases/s", style="progress.data.speed")


B = TypeVar("B", bound="_Bar")
PLAIN_EVERY_PERCENT = 10  # a plain line each time this much more is done
PLAIN_EVERY_S = 10.0  # and at least this often while work advances


class PlainLines:
    """Progress as plain lines (`grading: 1200/4800 (25%) 469 cases/s, 0:00:08 AC 1190 WA
    10`), one each PLAIN_EVERY_PERCENT % and at least each PLAIN_EVERY_S seconds."""

    def __init__(
        self,
        console: Console,
        description: str,
        total: int,
        done: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.console, self.description, self.total = console, description, total
        self.done = self.resumed = done
        self._clock = clock
        self._start = self._last = clock()
        self._step = self._percent_step(done)

    def _percent_step(self, done: int) -> int:
        return 100 * done // max(self.total, 1) // PLAIN_EVERY_PERCENT

    def advance(self, n: int, extra: str = "") -> None:
        self.done += n
        now = self._clock()
        step = self._percent_step(self.done)
        if step > self._step or now - self._last >= PLAIN_EVERY_S:
            self._step, self._last = step, now
            self.print_line(extra, now)

    def print_line(self, extra: str = "", now: float | None = None) -> None:
        elapsed = (self._clock() if now is None else now) - self._start
        rate = (self.done - self.resumed) / elapsed if elapsed > 0 else 0.0
        percent = 100 * self.done // max(self.total, 1)
        clock = time.strftime("%H:%M:%S", time.gmtime(elapsed))
        line = (
            f"{self.description}: {self.done}/{self.total} ({percent}%) {rate:,.0f} cases/s {clock}"
        )
        self.console.print(f"{line} {extra}".rstrip(), highlight=False)


class _Bar:
    """A rich progress display started and stopped as a context manager."""

    _progress: Progress

    def __enter__(self: B) -> B:
        self._progress.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._progress.stop()


class GradeProgress(_Bar):
    """A context manager whose `on_rows` / `on_start` are run_grade's callbacks; `resumed`
    pairs count as done from the start but not in the rate."""

    def __init__(self, total: int, resumed: int, console: Console) -> None:
        self.counts: Counter[str] = Counter()
        self._plain = (
            None if console.is_terminal else PlainLines(console, "grading", total, resumed)
        )
        self._progress = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            _RateColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[verdicts]}"),
            console=console,
            transient=False,
            disable=self._plain is not None,
        )
        self._task = self._progress.add_task(
            "grading", total=total, completed=resumed, verdicts="", resumed=resumed
        )

    def on_rows(self, n: int, part_counts: Counter[str]) -> None:
        self.counts.update(part_counts)
        if self._plain is not None:
            self._plain.advance(n, verdict_counts(self.counts))
        self._progress.update(self._task, advance=n, verdicts=verdict_counts(self.counts))

    def on_start(self, where: str) -> None:
        self._progress.update(self._task, description=f"grading on {where}")
        if self._plain is not None:
            self._plain.description = f"grading on {where}"
            self._plain.print_line()


class CountProgress(_Bar):
    """A context manager for a bar of `total` items; `advance(n)` counts n more done.
    Gone from the terminal once it ends."""

    def __init__(self, description: str, total: int, console: Console) -> None:
        self._plain = None if console.is_terminal else PlainLines(console, description, total)
        self._progress = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=self._plain is not None,
        )
        self._task = self._progress.add_task(description, total=total)

    def advance(self, n: int) -> None:
        if self._plain is not None:
            self._plain.advance(n)
        self._progress.advance(self._task, n)
