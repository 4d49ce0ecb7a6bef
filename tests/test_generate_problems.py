"""Generation with the real problem plugins: serial vs a real local Ray, every case valid,
and the `gridjudge generate` command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.generate import cluster_runner, generate_corpus
from pipeline.corpus.store import iter_rows, read_table, verify
from pipeline.distribute.cluster import Cluster
from pipeline.problem.registry import all_problems, get_problem


def _problem(name: str):
    return get_problem(name)  # a plugin that fails to load fails the test


@pytest.mark.parametrize("name", ["spot", "mine", "tetris", "gomoku", "clocks"])
def test_every_generated_case_validates(tmp_path: Path, name: str) -> None:
    problem = _problem(name)
    manifest = generate_corpus(problem, len(problem.families), 5, tmp_path / name)
    assert manifest.families == {f: 1 for f in problem.families}
    for row in iter_rows(tmp_path / name):
        assert problem.validate(row["input"]) == [], row["case_id"]
        assert problem.check(row["input"], row["expected"], row["expected"]).verdict == "AC"


@pytest.mark.ray
def test_ray_and_serial_give_the_same_corpus(tmp_path: Path, ray_cluster: Cluster) -> None:
    problem = _problem("clocks")
    serial = generate_corpus(problem, 120, 42, tmp_path / "serial", chunk_size=120)
    parallel = generate_corpus(
        problem, 120, 42, tmp_path / "ray", chunk_size=7, runner=cluster_runner(ray_cluster)
    )
    assert parallel.content_sha256 == serial.content_sha256
    assert read_table(tmp_path / "ray").equals(read_table(tmp_path / "serial"))
    verify(tmp_path / "ray")


def test_generate_command(tmp_path: Path) -> None:
    _problem("gomoku")
    out = tmp_path / "c"
    args = ["generate", "gomoku", "--count", "22", "--seed", "3", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--address", "local-serial", "--chunk-size", "5"])
    assert result.exit_code == 0, result.output
    assert "generated 22 cases of gomoku" in result.output
    assert verify(out).count == 22
    bad = CliRunner().invoke(app, [*args[:-1], str(tmp_path / "d"), "--family", "nope"])
    assert bad.exit_code == 2
    assert bad.output.strip().startswith("error: unknown family 'nope' of problem gomoku")
    assert len(bad.output.strip().splitlines()) == 1
    again = CliRunner().invoke(app, args)  # the folder is not empty now
    assert again.exit_code == 2 and "not empty" in again.output


_HASH_SCRIPT = """
import sys
from pathlib import Path
from pipeline.corpus.generate import generate_corpus
from pipeline.problem.registry import all_problems
out = Path(sys.argv[1])
for name, problem in sorted(all_problems().items()):
    m = generate_corpus(problem, 2 * len(problem.families), 9, out / name)
    print(name, m.content_sha256)
"""


@pytest.mark.slow
def test_corpus_does_not_depend_on_the_process(tmp_path: Path) -> None:
    """Workers are other processes with other str-hash seeds: same corpus all the same."""
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, "-c", _HASH_SCRIPT, str(tmp_path / hash_seed)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert len(outputs[0].splitlines()) == len(all_problems())
