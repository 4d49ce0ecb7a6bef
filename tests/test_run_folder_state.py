"""A run folder's state under concurrency and signals: one writer at a time (a flock),
SIGTERM handled as Ctrl-C, an unfinished run reported as such, a tampered corpus
refused unless trusted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.cli.common import EXIT_TERMINATED
from pipeline.corpus.generate import generate_corpus
from pipeline.distribute.cluster import Cluster
from pipeline.problem.registry import get_problem
from pipeline.results import store as report
from tests.cli_output import without_isolation_line

GRIDJUDGE = Path(sys.executable).with_name("gridjudge")
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("c") / "spot"
    generate_corpus(get_problem("spot"), 12, 3, out, families=["n2"])
    return out


def grade(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["grade", *args, "--address", "local-serial"])
    return result.exit_code, without_isolation_line(result.output)


def test_a_second_writer_is_refused_while_the_first_holds_the_folder(
    corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom pipeline.results.folder import RunLock\n"
         "lock = RunLock(sys.argv[1])\nprint('locked', flush=True)\ntime.sleep(120)\n", str(out)],
        stdout=subprocess.PIPE, text=True, cwd=REPO,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        code, output = grade(str(corpus), "-s", "solver:spot", "--out", str(out))
        assert code == 2, output
        lines = output.strip().splitlines()
        assert len(lines) == 1 and "being written by another gridjudge" in lines[0], output
        assert f"pid {holder.pid}" in lines[0]
        assert not (out / report.RUN_JSON).exists()
    finally:
        holder.kill()
        holder.wait()
    code, output = grade(str(corpus), "-s", "solver:spot", "--out", str(out))  # lock gone
    assert code == 0, output
    assert report.read_run_json(out)["status"] == "done"


def test_report_on_an_unfinished_run_says_so_above_the_table(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert grade(str(corpus), "-s", "solver:spot", "--out", str(out))[0] == 0
    info = report.read_run_json(out)
    report.write_run_json(out, {**info, "status": "interrupted"})
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    first = next(i for i, line in enumerate(lines) if "unfinished run" in line)
    assert "interrupted; continue with --resume" in lines[first]
    assert first < next(i for i, line in enumerate(lines) if "solver:spot" in line)
    assert "unfinished run (interrupted)" in (out / "report.html").read_text()
    report.write_run_json(out, {**info, "status": "done"})
    done = CliRunner().invoke(app, ["report", str(out)])
    assert "unfinished run (" not in done.output


def test_a_tampered_corpus_is_refused_unless_trusted(corpus: Path, tmp_path: Path) -> None:
    tampered = tmp_path / "spot"
    tampered.mkdir()
    for path in corpus.iterdir():
        (tampered / path.name).write_bytes(path.read_bytes())
    part = sorted(tampered.glob("part-*.parquet"))[0]
    table = pq.read_table(part)
    changed = [
        t.replace("1", "0", 1) if i == 0 else t for i, t in enumerate(table["input"].to_pylist())
    ]
    at = table.schema.get_field_index("input")
    pq.write_table(
        table.set_column(at, table.schema.field(at), pa.array(changed, table["input"].type)), part
    )
    code, output = grade(str(tampered), "-s", "solver:spot", "--out", str(tmp_path / "r1"))
    assert code == 2 and "content hash differs from the manifest" in output, output
    assert len(output.strip().splitlines()) == 1
    code, output = grade(
        str(tampered), "-s", "solver:spot", "--out", str(tmp_path / "r2"), "--trust-corpus"
    )
    assert code == 0, output


def parts(run_dir: Path) -> list[Path]:
    return list(report.results_dir(run_dir).glob("part-*.parquet"))


def terminate_when(argv: list[str], ready: Callable[[], bool]) -> str:
    """Run gridjudge ARGV, send it SIGTERM once `ready()`; its stderr, after checking it
    ended as a SIGTERM should: exit 143, without a traceback or Ray's crash dump."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    driver = subprocess.Popen(
        [str(GRIDJUDGE), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    deadline = time.monotonic() + 120
    while not ready():
        assert driver.poll() is None, driver.communicate()[1].decode()[-2000:]
        assert time.monotonic() < deadline, "the run never got ready to be stopped"
        time.sleep(0.02)
    driver.send_signal(signal.SIGTERM)
    _, err = driver.communicate(timeout=60)
    stderr = err.decode()
    assert driver.returncode == EXIT_TERMINATED, stderr[-2000:]
    assert "Traceback" not in stderr and "***" not in stderr, stderr[-2000:]
    return stderr


@pytest.mark.ray
def test_sigterm_keeps_finished_chunks_and_says_how_to_resume(
    ray_cluster: Cluster, corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    sub = "cmd:sleep 0.3; echo Draw"
    argv = ["grade", str(corpus), "-s", sub, "--out", str(out)]
    argv += ["--address", ray_cluster.gcs_address(), "--chunk-size", "1", "--max-in-flight", "1"]
    stderr = terminate_when(argv, lambda: len(parts(out)) >= 2)
    assert "continue with --resume" in stderr
    info = report.read_run_json(out)
    assert info["status"] == "interrupted"
    kept = len(report.load_results(out))
    assert 2 <= kept < 12


@pytest.mark.ray
def test_sigterm_stops_a_config_run_as_it_stops_grade(
    ray_cluster: Cluster, corpus: Path, tmp_path: Path
) -> None:
    config = tmp_path / "nightly.yaml"
    config.write_text(
        f"out: {tmp_path / 'out'}\naddress: {ray_cluster.gcs_address()}\n"
        f"corpora:\n  spot: {{path: {corpus}}}\n"
        "jobs:\n  slow:\n    corpora: [spot]\n"
        '    submissions: ["cmd:sleep 0.3; echo Draw"]\n    chunk_size: 1\n'
    )
    run_dir = tmp_path / "out" / "runs" / "slow"
    stderr = terminate_when(["run", str(config)], lambda: len(parts(run_dir)) >= 2)
    assert "run the same config again to resume" in stderr
    assert report.read_run_json(run_dir)["status"] == "interrupted"
    assert 2 <= len(report.load_results(run_dir)) < 12


@pytest.mark.ray
def test_sigterm_stops_the_demo_and_the_next_demo_replaces_it(
    ray_cluster: Cluster, tmp_path: Path
) -> None:
    out = tmp_path / "demo-out"
    # the demo as a user runs it, on its own embedded Ray: a driver attached to the shared
    # test cluster and stopped mid-run sometimes hits a Ray core-worker check ("Tried to
    # complete task that was not pending") on its way out, seen 2 in 7 runs
    argv = ["demo", "--out", str(out), "--problem", "tetris", "--cases", "60"]
    run_dir = out / "runs" / "tetris"
    stderr = terminate_when(argv, lambda: (run_dir / "run.json").is_file())
    assert "`gridjudge demo` again starts over" in stderr
    assert json.loads((out / "demo.json").read_text())["status"] == "interrupted"
    assert report.read_run_json(run_dir)["status"] == "interrupted"
    # not refused as a folder of something else: the next demo replaces it
    again = CliRunner().invoke(
        app, ["demo", "--out", str(out), "--problem", "clocks", "--cases", "4"]
    )
    assert again.exit_code == 0, again.output
    assert json.loads((out / "demo.json").read_text())["status"] == "done"
    assert not run_dir.exists()


def test_an_interrupt_right_after_run_json_says_running_ends_the_run_interrupted(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SIGTERM that lands just after run.json says "running" (the moment a user, or
    a test waiting for run.json, sends it) ends the run "interrupted", never leaves it
    "running": here the interrupt is raised by the write itself, once it is done."""
    from pipeline.grade import driver
    from pipeline.grade.plan import GradeOptions, plan_grade

    write = report.write_run_json

    def then_interrupted(out: Path, info: dict[str, object]) -> None:
        write(out, info)
        if info["status"] == "running":
            raise KeyboardInterrupt

    monkeypatch.setattr(report, "write_run_json", then_interrupted)
    out = tmp_path / "run"
    options = GradeOptions(
        corpora=[corpus], submissions=["solver:spot"], out=out, address="local-serial"
    )
    with pytest.raises(KeyboardInterrupt):
        driver.run_grade(plan_grade(options))
    assert report.read_run_json(out)["status"] == "interrupted"
