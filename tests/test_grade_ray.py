"""Integration: grading on a real local Ray (one session-scoped cluster), through worker
death, node loss and a killed driver; exactly one results row per (submission, case)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from pipeline.corpus.generate import generate_corpus
from pipeline.corpus.store import CorpusWriter, read_table
from pipeline.distribute.cluster import Cluster
from pipeline.grade.driver import run_grade
from pipeline.grade.plan import GradeOptions, plan_grade
from pipeline.problem.registry import get_problem
from pipeline.results import store as report
from pipeline.results.summary import summarize
from tests.run_summary import read_summary

pytestmark = pytest.mark.ray

TESTS = Path(__file__).resolve().parent
GRIDJUDGE = Path(sys.executable).with_name("gridjudge")


@pytest.fixture(scope="module")
def spot_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus") / "spot"
    generate_corpus(get_problem("spot"), 48, 7, out, families=["n2", "rot90"])
    return out


@pytest.fixture
def counter() -> Iterator[Path]:
    """A world-writable file outside pytest's private tmp tree: sandboxes may run the
    submission as an unprivileged user."""
    folder = Path(tempfile.mkdtemp(prefix="gridjudge-count-"))
    folder.chmod(0o777)
    path = folder / "count"
    path.touch()
    path.chmod(0o666)
    yield path
    shutil.rmtree(folder, ignore_errors=True)


def plain_sandbox_env() -> dict[str, str]:
    """Environment of a `gridjudge` driver whose submissions append to a host file: the
    default sandbox (private /tmp, only system directories visible) rightly forbids that,
    so these distribution tests use the plain backend; the driver passes GRIDJUDGE_* to
    its own job's workers only. Sandboxing has its own tests."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["GRIDJUDGE_SANDBOX"] = "none"
    return env


def grade_argv(corpus: Path, sub: str, out: Path, cluster: Cluster) -> list[str]:
    """`gridjudge grade` joining the shared session cluster."""
    argv = [str(GRIDJUDGE), "grade", str(corpus), "-s", sub, "--out", str(out)]
    return [*argv, "--address", cluster.gcs_address()]


def counting_cmd(counter: Path, sleep: float = 0.03) -> str:
    """A `cmd:` submission that appends one line to `counter` per execution."""
    return f"cmd:echo run >> {counter}; sleep {sleep}; echo Draw"


def pairs(run_dir: Path) -> Counter[tuple[str, str]]:
    rows = report.load_results(run_dir, columns=["submission", "case_id"]).to_pylist()
    return Counter((r["submission"], r["case_id"]) for r in rows)


def expected_pairs(corpus: Path, subs: list[str]) -> set[tuple[str, str]]:
    ids = read_table(corpus).column("case_id").to_pylist()
    return {(s, c) for s in subs for c in ids}


def assert_one_row_per_pair(run_dir: Path, corpus: Path, subs: list[str]) -> None:
    got = pairs(run_dir)
    assert set(got) == expected_pairs(corpus, subs)
    assert max(got.values()) == 1, [k for k, n in got.items() if n > 1][:3]


def assert_summary_of_every_row(run_dir: Path) -> None:
    """The summary grade built chunk by chunk == the summary of all rows read back."""
    assert read_summary(run_dir).equals(summarize(report.load_results(run_dir)))


def test_grading_writes_one_row_per_pair_and_a_summary(
    ray_cluster: Cluster, spot_corpus: Path, tmp_path: Path
) -> None:
    subs = ["solver:spot", "solver:spot@1"]
    plan = plan_grade(GradeOptions(corpora=[spot_corpus], submissions=subs, out=tmp_path / "run"))
    outcome = run_grade(plan)
    assert_one_row_per_pair(tmp_path / "run", spot_corpus, subs)
    assert outcome.verdicts == Counter({"AC": 2 * 48})
    info = report.read_run_json(tmp_path / "run")
    assert info["status"] == "done" and info["rows_written"] == 96
    summary = read_summary(tmp_path / "run").to_pylist()
    assert {(r["submission"], r["cases"]) for r in summary if r["family"] is None} == {
        ("solver:spot", 48),
        ("solver:spot@1", 48),
    }
    assert_summary_of_every_row(tmp_path / "run")
    nodes = set(report.load_results(tmp_path / "run", columns=["node"]).column(0).to_pylist())
    assert all(n and "/" in n for n in nodes)  # host/ray-node-id: the task ran on Ray


@pytest.mark.slow
def test_killing_a_worker_mid_run_still_gives_one_row_per_pair(
    ray_cluster: Cluster, spot_corpus: Path, tmp_path: Path, counter: Path
) -> None:
    # The first execution of any case (whichever comes first) sleeps 2 s: the worker
    # running that chunk is then surely mid-chunk, and is the one killed.
    flag = counter.parent / "flag"
    sub = f"cmd:echo run >> {counter}; if mkdir {flag} 2>/dev/null; then sleep 2; fi; echo Draw"
    out = tmp_path / "run"
    killed: list[int] = []

    def killer() -> None:
        deadline = time.monotonic() + 60
        while not killed and time.monotonic() < deadline:
            for pid in running_chunk_workers():
                with contextlib.suppress(psutil.Error):
                    if any(sleeping_2s(c) for c in psutil.Process(pid).children(recursive=True)):
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
            time.sleep(0.01)

    thread = threading.Thread(target=killer)
    thread.start()
    # a driver of its own, joining the shared cluster (its GRIDJUDGE_SANDBOX goes to its
    # workers only); its workers are children of this process's raylet, found above
    proc = subprocess.Popen(
        [*grade_argv(spot_corpus, sub, out, ray_cluster), "--chunk-size", "4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=plain_sandbox_env(),
    )
    _, stderr = proc.communicate(timeout=120)
    thread.join()
    # it ends without disconnecting (a disconnect after a worker's death crashed Ray's
    # core worker: SIGSEGV at the very end): the cluster sees its job over all the same
    assert proc.returncode == 0, stderr[-2000:]
    assert killed, "no worker was running a chunk to kill"
    assert_driver_job_over(proc.pid)
    assert_one_row_per_pair(out, spot_corpus, [sub])
    executions = len(counter.read_text().splitlines())
    assert executions > 48  # the killed chunk's cases ran again: retried, not lost


def assert_driver_job_over(pid: int) -> None:
    """The shared cluster counts the job of the driver `pid` as over (it notices a
    driver's end by itself; waited for, up to a minute)."""
    import ray._private.state

    deadline = time.monotonic() + 60
    while True:
        jobs = [j for j in ray._private.state.jobs() if j["DriverPid"] == pid]
        assert jobs, f"no job of driver {pid} in the cluster"
        if all(j["IsDead"] for j in jobs) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert all(j["IsDead"] for j in jobs), jobs


def sleeping_2s(proc: psutil.Process) -> bool:
    try:
        return proc.cmdline()[:2] == ["sleep", "2"]
    except psutil.Error:
        return False


def running_chunk_workers() -> list[int]:
    """Ray worker processes (descendants of this test's raylet) running a chunk now."""
    found = []
    for proc in psutil.Process().children(recursive=True):
        try:
            cmd = proc.cmdline()
        except psutil.Error:
            continue
        if cmd and cmd[0].startswith("ray::_run_chunk"):
            found.append(proc.pid)
    return found


@pytest.mark.slow
def test_removing_a_worker_node_mid_run_still_gives_one_row_per_pair(
    ray_cluster: Cluster, spot_corpus: Path, tmp_path: Path, counter: Path
) -> None:
    # (asks for ray_cluster only to keep the shared cluster up for the tests around it:
    # this scenario's own three-node cluster lives in a subprocess)
    sub = counting_cmd(counter, sleep=0.05)
    out = tmp_path / "run"
    env = plain_sandbox_env()
    proc = subprocess.run(
        [
            sys.executable,
            str(TESTS / "ray_scenarios.py"),
            "node-loss",
            str(spot_corpus),
            str(out),
            sub,
        ],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    assert info["chunks_running_on_it"] >= 1  # work was lost in flight with the node
    assert info["rows"] == 48
    assert_one_row_per_pair(out, spot_corpus, [sub])
    nodes = set(report.load_results(out, columns=["node"]).column(0).to_pylist())
    assert all(n.endswith(info["survivor"][:8]) or info["node_id"][:8] in n for n in nodes)


@pytest.mark.slow
def test_killed_driver_then_resume_runs_only_the_missing_pairs(
    ray_cluster: Cluster, spot_corpus: Path, tmp_path: Path, counter: Path
) -> None:
    sub = counting_cmd(counter, sleep=0.05)
    out = tmp_path / "run"
    argv = [*grade_argv(spot_corpus, sub, out, ray_cluster), "--chunk-size", "2"]
    env = plain_sandbox_env()
    driver = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 60
    while len(list(report.results_dir(out).glob("part-*.parquet"))) < 3:
        assert driver.poll() is None, driver.stderr.read().decode()[-2000:] if driver.stderr else ""
        assert time.monotonic() < deadline, "no results parts appeared"
        time.sleep(0.02)
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    wait_until_stable(counter)  # the dead driver's in-flight tasks are cancelled by Ray
    assert report.read_run_json(out)["status"] == "running"
    done_before = sum(pairs(out).values())
    runs_before = len(counter.read_text().splitlines())
    assert 0 < done_before < 48

    resumed = subprocess.run(
        [*argv, "--resume"], capture_output=True, text=True, timeout=120, env=env
    )
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert_one_row_per_pair(out, spot_corpus, [sub])
    runs_after = len(counter.read_text().splitlines())
    assert runs_after - runs_before == 48 - done_before  # each missing pair ran once
    info = report.read_run_json(out)
    assert info["status"] == "done" and info["rows_resumed"] == done_before
    assert_summary_of_every_row(out)
    assert read_summary(out).to_pylist()[0]["cases"] == 48


def wait_until_stable(path: Path, quiet_s: float = 1.0, timeout_s: float = 20.0) -> None:
    last, since, end = path.stat().st_size, time.monotonic(), time.monotonic() + timeout_s
    while time.monotonic() - since < quiet_s and time.monotonic() < end:
        time.sleep(0.05)
        size = path.stat().st_size
        if size != last:
            last, since = size, time.monotonic()


def test_malformed_cases_are_ie_and_the_good_ones_are_graded(
    ray_cluster: Cluster, spot_corpus: Path, tmp_path: Path
) -> None:
    problem = get_problem("spot")
    good = read_table(spot_corpus).slice(0, 6).to_pylist()
    bad = {"bad-empty": "", "bad-text": "hello world\n", "bad-n": "-3\n0\n"}
    corpus = tmp_path / "mixed"
    with CorpusWriter(corpus, "spot") as writer:
        for row in good[:3]:
            writer.add(row["case_id"], row["family"], row["input"], row["expected"])
        for cid, text in bad.items():
            writer.add(cid, "broken", text)
        for row in good[3:]:
            writer.add(row["case_id"], row["family"], row["input"], None)
    plan = plan_grade(
        GradeOptions(corpora=[corpus], submissions=["solver:spot"], out=tmp_path / "run")
    )
    run_grade(plan)
    rows: dict[str, Any] = {
        r["case_id"]: r for r in report.load_results(tmp_path / "run").to_pylist()
    }
    assert len(rows) == 9
    for cid, text in bad.items():
        assert rows[cid]["verdict"] == "IE"
        assert rows[cid]["checker_msg"] == problem.validate(text)[0]
    assert {rows[r["case_id"]]["verdict"] for r in good} == {"AC"}


def test_map_unordered_on_ray_yields_each_chunk_once_and_raises_chunk_failures(
    ray_cluster: Cluster,
) -> None:
    import math

    from pipeline.distribute.cluster import ChunkFailed

    got = list(ray_cluster.map_unordered(abs, range(-30, 0), max_in_flight=3))
    assert sorted(got) == [(x, -x) for x in range(-30, 0)]
    with pytest.raises(ChunkFailed, match="ValueError"):
        list(ray_cluster.map_unordered(math.sqrt, [4.0, -1.0]))


def test_workers_warm_up_as_they_start(ray_cluster: Cluster) -> None:
    """The setup hook ran in every worker before its first task: pyarrow's lazy pandas
    import (its first list conversion) is done before any chunk arrives."""

    def worker_state(_: int) -> tuple[bool, bool]:  # local: Ray ships it by value
        import sys

        import pipeline.distribute.worker_setup

        return pipeline.distribute.worker_setup.SET_UP, "pandas" in sys.modules

    states = {state for _, state in ray_cluster.map_unordered(worker_state, range(8))}
    assert states == {(True, True)}
