"""Write and re-read a large corpus of small cases; peak memory vs the whole table's size.

    python bench/corpus_memory.py [--cases 1000000] [--json]

Streaming means the growth of peak RSS over the warmed-up baseline stays far below the
size the whole table takes in memory (Arrow bytes, summed over the batches read back).
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from pipeline.corpus.store import ROWS_PER_BATCH, CorpusWriter, iter_batches


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def _write(out: Path, cases: int) -> None:
    rng = random.Random(0)
    dials = ("3", "6", "9", "12")
    with CorpusWriter(out, "clocks", source="bench") as writer:
        for i in range(cases):
            board = "\n".join(" ".join(rng.choices(dials, k=3)) for _ in range(3)) + "\n"
            writer.add(f"random/{i:07d}", "random", board, "1 2 3\n", seed=i)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=1_000_000)
    ap.add_argument("--json", action="store_true", help="one JSON line (for tests)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        # Warm up with one batch's worth: pyarrow's thread pools, allocator arenas and
        # codecs cost a fixed ~85 MB on first use, whatever the corpus size.
        _write(Path(tmp) / "warmup", ROWS_PER_BATCH)
        for _ in iter_batches(Path(tmp) / "warmup"):
            pass
        baseline_kb = _status_kb("VmHWM")
        out = Path(tmp) / "corpus"
        t0 = time.perf_counter()
        _write(out, args.cases)
        t_write = time.perf_counter() - t0
        after_write_hwm = _status_kb("VmHWM")
        t0 = time.perf_counter()
        rows = table_bytes = 0
        for batch in iter_batches(out):
            rows += batch.num_rows
            table_bytes += batch.nbytes
        t_read = time.perf_counter() - t0
        disk = sum(p.stat().st_size for p in out.iterdir())
    peak_kb = _status_kb("VmHWM")
    result = {
        "cases": rows,
        "table_mb": round(table_bytes / 2**20, 1),
        "baseline_peak_mb": round(baseline_kb / 1024, 1),
        "peak_growth_write_mb": round((after_write_hwm - baseline_kb) / 1024, 1),
        "peak_growth_mb": round((peak_kb - baseline_kb) / 1024, 1),
        "disk_mb": round(disk / 2**20, 1),
        "write_s": round(t_write, 2),
        "read_s": round(t_read, 2),
    }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{rows:,} cases: whole table in memory {result['table_mb']} MB (Arrow), "
        f"{result['disk_mb']} MB on disk"
    )
    print(
        f"peak RSS growth over the {result['baseline_peak_mb']} MB baseline: "
        f"{result['peak_growth_mb']} MB "
        f"({result['peak_growth_mb'] / max(result['table_mb'], 1e-9):.2f}x the table)"
    )
    print(f"write {result['write_s']} s, read {result['read_s']} s")


if __name__ == "__main__":
    main()
