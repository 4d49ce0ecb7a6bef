"""Results parts staged by the worker that graded them (on the driver's node) and committed
by the driver: a staged part is no result until committed, a chunk from another node
sends its rows back, and a run leaves no staged part behind."""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import report
from pipeline.distribute import Cluster
from pipeline.execution import Limits
from pipeline.generate import generate_corpus
from pipeline.gradejob import GradeChunk, grade_and_stage, grade_chunk, run_grade
from pipeline.gradeplan import GradeOptions, plan_grade
from pipeline.registry import get_problem
from pipeline.submission import parse_spec, prepare
from pipeline.summary import summarize


def _chunk(run_dir: Path, stage_node: str) -> GradeChunk:
    problem = get_problem("clocks")
    rng = random.Random(3)
    texts = [problem.generate(rng, problem.families[0]) for _ in range(6)]
    cases = pa.RecordBatch.from_pylist(
        [
            {"case_id": f"c{i}", "family": "f", "input": t, "expected": problem.solve(t)}
            for i, t in enumerate(texts)
        ]
    )
    subs = [prepare(parse_spec("solver:clocks"), problem)]
    return GradeChunk(
        "clocks", subs, cases, Limits(), 1, 1, "r", stage_dir=str(run_dir), stage_node=stage_node
    )


def _same_rows(a: pa.Table, b: pa.Table) -> bool:
    drop = ["cpu_ms", "wall_ms", "cpu_ms_runs", "wall_ms_runs"]
    return a.drop_columns(drop).to_pylist() == b.drop_columns(drop).to_pylist()


def test_a_chunk_on_the_drivers_node_stages_its_part_and_commit_makes_it_a_result(
    tmp_path: Path,
) -> None:
    cluster = Cluster("local-serial")  # the chunk runs here, on the driver's node
    chunk = _chunk(tmp_path, stage_node=cluster.node_id())
    ((_, result),) = cluster.map_unordered(grade_and_stage, [chunk])
    assert result.table is None and result.staged is not None and result.staged.exists()
    assert result.rows == 6 and result.verdicts == {"AC": 6}
    # staged, not committed: not one of the run's results
    assert report.load_results(tmp_path).num_rows == 0
    part = report.commit_results_part(result.staged)
    assert part.name.startswith("part-") and not result.staged.exists()
    rows = report.load_results(tmp_path)
    assert _same_rows(rows, grade_chunk(chunk))
    assert result.summary.table().equals(summarize(rows).cast(result.summary.table().schema))


def test_a_chunk_on_another_node_sends_its_rows_back(tmp_path: Path) -> None:
    chunk = _chunk(tmp_path, stage_node="some-other-node")
    ((_, result),) = Cluster("local-serial").map_unordered(grade_and_stage, [chunk])
    assert result.staged is None and result.table is not None
    assert result.table.num_rows == result.rows == 6
    assert not (tmp_path / report.RESULTS_DIR).exists()


def test_a_run_commits_each_part_once_and_removes_parts_never_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "corpus"
    generate_corpus(get_problem("clocks"), 40, 1, corpus)
    out = tmp_path / "run"
    # a killed run's folder: a part staged by a chunk whose result never reached the
    # driver; the run is then resumed
    lost = report.stage_results_part(out, grade_chunk(_chunk(out, "")))
    assert lost is not None and lost.exists()
    options = GradeOptions(
        corpora=[corpus],
        submissions=["solver:clocks"],
        out=out,
        address="local-serial",
        chunk_size=7,
        resume=True,
    )
    outcome = run_grade(plan_grade(options))
    assert outcome.rows == 40
    assert not lost.exists()
    assert list((out / report.RESULTS_DIR).glob(".*")) == []
    rows = report.load_results(out)
    assert rows.num_rows == 40 and len(set(rows.column("case_id").to_pylist())) == 40
    assert len(list((out / report.RESULTS_DIR).glob("part-*.parquet"))) == 6  # 40 / 7
