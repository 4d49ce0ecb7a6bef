"""Mass grading: a class of generated variants of the clocks example (every variant a
distinct source, so each is compiled; one in three is wrong on a share of the cases)
graded on a clocks corpus, then scored and reported. Prints the time spent compiling,
pairs/s of the grading, the time to score (gradebook + feedback files) and to render
report.html, and the report's size.

`--synthetic` skips compiling and grading: it writes results rows for N submissions x M
cases (verdicts drawn at random, failing rows with a checker message and an output head)
and times only scoring and the report, to check the report's size at class scale.

    .venv/bin/python bench/mass_grading.py [--submissions 300] [--cases 1000]
        [--address local-serial|HOST:PORT] [--synthetic]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.corpus.generate import generate_corpus
from pipeline.grade.driver import run_grade
from pipeline.grade.plan import GradeOptions, plan_grade
from pipeline.jobs.scores import finish_run
from pipeline.problem.registry import get_problem
from pipeline.program.submission_sets import from_dir
from pipeline.report.html import write_report
from pipeline.results.store import write_results_part, write_run_json
from pipeline.schemas import RESULTS_SCHEMA
from pipeline.scoring.policy import Group, Policy, Threshold

EXAMPLE = Path(__file__).resolve().parents[1] / "datasets" / "examples" / "clocks" / "correct.cpp"
POLICY = Policy(
    groups=[
        Group(name="corner", families=["all12", "one_move"], points=20, aggregate="all"),
        Group(name="random", families=["random"], points=30, aggregate="fraction"),
        Group(name="rest", families=["*"], points=50, aggregate=Threshold(threshold=10)),
    ]
)


def write_variants(folder: Path, n: int) -> None:
    """n sources: the example with a distinct comment; every third answers "1" when the
    first dial's value modulo a per-variant number is 0 (wrong on a share of cases)."""
    source = EXAMPLE.read_text()
    folder.mkdir(parents=True)
    for i in range(1, n + 1):
        text = f"// variant {i}\n{source}"
        if i % 3 == 0:
            bug = (
                f"dial[i] = (dial[i] / 3) % 4;\n        if (i == 0 && dial[0] % {2 + i % 4} == 0)"
                ' { std::printf("1\\n"); return 0; }'
            )
            text = text.replace("dial[i] = (dial[i] / 3) % 4;", bug, 1)
        (folder / f"s{i}.cpp").write_text(text)


def graded(root: Path, subs: int, cases: int, address: str | None) -> Path:
    corpus = root / "clocks"
    generate_corpus(get_problem("clocks"), cases, 1, corpus)
    write_variants(root / "subs", subs)
    run = root / "run"
    options = GradeOptions(
        corpora=[corpus],
        submissions=[],
        out=run,
        address=address,
        cache_dir=root / "build-cache",
        submission_sets=from_dir(root / "subs"),
    )
    start = time.perf_counter()
    plan = plan_grade(options)  # compiles every submission
    compiled = time.perf_counter() - start
    failed = sum(bool(s.compile_error) for s in plan.corpora[0].submissions)
    print(f"compile: {subs} submissions in {compiled:.1f} s ({failed} failed)")
    start = time.perf_counter()
    outcome = run_grade(plan)
    took = time.perf_counter() - start
    print(f"grade: {outcome.rows} pairs in {took:.1f} s = {outcome.rows / took:,.0f} pairs/s")
    return run


def synthetic(root: Path, subs: int, cases: int) -> Path:
    run = root / "run"
    rng = np.random.default_rng(1)
    families = ["random", "all12", "one_move", "double_move", "few_moves", "many_moves"]
    case_ids = [f"{families[i % len(families)]}/{i:07d}" for i in range(cases)]
    for s in range(1, subs + 1):
        skill = rng.uniform(0.5, 1.0)
        ok = rng.random(cases) < skill
        verdicts = np.where(ok, "AC", rng.choice(["WA", "TLE", "RE"], size=cases))
        n = cases
        cols = {
            "run_id": pa.array(["r"] * n),
            "submission": pa.array([f"s{s}"] * n),
            "submission_sha": pa.array([f"sha{s}"] * n),
            "problem": pa.array(["clocks"] * n),
            "case_id": pa.array(case_ids),
            "family": pa.array([c.split("/")[0] for c in case_ids]),
            "verdict": pa.array(verdicts.tolist()),
            "cpu_ms": pa.array(rng.uniform(1, 50, size=n)),
            "attempt": pa.array(np.zeros(n, dtype=np.int32)),
            "batch_size": pa.array(np.ones(n, dtype=np.int32)),
            "checker_msg": pa.array([None if v else "expected 7 tokens, got 3" for v in ok]),
            "output_head": pa.array([None if v else "1 2 3\n" * 20 for v in ok]),
        }
        for field in RESULTS_SCHEMA:
            cols.setdefault(field.name, pa.nulls(n, field.type))
        write_results_part(run, pa.Table.from_pydict(cols, schema=RESULTS_SCHEMA))
    write_run_json(run, {"run_id": "synthetic", "pairs": subs * cases})
    print(f"synthetic: {subs} x {cases} results rows written")
    return run


def main() -> None:
    # bench/solvers.py would shadow the `solvers` package (this folder is sys.path[0])
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=300)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--address", default=None)
    parser.add_argument("--synthetic", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gj-mass-") as tmp:
        root = Path(tmp)
        if args.synthetic:
            run = synthetic(root, args.submissions, args.cases)
        else:
            run = graded(root, args.submissions, args.cases, args.address)
        start = time.perf_counter()
        done = finish_run(run, POLICY, html=False)
        scored = time.perf_counter() - start
        print(f"score: gradebook of {len(done.book)} rows + feedback files in {scored:.2f} s")
        start = time.perf_counter()
        report = write_report(run, policy=POLICY)
        rendered = time.perf_counter() - start
        size = report.stat().st_size
        print(f"report: {size / 1e6:.2f} MB, rendered in {rendered:.2f} s")


if __name__ == "__main__":
    main()
