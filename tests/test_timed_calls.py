"""grade.runners.timing.timed_calls: per-call CPU times from a thread clock read once per stretch.

Most tests drive it with a fake pair of clocks: each input says how many microseconds the
call computes and how long, on its first run only, the thread is descheduled meanwhile
("12" or "12+300", then "@" and a tag to tell inputs apart); the clocks themselves cost
nothing, and a call computing 13 us raises."""

from __future__ import annotations

import time
from collections import Counter

import numpy as np
import pytest

from pipeline.grade.runners.timing import GAP_S, STRETCH_S, timed_calls


class FakeThread:
    def __init__(self) -> None:
        self.wall = 1000.0
        self.cpu = 5.0
        self.calls: Counter[str] = Counter()
        self.cpu_reads = 0

    def wall_clock(self) -> float:
        return self.wall

    def cpu_clock(self) -> float:
        self.cpu_reads += 1
        return self.cpu

    def run(self, text: str) -> str:
        self.calls[text] += 1
        work, _, away = text.split("@")[0].partition("+")
        self.cpu += float(work) * 1e-6
        self.wall += float(work) * 1e-6
        if away and self.calls[text] == 1:
            self.wall += float(away) * 1e-6
        if work == "13":
            raise ValueError(text)
        return f"{text} run {self.calls[text]}"

    def timed(self, inputs: list[str]) -> tuple[list[object], np.ndarray, np.ndarray]:
        return timed_calls(self.run, inputs, wall_clock=self.wall_clock, cpu_clock=self.cpu_clock)


def test_short_calls_on_a_thread_that_keeps_its_core_are_timed_by_their_wall_time() -> None:
    thread = FakeThread()
    inputs = [f"{14 + i % 7}@{i}" for i in range(60)]  # 14..20 us of work each
    outs, cpu_ms, wall_ms = thread.timed(inputs)
    assert np.allclose(wall_ms, [(14 + i % 7) / 1000 for i in range(60)])
    assert np.allclose(cpu_ms, wall_ms)
    assert set(thread.calls.values()) == {1}  # nothing ran twice
    # the CPU clock: at the start, once per >= STRETCH_S of work, once at the end
    work_s = sum(14 + i % 7 for i in range(60)) * 1e-6
    assert thread.cpu_reads <= 2 + work_s / STRETCH_S < len(inputs) / 4
    assert outs == [f"{t} run 1" for t in inputs]


def test_a_stretch_in_which_the_thread_was_descheduled_is_timed_again_call_by_call() -> None:
    thread = FakeThread()
    # 20..28 us each: stretches end after cases 2 (>= 100 us of wall time), 7 and 8
    inputs = [f"{20 + i}" if i != 2 else "22+300" for i in range(9)]
    outs, cpu_ms, wall_ms = thread.timed(inputs)
    assert wall_ms[2] == pytest.approx(0.322)
    assert cpu_ms[2] == pytest.approx(0.022)  # the descheduled 300 us are not CPU time
    assert np.allclose(cpu_ms, [(20 + i) / 1000 for i in range(9)])
    assert [thread.calls[t] for t in inputs] == [2, 2, 2] + [1] * 6  # that stretch ran again
    assert outs == [f"{t} run 1" for t in inputs]  # first run's outputs kept


def test_other_stretches_are_not_run_again() -> None:
    thread = FakeThread()
    inputs = [f"{14 + i % 5}@{i}" for i in range(40)]
    inputs[25] = "20+500"
    _outs, cpu_ms, wall_ms = thread.timed(inputs)
    twice = [i for i, t in enumerate(inputs) if thread.calls[t] == 2]
    assert 25 in twice and len(twice) < len(inputs) // 2
    assert twice == list(range(twice[0], twice[-1] + 1))  # one stretch, around case 25
    assert cpu_ms[25] == pytest.approx(0.020)
    assert np.allclose(np.delete(cpu_ms, 25), np.delete(wall_ms, 25))


def test_long_calls_are_timed_by_the_cpu_clock_and_run_once() -> None:
    thread = FakeThread()
    inputs = [f"{500 + i}+200" for i in range(5)]  # each call is a stretch of its own
    _, cpu_ms, wall_ms = thread.timed(inputs)
    assert np.allclose(cpu_ms, [(500 + i) / 1000 for i in range(5)])
    assert np.allclose(wall_ms, [(700 + i) / 1000 for i in range(5)])
    assert set(thread.calls.values()) == {1}


def test_an_exception_is_the_output_also_when_the_stretch_runs_again() -> None:
    thread = FakeThread()
    inputs = ["12", "13", "12+400", "11"]
    outs, cpu_ms, _ = thread.timed(inputs)
    assert isinstance(outs[1], ValueError)
    assert outs[0] == "12 run 1" and outs[2] == "12+400 run 1"
    assert thread.calls["13"] == 2
    assert np.allclose(cpu_ms, [0.012, 0.013, 0.012, 0.011])


def test_no_inputs() -> None:
    outs, cpu_ms, wall_ms = timed_calls(str.upper, [])
    assert outs == [] and len(cpu_ms) == 0 and len(wall_ms) == 0


def test_real_clocks_account_for_no_more_cpu_than_the_thread_used() -> None:
    def work(text: str) -> int:
        return sum(i * i for i in range(int(text)))

    inputs = [str(50 + i % 200) for i in range(3000)]
    before = time.thread_time()
    outs, cpu_ms, wall_ms = timed_calls(work, inputs)
    used_ms = (time.thread_time() - before) * 1000
    assert outs == [work(t) for t in inputs]
    assert (cpu_ms > 0).all()
    # each stretch may claim up to GAP_S more than its CPU time; runs again add CPU time
    # to the thread's total without adding to the calls' times
    assert cpu_ms.sum() <= used_ms + len(inputs) * GAP_S * 1000
    assert cpu_ms.sum() >= 0.4 * used_ms
    # a call's CPU time never exceeds its wall time by more than a second run's variation
    assert np.median(wall_ms - cpu_ms) >= -GAP_S * 1000
