"""Several grading runs through one cluster at once (verify's submissions): each run
keeps its own plan, settings and run folder (grade.driver's start_run / RunDriver /
end_run), and the chunks of all of them go out in one stream of tasks, so the cluster's
workers grade the runs side by side; with one worker, or the serial executor, one after
the other, through the same code.

A run's chunks are made as the stream needs them and each run is ended (`on_end`) as soon
as its last chunk is committed, before the next run's plan is asked for: the caller may
plan the next runs from what the ended ones found. A chunk whose task raises ends its
own run as failed (its fault sent back, not raised), never the others: what other runs
computed is kept."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from pipeline.distribute.cluster import Cluster
from pipeline.grade.driver import RunDriver, end_run, start_run
from pipeline.grade.interrupts import raise_if_terminated
from pipeline.grade.plan import GradePlan
from pipeline.grade.task import ChunkResult, GradeChunk, grade_and_stage


@dataclass
class Ended:
    """A run that ended: done (its rows in its run folder), or failed with `fault`."""

    key: str
    driver: RunDriver
    fault: str = ""  # why a chunk of it failed; "" when done
    workers: set[int] = field(default_factory=set)  # pids of the processes its chunks ran in


@dataclass
class Tagged:
    """A chunk, and the run it belongs to."""

    key: str
    chunk: GradeChunk


@dataclass
class TaskReturn:
    """What a task sends back: the chunk's result, or the fault that stopped it (not
    rows: runners.Graded is those)."""

    result: ChunkResult | None
    pid: int
    fault: str = ""


def grade_tagged(task: Tagged) -> TaskReturn:
    """The task: grade_and_stage, and the worker process it ran in; an exception is sent
    back as the run's fault (raised, it would end every run in the stream)."""
    try:
        return TaskReturn(grade_and_stage(task.chunk), os.getpid())
    except Exception as exc:
        return TaskReturn(None, os.getpid(), f"{type(exc).__name__}: {' '.join(str(exc).split())}")


@dataclass
class Planned:
    """A run to grade: `in_order`: one chunk at a time, each made once the one before is
    committed (a run stopping at its first rejected case, as it would run alone)."""

    key: str
    plan: GradePlan
    in_order: bool = False


@dataclass
class _Open:
    ended: Ended
    left: int = 0  # chunks made and not committed yet
    all_made: bool = False


class _Stream:
    def __init__(self, cluster: Cluster, on_end: Callable[[Ended], None]) -> None:
        self.cluster, self.on_end = cluster, on_end
        self.open: dict[str, _Open] = {}
        # in-order runs with a chunk in flight: the rest of their chunks, made only once
        # it is committed (its rejections counted: the next chunk's cap, tle_left)
        self.held: dict[str, Iterator[GradeChunk]] = {}

    def chunks(self, runs: Iterable[Planned]) -> Iterator[Tagged | None]:
        """Every run's chunks, runs in order; an in-order run's next chunk as soon as
        its last is committed, before anything else; None while only those wait."""
        source = iter(runs)
        while True:
            key = next((k for k in self.held if self._settled(k)), None)
            if key is not None:
                yield from self._feed(key, self.held.pop(key), True)
                continue
            planned = next(source, None)
            if planned is None:
                if not self.held:
                    return
                yield None  # asked again after the next result
                continue
            driver = start_run(planned.plan)
            driver.cpus, driver.stage_node = self.cluster.total_cpus(), self.cluster.node_id()
            self.open[planned.key] = _Open(Ended(planned.key, driver))
            driver.begin()  # open: an interrupt from here on ends it "interrupted"
            yield from self._feed(planned.key, driver.chunks(), planned.in_order)

    def _settled(self, key: str) -> bool:
        run = self.open.get(key)
        return run is None or run.left == 0

    def _feed(self, key: str, chunks: Iterator[GradeChunk], in_order: bool) -> Iterator[Tagged]:
        """The run's chunks; an in-order run's next one only, its rest held. The run
        ends here when it has no chunk left and every one is committed."""
        while (run := self.open.get(key)) is not None:  # gone: it failed
            chunk = next(chunks, None)
            if chunk is None:
                run.all_made = True
                if run.left == 0:
                    self.end(key, "done")
                return
            run.left += 1
            yield Tagged(key, chunk)
            if in_order:
                self.held[key] = chunks
                return

    def took(self, task: Tagged, returned: TaskReturn) -> None:
        run = self.open.get(task.key)
        if run is None:
            return  # its run failed already
        run.ended.workers.add(returned.pid)
        if returned.result is None:
            run.ended.fault = returned.fault
            self.end(task.key, "failed")
            return
        run.ended.driver.commit(task.chunk, returned.result)
        run.left -= 1
        if run.left == 0 and run.all_made:
            self.end(task.key, "done")

    def end(self, key: str, status: str, fault: str = "") -> None:
        run = self.open.pop(key)
        self.held.pop(key, None)
        if fault:
            run.ended.fault = fault
        try:
            end_run(run.ended.driver, status)
        finally:
            if status != "interrupted":
                self.on_end(run.ended)


def grade_together(
    cluster: Cluster,
    runs: Iterable[Planned],
    on_end: Callable[[Ended], None],
    max_in_flight: int | None = None,
) -> None:
    """Grade every run of `runs` (each planned as the stream gets to it) on the
    entered `cluster`, with at most `max_in_flight` chunks at once; `on_end` is told of
    each run as it ends. The cluster failing (a task lost more times than retried:
    DistributeError) ends every open run as failed, then is raised; an interrupt ends
    them "interrupted"."""
    stream = _Stream(cluster, on_end)
    status, fault = "interrupted", ""
    try:
        tasks = cluster.map_unordered(
            grade_tagged, stream.chunks(runs), max_in_flight=max_in_flight
        )
        for task, returned in tasks:
            stream.took(task, returned)
            raise_if_terminated()
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        status, fault = "failed", f"{type(exc).__name__}: {' '.join(str(exc).split())}"
        raise
    finally:
        for key in list(stream.open):
            stream.end(key, status, fault)
