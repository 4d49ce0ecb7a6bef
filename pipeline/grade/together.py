"""Several grading runs through one cluster at once (verify's submissions): each run
keeps its own plan, settings and run folder (grade.job's start_run / RunDriver /
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
from pipeline.grade.interrupts import raise_if_terminated
from pipeline.grade.job import RunDriver, end_run, start_run
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
class Graded:
    """What a task sends back: the chunk's result, or the fault that stopped it."""

    result: ChunkResult | None
    pid: int
    fault: str = ""


def grade_tagged(task: Tagged) -> Graded:
    """The task: grade_and_stage, and the worker process it ran in; an exception is sent
    back as the run's fault (raised, it would end every run in the stream)."""
    try:
        return Graded(grade_and_stage(task.chunk), os.getpid())
    except Exception as exc:
        return Graded(None, os.getpid(), f"{type(exc).__name__}: {' '.join(str(exc).split())}")


@dataclass
class _Open:
    ended: Ended
    left: int = 0  # chunks made and not committed yet
    all_made: bool = False


class _Stream:
    def __init__(self, cluster: Cluster, on_end: Callable[[Ended], None]) -> None:
        self.cluster, self.on_end = cluster, on_end
        self.open: dict[str, _Open] = {}

    def chunks(self, runs: Iterable[tuple[str, GradePlan]]) -> Iterator[Tagged]:
        for key, plan in runs:
            driver = start_run(plan)
            driver.cpus, driver.stage_node = self.cluster.total_cpus(), self.cluster.node_id()
            run = self.open[key] = _Open(Ended(key, driver))
            for chunk in driver.chunks():
                if key not in self.open:
                    break  # it failed: its other chunks are not made
                run.left += 1
                yield Tagged(key, chunk)
            run.all_made = True
            if run.left == 0 and key in self.open:
                self.end(key, "done")

    def took(self, task: Tagged, graded: Graded) -> None:
        run = self.open.get(task.key)
        if run is None:
            return  # its run failed already
        run.ended.workers.add(graded.pid)
        if graded.result is None:
            run.ended.fault = graded.fault
            self.end(task.key, "failed")
            return
        run.ended.driver.commit(task.chunk, graded.result)
        run.left -= 1
        if run.left == 0 and run.all_made:
            self.end(task.key, "done")

    def end(self, key: str, status: str, fault: str = "") -> None:
        run = self.open.pop(key)
        if fault:
            run.ended.fault = fault
        try:
            end_run(run.ended.driver, status)
        finally:
            if status != "interrupted":
                self.on_end(run.ended)


def grade_together(
    cluster: Cluster,
    runs: Iterable[tuple[str, GradePlan]],
    on_end: Callable[[Ended], None],
    max_in_flight: int | None = None,
) -> None:
    """Grade every run of `runs` (key, plan: made as the stream gets to it) on the
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
        for task, graded in tasks:
            stream.took(task, graded)
            raise_if_terminated()
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        status, fault = "failed", f"{type(exc).__name__}: {' '.join(str(exc).split())}"
        raise
    finally:
        for key in list(stream.open):
            stream.end(key, status, fault)
