"""Per-run overhead of each sandbox backend against a bare spawn+wait of the same tiny
binary, measured in the same run (rounds interleave the variants, so machine noise
hits all of them alike); and the fork server (full isolation, one fresh process per run
forked from a server) for the tiny binary and for a Python hello world (zygote).

Targets: full default isolation (`rlimit`) <= 5 ms per run and <= 10x bare; the fork
server <= 0.5x bare spawn+wait; Python hello by zygote <= 3 ms per run.

Each mode this machine has: the sandbox as the user running this (root: namespaces, the
program as nobody; an ordinary user: namespaces in a user namespace of its own), and,
run as root with `--user NAME`, the same variants measured by that ordinary user in a
child process (its own bare baseline, measured in that process), in one run.

    .venv/bin/python bench/sandbox.py [--runs N] [--user NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from pipeline.limits import Limits
from pipeline.sandbox import forkserver, make
from pipeline.sandbox.base import RunRequest, ServerRequest
from pipeline.sandbox.features import FULL as FULL_FEATURES
from pipeline.sandbox.forkserver import LIBRARY, ZYGOTE
from pipeline.sandbox.isolation import ALLOW_UNSANDBOXED_ENV
from pipeline.sandbox.launched import LauncherSandbox

TARGET_MS = 5.0
TARGET_RATIO = 10.0
FORK_TARGET_RATIO = 0.5
ZYGOTE_TARGET_MS = 3.0
FULL = "rlimit: + namespaces (full, default)"
FORK = "full isolation, fork server"
PY_SPAWN = "python hello, full isolation spawn"
PY_ZYGOTE = "python hello, full isolation zygote"
# each variant runs at least this long per round: a round of 30 fork-server runs lasted
# ~8 ms, and one preemption of a millisecond moved its mean by a tenth
ROUND_MS = 60.0
# the runs' limits: a wall limit no load spike reaches (a run killed by it aborts the
# bench: it measured nothing)
LIMITS = Limits.from_seconds(1.0, wall_ms=60_000)


def tiny_binary(folder: Path) -> Path:
    src = folder / "tiny.c"
    src.write_text("int main(void) { return 0; }\n")
    out = folder / "tiny"
    subprocess.run(["gcc", "-O2", "-o", str(out), str(src)], check=True)
    return out


FLOOR = "fork+exit+wait floor (a tiny C process)"
FLOOR_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid == 0) _exit(0);
        waitpid(pid, NULL, 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%f\n", ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6) / n);
    return 0;
}
"""


def floor_binary(folder: Path) -> Path:
    """The machine's floor for a fresh process: a tiny C process forking a child that
    exits at once, and waiting for it (what a fork server's case costs at the least)."""
    src = folder / "floor.c"
    src.write_text(FLOOR_C)
    out = folder / "floor"
    subprocess.run(["gcc", "-O2", "-o", str(out), str(src)], check=True)
    return out


def floor_ms(binary: Path, runs: int) -> float:
    done = subprocess.run([str(binary), str(runs)], capture_output=True, text=True, check=True)
    return float(done.stdout)


def bare(binary: Path) -> Callable[[], None]:
    path = str(binary)

    def run() -> None:
        pid = os.posix_spawn(path, [path], {})
        os.waitpid(pid, 0)

    return run


def sandboxed(sandbox: object, binary: Path) -> Callable[[], None]:
    limits = LIMITS
    files = {"tiny": binary}

    def run() -> None:
        result = sandbox.run(["./tiny"], RunRequest(limits, files=files))  # type: ignore[attr-defined]
        if result.exit_code != 0 or result.judge_error:
            raise SystemExit(f"sandbox run failed: {result}")

    return run


def served(server: forkserver.ForkServer, want: bytes = b"") -> Callable[[], None]:
    limits = LIMITS

    def run() -> None:
        result = server.run(RunRequest(limits))
        if result.exit_code != 0 or result.judge_error or result.output != want:
            raise SystemExit(f"fork server run failed: {result}")

    return run


def python_spawned(sandbox: object, script: Path) -> Callable[[], None]:
    limits = LIMITS

    def run() -> None:
        result = sandbox.run(
            ["python3", "hello.py"], RunRequest(limits, files={"hello.py": script})
        )
        if result.exit_code != 0 or result.output != b"hello world\n":
            raise SystemExit(f"python run failed: {result}")

    return run


def servers(box: LauncherSandbox, binary: Path, script: Path) -> list[forkserver.ForkServer]:
    limits = LIMITS
    tiny = box.start_server(ServerRequest(["./tiny"], {"tiny": binary}, limits))
    zygote = box.start_server(
        ServerRequest(
            ["python3", *(forkserver.inside(f) for f in (ZYGOTE, LIBRARY, "hello.py"))],
            {"hello.py": script, ZYGOTE: forkserver.zygote_script()},
            limits,
            preload=False,
        )
    )
    return [tiny, zygote]


def report(samples: dict[str, list[float]], mode: str) -> None:
    base = statistics.median(samples["bare spawn+wait"])
    print(f"-- mode: {mode}")
    print(f"{'variant':40s} {'ms/run':>8s} {'x bare':>8s} {'overhead ms':>12s}")
    for name, values in samples.items():
        ms = statistics.median(values)
        print(f"{name:40s} {ms:8.2f} {ms / base:8.2f} {ms - base:12.2f}")
    full = statistics.median(samples[FULL])
    ok = full <= TARGET_MS and full / base <= TARGET_RATIO
    print(
        f"target (full isolation <= {TARGET_MS} ms and <= {TARGET_RATIO:.0f}x bare): "
        f"{full:.2f} ms, {full / base:.1f}x -> {'met' if ok else 'NOT met'}"
    )
    fork = statistics.median(samples[FORK])
    print(
        f"target (fork server <= {FORK_TARGET_RATIO}x bare spawn+wait): {fork:.2f} ms, "
        f"{fork / base:.2f}x -> {'met' if fork / base <= FORK_TARGET_RATIO else 'NOT met'}"
    )
    paired = [f / b for f, b in zip(samples[FORK], samples["bare spawn+wait"], strict=True)]
    print(
        f"the fork server / the bare spawn+wait measured just before it, median of the "
        f"rounds: {statistics.median(paired):.2f}x ({min(paired):.2f}-{max(paired):.2f}x)"
    )
    if FLOOR in samples:
        floor = statistics.median(samples[FLOOR])
        print(
            f"the machine's {FLOOR}: {floor:.3f} ms, {floor / base:.2f}x bare spawn+wait; "
            f"the fork server's case {fork / floor:.1f}x it"
        )
    zygote = statistics.median(samples[PY_ZYGOTE])
    spawned = statistics.median(samples[PY_SPAWN])
    print(
        f"target (python hello by zygote <= {ZYGOTE_TARGET_MS} ms): {zygote:.2f} ms "
        f"({spawned / zygote:.1f}x faster than spawning) -> "
        f"{'met' if zygote <= ZYGOTE_TARGET_MS else 'NOT met'}"
    )


def mode_name() -> str:
    return "root" if os.geteuid() == 0 else "ordinary user, user namespaces"


def runs_per_round(run: Callable[[], None], at_least: int) -> int:
    """`at_least` runs, or as many as last ROUND_MS (timed on a warm-up: the first run
    also builds the launcher and fills caches)."""
    run()
    start = time.perf_counter()
    for _ in range(5):
        run()
    ms = (time.perf_counter() - start) / 5 * 1000
    return max(1, at_least, int(ROUND_MS / ms) + 1)


def measure(runs: int, rounds: int) -> dict[str, list[float]]:
    """Milliseconds per run of every variant, per round (rounds interleave them)."""
    # the no-namespaces variants of an ordinary user have no isolation: measured anyway
    os.environ[ALLOW_UNSANDBOXED_ENV] = "1"
    with tempfile.TemporaryDirectory() as tmp:
        binary = tiny_binary(Path(tmp))
        floor = floor_binary(Path(tmp))
        script = Path(tmp) / "hello.py"
        script.write_text('print("hello world")\n')
        full = make("rlimit")
        assert isinstance(full, LauncherSandbox)
        started = servers(full, binary, script)
        # the fork server right after the bare spawn in every round: their ratio is
        # taken per round too, from two blocks a few ms apart (load drifts less)
        variants: dict[str, Callable[[], None]] = {"bare spawn+wait": bare(binary)}
        variants[FORK] = served(started[0])
        variants["none (launcher, no isolation)"] = sandboxed(make("none"), binary)
        variants["rlimit: rlimits (+nobody as root) only"] = sandboxed(
            LauncherSandbox(replace(FULL_FEATURES, namespaces=False, cgroups=False)), binary
        )
        if os.geteuid() == 0:
            variants["rlimit: + cgroups"] = sandboxed(
                LauncherSandbox(replace(FULL_FEATURES, namespaces=False)), binary
            )
        variants[FULL] = sandboxed(full, binary)
        if shutil.which("bwrap"):
            variants["bwrap"] = sandboxed(make("bwrap"), binary)
        variants[PY_SPAWN] = python_spawned(full, script)
        variants[PY_ZYGOTE] = served(started[1], b"hello world\n")
        samples: dict[str, list[float]] = {name: [] for name in [*variants, FLOOR]}
        try:
            per_round = {
                name: runs_per_round(run, runs // rounds) for name, run in variants.items()
            }
            for _ in range(rounds):
                for name, run in variants.items():
                    start = time.perf_counter()
                    for _ in range(per_round[name]):
                        run()
                    took = time.perf_counter() - start
                    samples[name].append(took / per_round[name] * 1000)
                samples[FLOOR].append(floor_ms(floor, per_round[FORK]))
        finally:
            for server in started:
                server.close()
    return samples


def as_user(user: str, runs: int, rounds: int) -> dict[str, list[float]]:
    """The samples of `measure` taken by `user` in a child process (from root)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import pwd

    from tests.as_user import bound_command

    home = pwd.getpwnam(user).pw_dir
    env = {"HOME": home, "USER": user, "PATH": "/usr/local/bin:/usr/bin:/bin"}
    at = Path(tempfile.mkdtemp(prefix="gridjudge-bench-"))
    os.chmod(at, 0o755)
    try:
        argv = ["bench/sandbox.py", "--json", "--runs", str(runs), "--rounds", str(rounds)]
        done = subprocess.run(
            bound_command(user, env, argv, at), capture_output=True, text=True, check=False
        )
    finally:
        shutil.rmtree(at, ignore_errors=True)
    if done.returncode != 0:
        raise SystemExit(f"the run as {user} failed: {done.stderr.strip()[-2000:]}")
    samples: dict[str, list[float]] = json.loads(done.stdout.splitlines()[-1])
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="runs per variant, at least")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--user", help="as root: measure this ordinary user's mode too")
    parser.add_argument("--json", action="store_true", help="print the samples as JSON")
    args = parser.parse_args()
    samples = measure(args.runs, args.rounds)
    if args.json:
        print(json.dumps(samples))
        return
    per_round = max(1, args.runs // args.rounds)
    print(
        f"sandbox overhead, at least {per_round * args.rounds} runs per variant and "
        f"{ROUND_MS:.0f} ms a round, median of {args.rounds} rounds"
    )
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    report(samples, mode_name())
    if args.user and os.geteuid() == 0:
        report(
            as_user(args.user, args.runs, args.rounds),
            f"ordinary user {args.user}, user namespaces",
        )


if __name__ == "__main__":
    main()
