"""Per-run overhead of each sandbox backend against a bare spawn+wait of the same tiny
binary, measured in the same run (rounds interleave the variants, so machine noise
hits all of them alike). Target for the full default isolation (`rlimit`): <= 5 ms per
run here and <= 10x bare.

    .venv/bin/python bench/sandbox.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pipeline.limits import Limits
from pipeline.program.sandbox import make
from pipeline.program.sandbox.rlimit import RlimitSandbox

TARGET_MS = 5.0
TARGET_RATIO = 10.0


def tiny_binary(folder: Path) -> Path:
    src = folder / "tiny.c"
    src.write_text("int main(void) { return 0; }\n")
    out = folder / "tiny"
    subprocess.run(["gcc", "-O2", "-o", str(out), str(src)], check=True)
    return out


def bare(binary: Path) -> Callable[[], None]:
    path = str(binary)

    def run() -> None:
        pid = os.posix_spawn(path, [path], {})
        os.waitpid(pid, 0)

    return run


def sandboxed(sandbox: object, binary: Path) -> Callable[[], None]:
    limits = Limits.from_seconds(1.0)
    files = {"tiny": binary}

    def run() -> None:
        result = sandbox.run(["./tiny"], limits=limits, files=files)  # type: ignore[attr-defined]
        if result.exit_code != 0 or result.judge_error:
            raise SystemExit(f"sandbox run failed: {result}")

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="runs per variant")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        binary = tiny_binary(Path(tmp))
        variants: dict[str, Callable[[], None]] = {"bare spawn+wait": bare(binary)}
        variants["none (launcher, no isolation)"] = sandboxed(make("none"), binary)
        variants["rlimit: rlimits+nobody only"] = sandboxed(
            RlimitSandbox(namespaces=False, use_cgroups=False), binary
        )
        variants["rlimit: + cgroups"] = sandboxed(RlimitSandbox(namespaces=False), binary)
        variants["rlimit: + namespaces (full, default)"] = sandboxed(make("rlimit"), binary)
        if shutil.which("bwrap"):
            variants["bwrap"] = sandboxed(make("bwrap"), binary)
        per_round = max(1, args.runs // args.rounds)
        samples: dict[str, list[float]] = {name: [] for name in variants}
        for run in variants.values():  # warm up (launcher build, caches)
            run()
        for _ in range(args.rounds):
            for name, run in variants.items():
                start = time.perf_counter()
                for _ in range(per_round):
                    run()
                samples[name].append((time.perf_counter() - start) / per_round * 1000)
    base = statistics.median(samples["bare spawn+wait"])
    print(f"sandbox overhead, {per_round * args.rounds} runs per variant, median of rounds")
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'variant':40s} {'ms/run':>8s} {'x bare':>8s} {'overhead ms':>12s}")
    for name, values in samples.items():
        ms = statistics.median(values)
        print(f"{name:40s} {ms:8.2f} {ms / base:8.1f} {ms - base:12.2f}")
    full = statistics.median(samples["rlimit: + namespaces (full, default)"])
    ok = full <= TARGET_MS and full / base <= TARGET_RATIO
    print(
        f"target (full isolation <= {TARGET_MS} ms and <= {TARGET_RATIO:.0f}x bare): "
        f"{full:.2f} ms, {full / base:.1f}x -> {'met' if ok else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
