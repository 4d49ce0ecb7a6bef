"""How `grade` cuts a run into chunks and gets their rows home: chunk sizes (in-process
chunks halve over the tail), and results parts staged by the worker that graded them (on
the driver's node) and committed by the driver: a staged part is no result until
committed, a chunk from another node sends its rows back, and a run leaves no staged part
behind."""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline.corpus.generate import generate_corpus
from pipeline.corpus.store import iter_batches
from pipeline.distribute.cluster import Cluster
from pipeline.grade.chunk_sizes import IN_PROCESS_CHUNK, tapered_size
from pipeline.grade.driver import RunDriver, run_grade
from pipeline.grade.plan import GradeOptions, GradeOutcome, GradePlan, plan_grade
from pipeline.grade.settings import GradeSettings
from pipeline.grade.task import GradeChunk, grade_and_stage, grade_chunk
from pipeline.limits import Limits
from pipeline.problem.registry import get_problem
from pipeline.program.submission import parse_spec, prepare
from pipeline.results import store as report
from pipeline.results.summary import summarize


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
        "clocks",
        subs,
        cases,
        Limits(),
        GradeSettings(),
        "r",
        stage_dir=str(run_dir),
        stage_node=stage_node,
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


# ------------------------------------------------------------- chunk sizes of a run


def _chunks(plan: GradePlan, cpus: int) -> list[GradeChunk]:
    """The chunks a run of `plan` on a cluster of `cpus` CPUs is cut into, in order."""
    driver = RunDriver(plan, GradeOutcome(), None, None)
    driver.cpus = cpus
    return list(driver.chunks())


@pytest.mark.slow
def test_in_process_chunks_halve_over_the_tail_and_cover_every_case_once(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    generate_corpus(get_problem("clocks"), 20_000, 1, corpus)
    plan = plan_grade(
        GradeOptions(corpora=[corpus], submissions=["solver:clocks"], out=tmp_path / "run")
    )
    chunks = _chunks(plan, cpus=2)
    sizes = [c.cases.num_rows for c in chunks if isinstance(c.cases, pa.RecordBatch)]
    assert len(sizes) == len(chunks)
    # 20,000 cases on 2 CPUs: CHUNKS_PER_CPU chunks per CPU, then the last 2 x 2,500 halve
    assert sizes == [2500] * 7 + [1250, 1000, 250]
    ids = [i for c in chunks for i in c.cases.column("case_id").to_pylist()]  # type: ignore[union-attr]
    in_corpus = [
        i for b in iter_batches(corpus, columns=["case_id"]) for i in b.column(0).to_pylist()
    ]
    assert ids == in_corpus and len(set(ids)) == 20_000  # every case once, in corpus order


def test_tapered_sizes_are_full_chunks_then_halve_down_to_the_floor() -> None:
    sizes, left = [], 200_000
    while left > 0:
        sizes.append(min(left, tapered_size(25_000, left, 2)))
        left -= sizes[-1]
    assert sizes == [25_000] * 7 + [12_500, 6_250, 3_125, 1_563, 1_000, 562]
    assert tapered_size(50_000, 10**6, 8) == 50_000
    assert tapered_size(25_000, 1_500, 2) == IN_PROCESS_CHUNK == 1000
    assert tapered_size(500, 100, 2) == 500  # never above a size asked smaller than the floor


def test_an_explicit_chunk_size_is_kept_to_the_end(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    generate_corpus(get_problem("clocks"), 100, 1, corpus)
    options = GradeOptions(
        corpora=[corpus], submissions=["solver:clocks"], out=tmp_path / "run", chunk_size=30
    )
    sizes = [len(c.cases) for c in _chunks(plan_grade(options), cpus=2)]
    assert sizes == [30, 30, 30, 10]
