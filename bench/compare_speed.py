"""How fast `compare` is on large synthetic runs, against a baseline measured in the same
run: converting both results tables to pandas and taking each case's median timing (the
least any comparison must do). Prints seconds, cases/s and the ratio to the baseline."""

from __future__ import annotations

import sys
import time

import numpy as np
import pyarrow as pa

from pipeline.compare.pair import compare_results
from pipeline.compare.render import cases_table, junit_xml
from pipeline.schemas import RESULTS_SCHEMA

REPEATS = 10


def results(n: int, submission: str, rng: np.random.Generator, slow: float) -> pa.Table:
    base = rng.uniform(1.0, 100.0, size=n)
    runs = base[:, None] * slow * rng.lognormal(0.0, 0.05, size=(n, REPEATS))
    medians = np.median(runs, axis=1)
    verdicts = np.where(rng.random(n) < 0.01, "WA", "AC")
    flat = pa.array(runs.ravel())
    offsets = pa.array(np.arange(0, n * REPEATS + 1, REPEATS, dtype=np.int32))
    columns = {
        "run_id": pa.array(["r"] * n),
        "submission": pa.array([submission] * n),
        "submission_sha": pa.array(["x"] * n),
        "problem": pa.array(["spot"] * n),
        "case_id": pa.array([f"c{i:07d}" for i in range(n)]),
        "family": pa.array([f"f{i % 8}" for i in range(n)]),
        "verdict": pa.array(verdicts.tolist()),
        "cpu_ms": pa.array(medians),
        "wall_ms": pa.array(medians),
        "peak_rss_kb": pa.array(np.zeros(n, dtype=np.int64)),
        "exit_code": pa.array(np.zeros(n, dtype=np.int32)),
        "signal": pa.nulls(n, pa.int32()),
        "output_sha256": pa.array(["h"] * n),
        "output_head": pa.array(["o"] * n),
        "checker_msg": pa.nulls(n, pa.string()),
        "attempt": pa.array(np.ones(n, dtype=np.int32)),
        "node": pa.array(["n"] * n),
        "batch_size": pa.array(np.ones(n, dtype=np.int32)),
        "cpu_ms_runs": pa.ListArray.from_arrays(offsets, flat),
        "wall_ms_runs": pa.ListArray.from_arrays(offsets, flat),
    }
    for field in RESULTS_SCHEMA:  # the columns this bench does not vary: null
        columns.setdefault(field.name, pa.nulls(n, field.type))
    return pa.Table.from_pydict(columns, schema=RESULTS_SCHEMA)


def baseline(a: pa.Table, b: pa.Table) -> float:
    start = time.perf_counter()
    for t in (a, b):
        frame = t.to_pandas()
        _ = [np.median(r) for r in frame["cpu_ms_runs"]]
    return time.perf_counter() - start


def main() -> int:
    rng = np.random.default_rng(0)
    for n in (10_000, 100_000):
        a = results(n, "v1", rng, 1.0)
        b = results(n, "v2", rng, 1.05)
        base = baseline(a, b)
        start = time.perf_counter()
        comp = compare_results(a, b, [("v1", "v2")])
        core = time.perf_counter() - start
        start = time.perf_counter()
        cases_table(comp)
        junit_xml(comp)
        render_s = time.perf_counter() - start
        print(
            f"compare {n:>7,} cases x {REPEATS} repeats: core {core:6.2f} s "
            f"({n / core:9,.0f} cases/s), parquet+junit {render_s:6.2f} s, "
            f"baseline {base:5.2f} s, core/baseline {core / base:5.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
