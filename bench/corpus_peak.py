"""The judge's peak memory as a corpus grows: `gridjudge grade` on corpora of the same
large cases, 1x, 4x and 16x as many of them, each graded in a process of its own (from
a small launcher, so that its peak is its own). Reading is bounded in bytes (a batch of
about corpus.store.BATCH_BYTES of text, whatever the corpus's size), so the peak should
stay flat: the ratio of the largest corpus's peak to the smallest's is the figure.

    .venv/bin/python bench/corpus_peak.py [--case-kb 256] [--cases 256] [--address ADDR]

The cases are spot inputs padded to --case-kb (the validator rejects them: each is an
IE row, which takes the driver's reading, the chunks and the engine's validation as a
graded case does, without the time of a program). Prints, per corpus, its cases, its
text in MB and the peak RSS of the judge; then peak(16x) / peak(1x). Exit code 1 when
that ratio is over 1.25.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from pipeline.corpus.store import CorpusWriter

REPO = Path(__file__).resolve().parents[1]
GRIDJUDGE = Path(sys.executable).with_name("gridjudge")
SCALES = (1, 4, 16)
TARGET = 1.25
MEASURE = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps([done.returncode, (done.stdout + done.stderr)[-2000:], peak]))
"""


def _corpus(out: Path, cases: int, case_kb: int) -> float:
    """A corpus of `cases` cases of `case_kb` KB each; its text in MB."""
    padding = "0 " * (case_kb * 512)
    with CorpusWriter(out, "spot", source="bench") as writer:
        for i in range(cases):
            writer.add(f"big/{i:06d}", "big", f"{i}\n{padding}", "0\n")
    return cases * len(padding) / 2**20


def _peak_mb(corpus: Path, run: Path, address: str) -> float:
    argv = [str(GRIDJUDGE), "grade", str(corpus), "-s", "solver:spot", "--out", str(run),
            "--address", address, "--no-cache"]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *argv], capture_output=True, text=True, check=True
    )
    code, output, peak_kb = json.loads(done.stdout)
    if code != 0:
        raise SystemExit(f"grade failed ({code}): {output}")
    return float(peak_kb) / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--case-kb", type=int, default=256)
    ap.add_argument("--cases", type=int, default=256, help="cases of the 1x corpus")
    ap.add_argument("--address", default="local-serial")
    ap.add_argument("--json", action="store_true", help="one JSON line")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for scale in SCALES:
            corpus = Path(tmp) / f"c{scale}"
            text_mb = _corpus(corpus, args.cases * scale, args.case_kb)
            peak = _peak_mb(corpus, Path(tmp) / f"run{scale}", args.address)
            rows.append({"scale": scale, "cases": args.cases * scale,
                         "text_mb": round(text_mb, 1), "peak_mb": round(peak, 1)})  # fmt: skip
    ratio = rows[-1]["peak_mb"] / rows[0]["peak_mb"]
    if args.json:
        print(json.dumps({"rows": rows, "ratio": round(ratio, 2)}))
    else:
        for r in rows:
            print(f"{r['scale']:>3}x {r['cases']:>7,} cases, text {r['text_mb']:>8.1f} MB: "
                  f"judge's peak {r['peak_mb']:.1f} MB")  # fmt: skip
        print(f"peak {SCALES[-1]}x / {SCALES[0]}x: {ratio:.2f} (target <= {TARGET})")
    sys.exit(0 if ratio <= TARGET else 1)


if __name__ == "__main__":
    main()
