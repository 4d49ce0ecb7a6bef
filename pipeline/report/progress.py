"""Live progress lines: `generate`'s cases written, and `grade`'s pairs done with cases
per second over the whole run and the verdicts so far in their colours."""

from __future__ import annotations

from collections import Counter
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
        self._progress = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            _RateColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[verdicts]}"),
            console=console,
            transient=False,
        )
        self._task = self._progress.add_task(
            "grading", total=total, completed=resumed, verdicts="", resumed=resumed
        )

    def on_rows(self, n: int, part_counts: Counter[str]) -> None:
        self.counts.update(part_counts)
        self._progress.update(self._task, advance=n, verdicts=verdict_counts(self.counts))

    def on_start(self, where: str) -> None:
        self._progress.update(self._task, description=f"grading on {where}")


class CountProgress(_Bar):
    """A context manager for a bar of `total` items; `advance(n)` counts n more done.
    Gone from the terminal once it ends."""

    def __init__(self, description: str, total: int, console: Console) -> None:
        self._progress = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self._task = self._progress.add_task(description, total=total)

    def advance(self, n: int) -> None:
        self._progress.advance(self._task, n)
