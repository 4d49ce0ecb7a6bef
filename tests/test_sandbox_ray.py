"""The sandbox measures honestly from inside a Ray worker (a big, threaded process):
peak RSS and CPU time are the program's own, and concurrent runs in two workers do not
collide (separate cgroup slots and scratch dirs, cleaned up afterwards)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare
from pipeline.sandbox import cgroups
from tests._fake_problem import make_problem

pytestmark = [pytest.mark.ray, pytest.mark.slow]

# touches N MB, then spins until the process has used T ms of CPU in all (page faults
# included), so the expected CPU figure does not depend on how fast faults are here
TOUCH_AND_BURN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(void) {
    long mb, ms;
    if (scanf("%ld %ld", &mb, &ms) != 2) return 2;
    size_t n = (size_t)mb << 20;
    volatile char *p = malloc(n);
    for (size_t i = 0; i < n; i += 4096) p[i] = 1;
    struct timespec t;
    volatile unsigned long spin = 0;
    do {
        for (int k = 0; k < 100000; k++) spin++;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    } while (t.tv_sec * 1000 + t.tv_nsec / 1000000 < ms);
    printf("%ld %ld\n", mb, ms);
    return 0;
}
"""


STARTED_HERE: list[bool] = []


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """A local Ray of our own, or the session's one when another test started it."""
    started = not ray.is_initialized()
    if started:
        ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
    STARTED_HERE.append(started)
    yield
    if started:
        ray.shutdown()


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> PreparedSubmission:
    src = tmp_path_factory.mktemp("figures") / "touch.c"
    src.write_text(TOUCH_AND_BURN)
    sub = prepare(parse_spec(str(src)), make_problem())
    assert sub.compile_error is None, sub.compile_error
    return sub


def _runner(num_cpus: float):  # type: ignore[no-untyped-def]
    """A Ray task running one case (defined here so that it ships by value: the
    workers cannot import test modules)."""

    def run_in_worker(
        sub: PreparedSubmission, text: str, runs: str = ""
    ) -> tuple[ExecutionResult, int, int, list[str]]:
        import os
        import resource

        from pipeline.sandbox import slots

        saved = {k: os.environ.get(k) for k in ("GRIDJUDGE_RUNS", "GRIDJUDGE_SANDBOX")}
        os.environ["GRIDJUDGE_SANDBOX"] = "rlimit"  # the default, whatever the cluster says
        if runs:
            os.environ["GRIDJUDGE_RUNS"] = runs
        # the cgroup folders the run joined, noted as it takes its slot: a slot may be
        # gone after the run (removed on release when memory stayed charged to it)
        joined: list[str] = []
        acquire = slots.SlotPool.acquire

        def noted(pool: slots.SlotPool) -> slots.Slot:
            slot = acquire(pool)
            joined.extend(slot.join_dirs)
            return slot

        slots.SlotPool.acquire = noted  # the pool's method, replaced
        try:
            result = sub.run(text, Limits.from_seconds(5.0, memory_mb=512, wall_ms=30000))
        finally:
            slots.SlotPool.acquire = acquire
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return result, os.getpid(), rss, joined

    return ray.remote(num_cpus=num_cpus)(run_in_worker)


def test_figures_from_inside_a_ray_worker(cluster: None, program: PreparedSubmission) -> None:
    task = _runner(1)
    big, worker_pid, worker_rss_kb, _ = ray.get(task.remote(program, "100 200\n"))
    assert big.judge_error is None and big.output == b"100 200\n", big
    assert worker_pid != os.getpid()
    assert worker_rss_kb > 50 * 1024  # the worker is big: a fork of it would show that
    assert 95 * 1024 <= big.peak_rss_kb <= 115 * 1024, big.peak_rss_kb
    assert 150 <= big.cpu_ms <= 400, big.cpu_ms
    small, _, _, _ = ray.get(task.remote(program, "0 0\n"))
    assert small.exit_code == 0 and small.peak_rss_kb < 10 * 1024, small.peak_rss_kb


WORKERS: set[int] = set()  # pids of the Ray workers that ran something here


def _slots() -> set[str]:
    base = cgroups.CGROUP_ROOT / "pids" / cgroups.GROUP
    return {p.name for p in base.iterdir() if p.is_dir()} if base.is_dir() else set()


def test_two_workers_run_concurrently_without_collisions(
    cluster: None, program: PreparedSubmission, tmp_path: Path
) -> None:
    task = _runner(ray.cluster_resources()["CPU"] / 2)  # two at a time, in two workers
    inputs = [f"{10 + 10 * (i % 3)} 200\n" for i in range(6)]
    runs = tmp_path / "runs"
    runs.mkdir(mode=0o711)
    os.chmod(tmp_path, 0o711)
    outcomes = ray.get([task.remote(program, text, str(runs)) for text in inputs])
    pids = {pid for _, pid, _, _ in outcomes}
    WORKERS.update(pids)
    assert len(pids) >= 2  # really several worker processes
    for text, (result, _, _, _) in zip(inputs, outcomes, strict=True):
        mb = int(text.split()[0])
        assert result.output.decode() == text, result
        assert (mb - 2) * 1024 <= result.peak_rss_kb <= (mb + 10) * 1024, (mb, result)
    if cgroups.available():
        for _, pid, _, joined in outcomes:  # each run in a slot of its own worker's
            assert joined and {Path(d).name.split("-")[0] for d in joined} == {str(pid)}
        mine = {s for s in _slots() if int(s.split("-")[0]) in pids}
        for slot in mine:  # nothing runs in a slot between runs
            assert cgroups.procs(cgroups.CGROUP_ROOT / "pids" / cgroups.GROUP / slot) == []
    assert list(runs.iterdir()) == []  # every scratch dir was removed


@pytest.mark.needs_root(reason="a writable cgroup v1, as the sandbox makes its slots")
def test_slots_of_finished_workers_are_swept(cluster: None) -> None:
    """Ray kills its workers without running atexit: their cgroup slots are removed by
    the next sandbox that starts (or an explicit sweep) once their owners are gone."""
    if not cgroups.available():
        pytest.skip("cgroup v1 is not writable here")
    if not STARTED_HERE or not STARTED_HERE[-1]:
        pytest.skip("Ray was started by another test: not ours to shut down")
    ray.shutdown()  # the cluster fixture's own shutdown then does nothing
    import time

    import psutil

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if not any(psutil.pid_exists(pid) for pid in WORKERS):
            break
        time.sleep(0.2)
    cgroups.sweep_stale()
    assert WORKERS, "the concurrency test did not run"
    left = {s for s in _slots() if not psutil.pid_exists(int(s.split("-")[0]))}
    assert left == set()
