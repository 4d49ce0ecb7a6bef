"""CPU time of `gridjudge --help` (and of a few light commands) as a ratio to
`python3 -c "import typer"` measured in the same run: each is a fresh subprocess, rounds
interleave them so machine noise hits all alike, and the median of the rounds is kept.
CPU time (user + system of the child), not wall time: a busy machine stretches the wall.

    .venv/bin/python bench/startup.py [--rounds N]

Exit code 1 when `gridjudge --help` is above 2x the typer import.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET = 2.0  # `gridjudge --help` / `import typer`
BASELINE = "import typer"
COMMANDS = {
    BASELINE: ["-c", "import typer"],
    "gridjudge --help": ["-m", "pipeline.cli", "--help"],
    "gridjudge grade --help": ["-m", "pipeline.cli", "grade", "--help"],
    "gridjudge compare --help": ["-m", "pipeline.cli", "compare", "--help"],
    "gridjudge problems": ["-m", "pipeline.cli", "problems"],
}


def cpu_seconds(args: list[str]) -> float:
    """User + system CPU time of one `python args` run, read from the child's rusage."""
    before = os.times()
    subprocess.run([sys.executable, *args], cwd=REPO, stdout=subprocess.DEVNULL, check=True)
    after = os.times()
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(rounds):
        for name, args in COMMANDS.items():
            times[name].append(cpu_seconds(args))
    base = statistics.median(times[BASELINE])
    print(f"{rounds} rounds, median CPU seconds per run")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"  {name:<26} {median:6.3f} s  {median / base:5.2f}x {BASELINE}")
    ratio = statistics.median(times["gridjudge --help"]) / base
    verdict = "met" if ratio <= TARGET else "NOT met"
    print(f"gridjudge --help: {ratio:.2f}x `{BASELINE}` (target <= {TARGET}x: {verdict})")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
