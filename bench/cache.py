"""The result cache (docs/cache.md), in one run:

1. `grade` of the same corpora x submissions into a new run folder: the second run's
   time as a fraction of the first's (target <= 10 %), its verdicts equal to the first's
   and every row marked cached. The submission is compiled before either is timed.
2. `run CONFIG` a second time with one submission's source changed: its time as a
   fraction of the first's, against that submission's share (target: share + <= 5 %).
   The share is the time of a run of that submission alone, after another edit (so it
   is built again, as the changed submission is) and without the cache.

Corpora: clocks (in-process reference solvers) and spot (bench/spot.cpp, one process
per case, two copies told apart by a comment). One embedded Ray is started first and
every run joins it (its start-up is printed, not timed); a run whose every row is in the
cache starts no Ray at all. The result cache and the build cache are fresh folders of
this run. Corpus generation is not timed.

    .venv/bin/python bench/cache.py [--clocks-n 20000] [--spot-n 600]
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python bench/cache.py`, bench/ comes first on sys.path, and bench/solvers.py
# would shadow the `solvers` package the problem plugins live in.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import os
import shutil
import tempfile
import time
from typing import Any

import pyarrow.compute as pc

from pipeline.corpus.generate import cluster_runner, generate_corpus
from pipeline.distribute.cluster import Cluster
from pipeline.grade.driver import run_grade
from pipeline.grade.plan import GradeOptions, plan_grade
from pipeline.jobs.config import load_config
from pipeline.jobs.config_job import run_config
from pipeline.problem.registry import get_problem
from pipeline.results import store as report

HERE = Path(__file__).resolve().parent
PAIR = [("submission", "ascending"), ("case_id", "ascending")]


def timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def grade_twice(work: Path, corpora: list[Path], subs: list[str]) -> None:
    def grade(out: Path) -> Any:
        return run_grade(plan_grade(GradeOptions(corpora=corpora, submissions=subs, out=out)))

    plan_grade(GradeOptions(corpora=corpora, submissions=subs, out=work / "build"))  # compiles
    t1, first = timed(grade, work / "grade-1")
    t2, second = timed(grade, work / "grade-2")
    a = report.load_results(work / "grade-1").sort_by(PAIR)
    b = report.load_results(work / "grade-2").sort_by(PAIR)
    same = a.column("verdict").equals(b.column("verdict"))
    all_cached = pc.all(b.column("cached")).as_py()
    print(f"1. grade, {first.rows} pairs: first {t1:.2f} s ({first.where}), second {t2:.2f} s")
    print(f"   second / first = {100 * t2 / t1:.1f} % (target <= 10 %)")
    print(f"   verdicts identical: {same}; cached rows: {second.cached} (all: {all_cached})")


CONFIG = """
out: {out}
resume: false
html: false
corpora:
  clocks: {{path: {clocks}}}
  spot: {{path: {spot}}}
jobs:
{jobs}
"""

JOBS = """  clocks:
    corpora: [clocks]
    submissions: ["solver:clocks", "solver:clocks@1"]
  spot:
    corpora: [spot]
    submissions: ["{a}", "{b}"]
"""

ALONE = """  alone:
    corpora: [spot]
    submissions: ["{b}"]
    cache: false
"""


def run_config_twice(work: Path, clocks: Path, spot: Path) -> None:
    a, b = work / "a.cpp", work / "b.cpp"
    source = (HERE / "spot.cpp").read_text()
    a.write_text(source + "// a\n")
    b.write_text(source + "// b\n")

    def run(name: str, jobs: str) -> float:
        config = work / f"{name}.yaml"
        config.write_text(CONFIG.format(out=work / name, clocks=clocks, spot=spot, jobs=jobs))
        seconds, _ = timed(run_config, load_config(config))
        return seconds

    t1 = run("config-1", JOBS.format(a=a, b=b))
    b.write_text(source + "// b, changed\n")
    t2 = run("config-2", JOBS.format(a=a, b=b))
    b.write_text(source + "// b, changed again\n")
    alone = run("config-alone", ALONE.format(b=b))
    share = alone / t1
    print(f"2. run CONFIG: first {t1:.2f} s; again with b.cpp changed {t2:.2f} s")
    print(f"   b.cpp alone, built again, no cache: {alone:.2f} s = its share {100 * share:.1f} %")
    print(
        f"   second / first = {100 * t2 / t1:.1f} % "
        f"(target <= share + 5 % = {100 * share + 5:.1f} %)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clocks-n", type=int, default=20_000, help="clocks cases (in-process)")
    ap.add_argument("--spot-n", type=int, default=600, help="spot cases (one process each)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="gridjudge-bench-cache-"))
    os.environ["GRIDJUDGE_CACHE"] = str(work / "cache")
    os.environ["GRIDJUDGE_RESULT_CACHE"] = str(work / "cache")
    try:
        t0 = time.perf_counter()
        with Cluster("local") as cluster:
            print(f"cluster: {cluster.describe()}, started in {time.perf_counter() - t0:.1f} s")
            runner = cluster_runner(cluster)
            clocks, spot = work / "clocks", work / "spot"
            generate_corpus(get_problem("clocks"), args.clocks_n, 1, clocks, runner=runner)
            generate_corpus(get_problem("spot"), args.spot_n, 2, spot, runner=runner)
            first_cpp = work / "first.cpp"
            first_cpp.write_text((HERE / "spot.cpp").read_text() + "// first\n")
            grade_twice(work, [clocks, spot], ["solver:clocks", "solver:spot", str(first_cpp)])
            run_config_twice(work, clocks, spot)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
