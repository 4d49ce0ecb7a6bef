"""Several grading runs through one cluster (grade.together, verify's submissions side by
side): each run ends, committed to its own run folder, before the next run's plan is
asked for when one chunk is in flight (one worker grades as one after the other); a run
whose task raises on its worker ends failed, the other run's rows are all kept. On the
serial executor and on a real local Ray: the same code path."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from types import SimpleNamespace

import pytest

from pipeline.corpus.generate import generate_corpus
from pipeline.distribute.cluster import SERIAL, Cluster, DistributeError
from pipeline.grade.plan import GradeOptions, GradePlan, plan_grade
from pipeline.grade.settings import GradeSettings
from pipeline.grade.time_verdicts import NOT_RUN
from pipeline.grade.together import Ended, Planned, grade_together
from pipeline.problem.registry import get_problem
from pipeline.results import store as run_folder
from pipeline.results.summary import last_attempts

WHERE = [SERIAL, pytest.param("ray", marks=pytest.mark.ray)]


def cluster_at(where: str, request: pytest.FixtureRequest) -> AbstractContextManager[Cluster]:
    if where == "ray":
        return nullcontext(request.getfixturevalue("ray_cluster"))
    return Cluster(SERIAL)


def plan(corpus: Path, out: Path, submission: str = "solver:clocks") -> GradePlan:
    settings = GradeSettings(max_tle=1, cap_rejected=True)  # up to its first rejection
    options = GradeOptions(
        corpora=[corpus],
        submissions=[submission],
        out=out,
        chunk_size=7,
        cache=False,
        settings=settings,
    )
    return plan_grade(options)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("together") / "corpus"
    generate_corpus(get_problem("clocks"), 20, 1, path)
    return path


@pytest.mark.parametrize("where", WHERE)
def test_with_one_chunk_in_flight_each_run_ends_before_the_next_is_planned(
    where: str, corpus: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    ended: list[Ended] = []
    seen: list[int] = []  # runs ended when each plan was asked for

    def plans() -> Iterator[Planned]:
        for key in ("a", "b", "c"):
            seen.append(len(ended))
            yield Planned(key, plan(corpus, tmp_path / key))

    with cluster_at(where, request) as cluster:
        grade_together(cluster, plans(), ended.append, max_in_flight=1)
    assert seen == [0, 1, 2]
    assert [e.key for e in ended] == ["a", "b", "c"]
    for e in ended:
        assert e.fault == "" and e.workers
        out = tmp_path / e.key
        assert run_folder.read_run_json(out)["status"] == "done"
        assert run_folder.load_results(out).num_rows == 20  # 3 chunks of 7, 7, 6


@pytest.mark.parametrize("where", WHERE)
def test_a_run_whose_task_raises_ends_failed_and_the_other_run_is_kept(
    where: str, corpus: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    good, bad = plan(corpus, tmp_path / "good"), plan(corpus, tmp_path / "bad")
    # its chunks name a problem the worker cannot load: the task raises there
    bad.corpora[0].problem = SimpleNamespace(name=str(tmp_path / "no-such-package"))  # type: ignore[assignment]
    ended: list[Ended] = []
    with cluster_at(where, request) as cluster:
        runs = [Planned("bad", bad), Planned("good", good)]
        grade_together(cluster, runs, ended.append, max_in_flight=2)
    by_key = {e.key: e for e in ended}
    assert set(by_key) == {"bad", "good"}
    assert by_key["bad"].fault.startswith("RegistryError: unknown problem"), by_key["bad"].fault
    assert run_folder.read_run_json(tmp_path / "bad")["status"] == "failed"
    assert by_key["good"].fault == ""
    assert run_folder.read_run_json(tmp_path / "good")["status"] == "done"
    assert run_folder.load_results(tmp_path / "good").num_rows == 20


@pytest.mark.parametrize("where", WHERE)
def test_an_in_order_run_stops_at_its_first_rejection_however_many_chunks_may_fly(
    where: str, corpus: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Wrong on every case, in chunks of 7: its second chunk is made only once the first
    (stopped at case 1) is committed, so nothing after case 1 runs, though two chunks
    could be in flight (made at once, each chunk would run to its own first rejection)."""
    wrong = tmp_path / "wrong.py"
    wrong.write_text("print('nonsense')\n")
    runs = [
        Planned("wrong", plan(corpus, tmp_path / "wrong", str(wrong)), in_order=True),
        Planned("right", plan(corpus, tmp_path / "right")),
    ]
    ended: list[Ended] = []
    with cluster_at(where, request) as cluster:
        grade_together(cluster, runs, ended.append, max_in_flight=2)
    assert sorted(e.key for e in ended) == ["right", "wrong"]
    rows = last_attempts(run_folder.load_results(tmp_path / "wrong"))
    ran = [r for r in rows.to_pylist() if r["tle_kind"] != NOT_RUN]
    assert len(ran) == 1 and ran[0]["verdict"] != "AC", ran
    assert rows.num_rows == 20  # the rest marked not run
    assert run_folder.load_results(tmp_path / "right").num_rows == 20


@pytest.mark.parametrize("where", WHERE)
def test_chunks_that_wait_with_nothing_in_flight_are_an_error_not_a_hang(
    where: str, request: pytest.FixtureRequest
) -> None:
    with cluster_at(where, request) as cluster, pytest.raises(DistributeError, match="wait"):
        list(cluster.map_unordered(str, iter([None])))


def test_a_ray_that_does_not_start_is_one_line_whatever_it_raises(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ray's start that times out (a loaded machine: the raylet not registered within 30
    s) raises a bare Exception: it is a DistributeError of one line, like any other."""
    import ray

    def timed_out(**_: object) -> None:
        raise Exception(  # what Ray's node.py raises
            "The current node timed out during startup. This could happen because\n"
            "some of the raylet failed to startup or the GCS has become overloaded."
        )

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", timed_out)
    with pytest.raises(DistributeError) as caught, Cluster("local"):
        pass
    assert str(caught.value).startswith("cannot start or join Ray at local: The current node")
    assert "\n" not in str(caught.value)
