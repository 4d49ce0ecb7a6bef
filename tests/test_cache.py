"""The result cache (pipeline/grade/cache.py): a pair graded once is not graded again
while nothing that decides its verdict changed. Every test counts the cases the engine's
runners were actually given (serial mode: the engine runs in this process)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.corpus.generate import generate_corpus
from pipeline.grade import cache as cache_mod
from pipeline.grade import cache_key, engine
from pipeline.grade.cache import ResultCache, reusable
from pipeline.grade.driver import run_grade
from pipeline.grade.plan import GradeOptions, GradeOutcome, GradeSettings, plan_grade
from pipeline.limits import Limits
from pipeline.problem.registry import get_problem
from pipeline.results import store as report
from tests.run_summary import read_summary

SUBMISSIONS = Path(__file__).resolve().parent / "submissions" / "spot"
GRIDJUDGE = Path(sys.executable).parent / "gridjudge"
PAIR = ["submission", "case_id"]


@pytest.fixture(scope="module")
def spot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("c") / "spot"
    generate_corpus(get_problem("spot"), 10, 3, out, families=["n2", "mirror"])
    return out


@pytest.fixture(scope="module")
def clocks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("c") / "clocks"
    generate_corpus(get_problem("clocks"), 8, 3, out)
    return out


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Cases given to a runner, by submission label; a case given again to the same
    runner (a wall-clock TLE run again alone, grade.time_verdicts) counts once."""
    counts: Counter[str] = Counter()
    real = engine.runner_for

    def counting(problem: Any, submission: Any, limits: Any, **kw: Any) -> Any:
        runner = real(problem, submission, limits, **kw)
        seen: set[str] = set()

        class Counting:
            limits = runner.limits

            def grade(self, cases: Any) -> Any:
                ids = set(cases.case_id.to_pylist())
                counts[submission.label] += len(ids - seen)
                seen.update(ids)
                return runner.grade(cases)

            def close(self) -> None:
                runner.close()

        return Counting()

    monkeypatch.setattr(engine, "runner_for", counting)
    return counts


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def grade(corpora: list[Path], subs: list[str], out: Path, at: Path, **kw: Any) -> GradeOutcome:
    options = GradeOptions(
        corpora=corpora, submissions=subs, out=out, address="local-serial", result_cache=at, **kw
    )
    return run_grade(plan_grade(options))


def rows(run: Path) -> pa.Table:
    return report.load_results(run).sort_by([(c, "ascending") for c in PAIR])


def sources(tmp_path: Path) -> tuple[str, str]:
    """Two py3 submissions of spot in files of this test (one right, one wrong)."""
    ac, wa = tmp_path / "ac.py", tmp_path / "wa.py"
    shutil.copy(SUBMISSIONS / "ac_rotations.py", ac)
    shutil.copy(SUBMISSIONS / "wa_counts_empty_board.py", wa)
    return str(ac), str(wa)


def test_the_same_grade_into_a_new_folder_runs_nothing_and_gives_the_same_rows(
    spot: Path, tmp_path: Path, cache_dir: Path, runs: Counter[str]
) -> None:
    subs = ["solver:spot", *sources(tmp_path)]
    first = grade([spot], subs, tmp_path / "r1", cache_dir)
    assert sum(runs.values()) == 30 and first.cached == 0
    runs.clear()
    second = grade([spot], subs, tmp_path / "r2", cache_dir)
    assert sum(runs.values()) == 0
    assert second.rows == 30 and second.cached == 30 and second.where == "the result cache"
    a, b = rows(tmp_path / "r1"), rows(tmp_path / "r2")
    assert a.column("cached").to_pylist() == [False] * 30
    assert b.column("cached").to_pylist() == [True] * 30
    same = ["submission", "submission_sha", "case_id", "family", "verdict", "output_sha256"]
    same += ["cpu_ms", "checker_msg", "output_head", "cpu_ms_runs"]
    assert a.select(same).equals(b.select(same))
    assert set(b.column("run_id").to_pylist()) == {report.read_run_json(tmp_path / "r2")["run_id"]}
    assert read_summary(tmp_path / "r1").equals(read_summary(tmp_path / "r2"))


def test_no_cache_grades_everything_again(
    spot: Path, tmp_path: Path, cache_dir: Path, runs: Counter[str]
) -> None:
    grade([spot], ["solver:spot"], tmp_path / "r1", cache_dir)
    grade([spot], ["solver:spot"], tmp_path / "r2", cache_dir, cache=False)
    assert runs["solver:spot"] == 20


def test_a_changed_source_regrades_only_that_submission(
    spot: Path, tmp_path: Path, cache_dir: Path, runs: Counter[str]
) -> None:
    ac, wa = sources(tmp_path)
    grade([spot], ["solver:spot", ac, wa], tmp_path / "r1", cache_dir)
    runs.clear()
    with open(wa, "a") as f:
        f.write("# changed\n")
    grade([spot], ["solver:spot", ac, wa], tmp_path / "r2", cache_dir)
    assert runs == Counter({wa: 10})
    fresh = rows(tmp_path / "r2").filter(pa.compute.invert(rows(tmp_path / "r2")["cached"]))
    assert set(fresh.column("submission").to_pylist()) == {wa}


def test_a_changed_checker_regrades_everything_of_its_problem_only(
    spot: Path,
    clocks: Path,
    tmp_path: Path,
    cache_dir: Path,
    runs: Counter[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    subs = ["solver:spot", "solver:spot@1", "solver:clocks"]
    grade([spot, clocks], subs, tmp_path / "r1", cache_dir)
    runs.clear()
    real = cache_key.checker_fingerprint
    monkeypatch.setattr(
        cache_key,
        "checker_fingerprint",
        lambda p: real(p) + (" edited" if p.name == "spot" else ""),
    )
    grade([spot, clocks], subs, tmp_path / "r2", cache_dir)
    assert runs == Counter({"solver:spot": 10, "solver:spot@1": 10})


# A spot "submission" that loops forever on inputs of even length, else answers nonsense.
SLOW_OR_WRONG = """import sys
data = sys.stdin.read()
while len(data) % 2 == 0:
    pass
print("no")
"""


def test_a_raised_time_limit_regrades_only_the_time_limit_exceeded(
    spot: Path, tmp_path: Path, cache_dir: Path, runs: Counter[str]
) -> None:
    program = tmp_path / "slow.py"
    program.write_text(SLOW_OR_WRONG)
    sub = str(program)
    grade([spot], [sub], tmp_path / "r1", cache_dir, settings=GradeSettings(time_limit=0.2))
    first = Counter(rows(tmp_path / "r1").column("verdict").to_pylist())
    assert first["TLE"] and first["WA"] and first["TLE"] + first["WA"] == 10
    runs.clear()
    grade([spot], [sub], tmp_path / "r2", cache_dir, settings=GradeSettings(time_limit=0.3))
    assert runs[sub] == first["TLE"]  # a WA stays a WA with more time; a TLE is in doubt
    again = rows(tmp_path / "r2")
    assert Counter(again.column("verdict").to_pylist()) == first
    runs.clear()
    # lower than the limit the WA rows were graded under (0.2 s), and timed once: in
    # doubt; the TLE rows (graded under 0.3 s) still hold
    grade([spot], [sub], tmp_path / "r3", cache_dir, settings=GradeSettings(time_limit=0.15))
    assert runs[sub] == first["WA"]


def entry(**values: Any) -> list[Any]:
    """An entry's row (ROW_COLUMNS) with these values, the rest null."""
    return [values.get(c) for c in cache_mod.ROW_COLUMNS]


def test_the_reuse_rule_for_limits() -> None:
    def row(verdict: str, cpu: list[float], wall: list[float] | None = None) -> list[Any]:
        return entry(verdict=verdict, cpu_ms_runs=cpu, wall_ms_runs=wall or cpu)

    at = Limits(cpu_ms=1000)
    assert reusable(row("TLE", [1000]), 1000, at)
    assert reusable(row("TLE", [2000]), 2000, at)  # TLE under 2 s: TLE under 1 s
    assert not reusable(row("TLE", [500]), 500, at)  # under 0.5 s: in doubt under 1 s
    assert reusable(row("AC", [400]), 500, at)  # AC with less time: AC with more
    assert reusable(row("WA", [1]), 500, at)
    assert not reusable(row("AC", [100]), 2000, at)  # timed once: in doubt
    assert reusable(row("AC", [100, 120, 500]), 2000, at)  # 3 runs, all <= half of 1 s
    assert not reusable(row("AC", [100, 120, 501]), 2000, at)
    assert not reusable(row("AC", [100, 120]), 2000, at)
    assert not reusable(row("AC", [100, 120, 130], [100, 120, 5000]), 2000, at)


def test_rows_without_transcripts_are_keyed_apart() -> None:
    # a run with joined pipes (no transcript) never serves a run that shows transcripts
    problem, limits = get_problem("spot"), Limits(cpu_ms=1000)

    def digest(settings: GradeSettings) -> bytes:
        return cache_key.KeyBase(problem, limits, settings).digest()

    assert digest(GradeSettings(transcripts=False)) != digest(GradeSettings())
    assert digest(GradeSettings(transcripts=True)) == digest(GradeSettings())


def test_a_corrupted_entry_is_detected_graded_again_and_rewritten(
    spot: Path, tmp_path: Path, cache_dir: Path, runs: Counter[str]
) -> None:
    grade([spot], ["solver:spot"], tmp_path / "r1", cache_dir)
    db = sqlite3.connect(cache_dir / cache_mod.CACHE_FILE)
    with db:
        key, row = db.execute("SELECT key, row FROM entries LIMIT 1").fetchone()
        assert b"AC" in row
        db.execute("UPDATE entries SET row = ? WHERE key = ?", [row.replace(b"AC", b"WA"), key])
    db.close()
    runs.clear()
    outcome = grade([spot], ["solver:spot"], tmp_path / "r2", cache_dir)
    assert runs["solver:spot"] == 1 and outcome.cache is not None and outcome.cache.broken == 1
    assert rows(tmp_path / "r2").column("verdict").to_pylist() == ["AC"] * 10
    runs.clear()
    grade([spot], ["solver:spot"], tmp_path / "r3", cache_dir)
    assert runs["solver:spot"] == 0  # rewritten whole


def test_a_cache_file_that_is_not_a_database_is_moved_aside(
    spot: Path, tmp_path: Path, cache_dir: Path, runs: Counter[str]
) -> None:
    grade([spot], ["solver:spot"], tmp_path / "r1", cache_dir)
    for extra in cache_dir.glob(f"{cache_mod.CACHE_FILE}-*"):
        extra.unlink()
    (cache_dir / cache_mod.CACHE_FILE).write_bytes(b"not a database" * 500)
    runs.clear()
    plan = plan_grade(
        GradeOptions(
            corpora=[spot],
            submissions=["solver:spot"],
            out=tmp_path / "r2",
            address="local-serial",
            result_cache=cache_dir,
        )
    )
    assert Path(plan.cache_reset).read_bytes().startswith(b"not a database")
    run_grade(plan)
    assert runs["solver:spot"] == 10
    runs.clear()
    grade([spot], ["solver:spot"], tmp_path / "r3", cache_dir)
    assert runs["solver:spot"] == 0  # the new file works


def test_the_size_cap_evicts_the_entries_used_longest_ago(tmp_path: Path) -> None:
    row = entry(verdict="AC", output_head="x" * 900)
    with ResultCache(tmp_path, max_mb=1) as cache:
        cache.store(((b"old%d" % i, row) for i in range(700)), 1000.0)
        cache.store(((b"new%d" % i, row) for i in range(700)), 1000.0)
        assert cache.lookup([b"old0"], Limits(cpu_ms=1000)).keys() == {b"old0"}  # used now
        assert cache.size() > 1 << 20
    with ResultCache(tmp_path, max_mb=1) as cache:
        assert cache.stats.evicted == 0 and cache.size() <= 1 << 20
        kept = cache.lookup([b"old%d" % i for i in range(700)] + [b"new699", b"new0"], Limits())
    assert b"old0" in kept and b"new699" in kept and b"old1" not in kept
    assert (tmp_path / cache_mod.CACHE_FILE).stat().st_size < 3 << 20


def test_judge_errors_are_never_cached(tmp_path: Path) -> None:
    row = entry(verdict="JE")
    with ResultCache(tmp_path) as cache:
        cache.store([(b"k", row)], 1000.0)
        assert cache.lookup([b"k"], Limits()) == {} and cache.stats.stored == 0


def test_results_written_before_the_cached_column_read_as_fresh(
    spot: Path, tmp_path: Path, cache_dir: Path
) -> None:
    grade([spot], ["solver:spot"], tmp_path / "r1", cache_dir)
    (part,) = report.results_dir(tmp_path / "r1").glob("part-*.parquet")
    pq.write_table(pq.read_table(part).drop_columns(["cached"]), part)
    loaded = report.load_results(tmp_path / "r1")
    assert loaded.column("cached").to_pylist() == [False] * 10
    assert report.load_results(tmp_path / "r1", columns=["cached", "verdict"]).num_rows == 10


def test_compare_counts_only_fresh_timings(spot: Path, tmp_path: Path, cache_dir: Path) -> None:
    grade([spot], ["solver:spot"], tmp_path / "r1", cache_dir)
    grade([spot], ["solver:spot"], tmp_path / "r2", cache_dir)
    cached = report.fresh_timings(report.load_results(tmp_path / "r2"))
    assert cached.column("cpu_ms").null_count == 10
    assert cached.column("verdict").to_pylist() == ["AC"] * 10
    fresh = report.load_results(tmp_path / "r1")
    assert report.fresh_timings(fresh).equals(fresh)


@pytest.mark.ray
def test_on_ray_the_driver_stores_what_workers_graded_and_a_second_run_runs_nothing(
    ray_cluster: Any, spot: Path, tmp_path: Path, cache_dir: Path
) -> None:
    # one line per execution, on any worker; world-writable, outside pytest's private
    # tmp tree: the sandbox may run the submission as an unprivileged user
    folder = Path(tempfile.mkdtemp(prefix="gridjudge-count-"))
    folder.chmod(0o777)
    counter = folder / "count"
    counter.touch()
    counter.chmod(0o666)
    sub = f"cmd:echo run >> {counter}; echo Draw"
    # a driver of its own joining the shared cluster, with the plain sandbox (which lets
    # the submission append to a host file) for its own workers
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env |= {"GRIDJUDGE_SANDBOX": "none", "GRIDJUDGE_RESULT_CACHE": str(cache_dir)}

    def on_ray(out: Path) -> str:
        argv = [str(GRIDJUDGE), "grade", str(spot), "-s", sub, "--out", str(out)]
        argv += ["--chunk-size", "3", "--address", ray_cluster.gcs_address()]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=180, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    assert "on Ray" in on_ray(tmp_path / "r1")
    assert len(counter.read_text().splitlines()) == 10
    assert "(10 from the result cache)" in on_ray(tmp_path / "r2")
    assert len(counter.read_text().splitlines()) == 10  # nothing ran again
    a, b = rows(tmp_path / "r1"), rows(tmp_path / "r2")
    assert a["verdict"].equals(b["verdict"]) and b["cached"].to_pylist() == [True] * 10
    shutil.rmtree(folder, ignore_errors=True)
