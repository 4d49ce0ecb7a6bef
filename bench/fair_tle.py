"""Time verdicts beside a CPU burner: accepted programs whose cases use 40-60 % of the CPU
limit are graded once on the machine as it is and once beside two busy processes (one
per core of a 2-core machine), and no case may be TLE beside the burners that is not TLE
without them (issue 25's acceptance for fair time verdicts).

The programs are the bundled accepted examples (datasets/examples: clocks in C++, gomoku
in Python) with a CPU-bound delay put in front of their `main`, so every case costs a
fixed share of the limit; both runs go through `gridjudge run` (one Ray for both jobs),
with the result cache off. The burners are `stress-ng --cpu 2` when it is installed,
else two Python busy loops; the bench starts and stops them itself.

    .venv/bin/python bench/fair_tle.py [--cases N] [--time-limit S]

Prints, per program, the TLEs of each run with their `tle_kind`, the largest CPU and wall
time of a case, and the load average when each run started. Exit code 1 when a case is
TLE beside the burners but not in the quiet run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pipeline.corpus.generate import generate_corpus  # noqa: E402
from pipeline.problem.registry import get_problem  # noqa: E402
from pipeline.results.store import load_results  # noqa: E402

EXAMPLES = REPO / "datasets" / "examples"
SHARES = (0.4, 0.6)  # the CPU time each program spends per case, as a share of the limit
CONDITIONS = ("quiet", "burners")

# The delay goes before the accepted program's own main: every case pays it (a fork
# server forks before main; a new process's CPU clock starts at zero).
CPP_DELAY = """#include <ctime>
#define main accepted_main
{source}
#undef main
int main() {{
    while (std::clock() < (std::clock_t)({seconds} * CLOCKS_PER_SEC)) {{}}
    return accepted_main();
}}
"""
PY_DELAY = "import time as _t\nwhile _t.process_time() < {seconds}:\n    pass\n{source}"


def write_programs(folder: Path, limit_s: float) -> dict[str, list[Path]]:
    """Per problem, the delayed accepted programs (one per share of the limit)."""
    cpp = (EXAMPLES / "clocks" / "correct.cpp").read_text()
    py = (EXAMPLES / "gomoku" / "correct.py").read_text()
    programs: dict[str, list[Path]] = {"clocks": [], "gomoku": []}
    for share in SHARES:
        seconds = round(share * limit_s, 3)
        pct = round(100 * share)
        c = folder / f"clocks_cpu{pct}pct.cpp"
        c.write_text(CPP_DELAY.format(source=cpp, seconds=seconds))
        p = folder / f"gomoku_cpu{pct}pct.py"
        p.write_text(PY_DELAY.format(source=py, seconds=seconds))
        programs["clocks"].append(c)
        programs["gomoku"].append(p)
    return programs


def write_config(
    path: Path, out: Path, corpora: dict[str, Path], programs: dict[str, list[Path]], limit: float
) -> None:
    lines = [f"out: {out}", "corpora:"]
    lines += [f"  {p}: {{path: {c}}}" for p, c in corpora.items()]
    lines.append("jobs:")
    for problem, files in programs.items():
        subs = ", ".join(f'"{f}"' for f in files)
        lines += [f"  {problem}:", f"    corpora: [{problem}]", f"    submissions: [{subs}]"]
        lines += [f"    time_limit: {limit}", "    cache: false"]
    path.write_text("\n".join(lines) + "\n")


def start_burners() -> list[subprocess.Popen[bytes]]:
    if shutil.which("stress-ng"):
        commands = [["stress-ng", "--cpu", "2", "--timeout", "600"]]
    else:
        commands = 2 * [[sys.executable, "-c", "while True: pass"]]
    return [
        subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for c in commands
    ]


def stop(burners: list[subprocess.Popen[bytes]]) -> None:
    for burner in burners:
        burner.terminate()
    for burner in burners:
        try:
            burner.wait(timeout=10)
        except subprocess.TimeoutExpired:
            burner.kill()
            burner.wait()


def grade(config: Path) -> float:
    """`gridjudge run CONFIG`; the load average (1 min) when it started."""
    load = os.getloadavg()[0]
    env = {**os.environ, "GRIDJUDGE_RESULT_CACHE": "off"}
    argv = [sys.executable, "-m", "pipeline.cli", "run", str(config)]
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"gridjudge run failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return load


@dataclass
class Program:
    """One program's run: its TLE cases (case id -> tle_kind), largest CPU and wall ms."""

    cases: int = 0
    tle: dict[str, str | None] = field(default_factory=dict)
    cpu_ms: float = 0.0
    wall_ms: float = 0.0


def tles(out: Path) -> dict[str, Program]:
    found: dict[str, Program] = {}
    for job in sorted((out / "runs").iterdir()):
        for r in load_results(job).to_pylist():
            mine = found.setdefault(Path(r["submission"]).name, Program())
            mine.cases += 1
            mine.cpu_ms = max(mine.cpu_ms, r["cpu_ms"] or 0.0)
            mine.wall_ms = max(mine.wall_ms, r["wall_ms"] or 0.0)
            if r["verdict"] == "TLE":
                mine.tle[r["case_id"]] = r["tle_kind"]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=16, help="cases per problem")
    parser.add_argument("--time-limit", type=float, default=0.5, help="CPU limit, seconds")
    args = parser.parse_args()
    start = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="fair_tle-"))
    try:
        corpora = {p: work / "corpora" / p for p in ("clocks", "gomoku")}
        for problem, path in corpora.items():
            generate_corpus(get_problem(problem), args.cases, 25, path)
        programs = write_programs(work, args.time_limit)
        found: dict[str, dict[str, Program]] = {}
        loads: dict[str, float] = {}
        for condition in CONDITIONS:
            config = work / f"{condition}.yaml"
            write_config(config, work / condition, corpora, programs, args.time_limit)
            burners = start_burners() if condition == "burners" else []
            try:
                loads[condition] = grade(config)
            finally:
                stop(burners)
            found[condition] = tles(work / condition)
        return report(found, loads, args, time.monotonic() - start)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(
    found: dict[str, dict[str, Program]],
    loads: dict[str, float],
    args: argparse.Namespace,
    elapsed_s: float,
) -> int:
    burner = "stress-ng --cpu 2" if shutil.which("stress-ng") else "two Python busy loops"
    print(
        f"time limit {args.time_limit} s CPU (wall {2 * args.time_limit + 1:g} s), "
        f"{args.cases} cases per problem; burners: {burner}; {os.cpu_count()} CPUs"
    )
    print(
        f"load average (1 min) at the start: quiet {loads['quiet']:.1f}, "
        f"beside the burners {loads['burners']:.1f}"
    )
    print(f"{'':<30}{'TLE (tle_kind)':^26}{'max cpu ms':^16}{'max wall ms':^16}")
    print(
        f"{'program':<24}{'cases':>6}"
        + f"{'quiet':>9}{'burners':>17}"
        + 2 * f"{'quiet':>8}{'burners':>8}"
    )
    unfair = []
    for name in sorted(found["quiet"]):
        quiet, loud = found["quiet"][name], found["burners"][name]
        unfair += [f"{name} {case}" for case in sorted(set(loud.tle) - set(quiet.tle))]
        cells = [f"{len(p.tle)} ({kinds(p.tle)})" for p in (quiet, loud)]
        times = [quiet.cpu_ms, loud.cpu_ms, quiet.wall_ms, loud.wall_ms]
        print(
            f"{name:<24}{quiet.cases:>6}{cells[0]:>9}{cells[1]:>17}"
            + "".join(f"{t:>8.0f}" for t in times)
        )
    print(f"{elapsed_s:.0f} s in all")
    if unfair:
        print(f"TLE beside the burners only: {', '.join(unfair)}")
        return 1
    print("no case is TLE beside the burners that is not TLE in the quiet run")
    return 0


def kinds(tle: dict[str, str | None]) -> str:
    counted = Counter(kind or "?" for kind in tle.values())
    return ", ".join(f"{k} {n}" for k, n in sorted(counted.items())) or "-"


if __name__ == "__main__":
    sys.exit(main())
