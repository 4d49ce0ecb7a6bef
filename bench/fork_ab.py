"""Same-run A/B of the fork server's per-case cost: this checkout against another one
(say, main before a change), each in a worker process of its own, rounds interleaved
(the order alternating) so machine noise hits both alike. Each worker times a bare
posix_spawn+waitpid of the same tiny C binary and a fork-server case of it; the ratio
of the two is printed per checkout (target: <= 0.5x), with the medians of rounds.

    .venv/bin/python bench/fork_ab.py --other ../base [--rounds 20] [--runs 200]

Run as root with `--user NAME`, both workers run as that ordinary user (namespaces in a
user namespace of its own, as bench/sandbox.py --user), each from its checkout bound
read-only in a private mount namespace (tests/as_user.py).
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]


def worker() -> None:
    """Reads `bare N` / `fork N` lines, answers seconds per run of each."""
    sys.path.insert(0, os.getcwd())
    from pipeline.limits import Limits

    # the sandbox's modules where this checkout has them (before its own package, they
    # were pipeline.program.sandbox's, its one class `rlimit.RlimitSandbox`)
    try:
        forkserver = importlib.import_module("pipeline.sandbox.forkserver")
        sandbox_class = importlib.import_module("pipeline.sandbox.launched").LauncherSandbox
    except ImportError:
        forkserver = importlib.import_module("pipeline.program.sandbox.forkserver")
        sandbox_class = importlib.import_module("pipeline.program.sandbox.rlimit").RlimitSandbox

    limits = Limits.from_seconds(1.0, wall_ms=60_000)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "tiny.c").write_text("int main(void) { return 0; }\n")
        binary = str(Path(tmp) / "tiny")
        subprocess.run(["gcc", "-O2", "-o", binary, f"{tmp}/tiny.c"], check=True)
        files = {"tiny": Path(binary)}
        # the server as this checkout starts it: from one ServerRequest, or (before it)
        # from the sandbox, the command, the files and the limits as arguments
        server_request = getattr(forkserver, "ServerRequest", None)
        if server_request is not None:
            server = sandbox_class().start_server(server_request(["./tiny"], files, limits))
        else:
            server = forkserver.start(sandbox_class(), ["./tiny"], files, limits)

        def bare() -> None:
            os.waitpid(os.posix_spawn(binary, [binary], {}), 0)

        # a case as this checkout's server takes it: one RunRequest, or (before it) the
        # stdin and limits as arguments
        request = getattr(importlib.import_module(forkserver.__name__), "RunRequest", None)
        case = (request(limits),) if request is not None else (b"", limits)

        def fork() -> None:
            result = server.run(*case)
            if result.exit_code != 0 or result.judge_error:
                raise SystemExit(f"fork server run failed: {result}")

        runs: dict[str, Callable[[], None]] = {"bare": bare, "fork": fork}
        try:
            for line in sys.stdin:
                name, count = line.split()
                start, cpu = time.perf_counter(), time.process_time()
                for _ in range(int(count)):
                    runs[name]()
                took = time.perf_counter() - start, time.process_time() - cpu
                print(took[0] / int(count), took[1] / int(count), flush=True)
        finally:
            server.close()


def start_worker(tree: Path, user: str | None, at: Path) -> subprocess.Popen[str]:
    python = tree / ".venv/bin/python"
    env = {**os.environ, "PYTHONPATH": str(tree)}
    argv = [str(python if python.exists() else sys.executable), str(HERE), "--worker"]
    if user is not None:  # this interpreter and packages, the tree's own code
        sys.path.insert(0, str(ROOT))
        import pwd

        from tests.as_user import bound_command

        home = pwd.getpwnam(user).pw_dir
        env = {"HOME": home, "USER": user, "PATH": "/usr/local/bin:/usr/bin:/bin"}
        at.mkdir(mode=0o755)
        os.chmod(at, 0o755)
        argv = bound_command(user, env, ["bench/fork_ab.py", "--worker"], at, repo=tree)
        env = dict(os.environ)
    return subprocess.Popen(
        argv,
        cwd=tree,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def ask(proc: subprocess.Popen[str], name: str, runs: int) -> tuple[float, float]:
    """Seconds per run, wall and the judge's CPU."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{name} {runs}\n")
    proc.stdin.flush()
    wall, cpu = proc.stdout.readline().split()
    return float(wall), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--runs", type=int, default=200, help="runs per variant and round")
    parser.add_argument("--user", help="as root: run both workers as this ordinary user")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    trees = {"this": ROOT, "other": args.other.resolve()}
    binds = Path(tempfile.mkdtemp(prefix="gridjudge-fork-ab-"))
    os.chmod(binds, 0o755)
    procs = {name: start_worker(tree, args.user, binds / name) for name, tree in trees.items()}
    times: dict[str, dict[str, list[float]]] = {
        n: {"bare": [], "fork": [], "judge": []} for n in trees
    }
    try:
        for name in procs:  # warm up
            for kind in ("bare", "fork"):
                ask(procs[name], kind, 20)
        for r in range(args.rounds):
            order = list(procs) if r % 2 == 0 else list(procs)[::-1]
            for name in order:
                for kind in ("bare", "fork"):
                    wall, cpu = ask(procs[name], kind, args.runs)
                    times[name][kind].append(wall)
                times[name]["judge"].append(cpu)
    finally:
        for proc in procs.values():
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait()
        shutil.rmtree(binds, ignore_errors=True)
    mode = f"as {args.user}, user namespaces" if args.user else "as this user"
    print(f"{args.rounds} rounds x {args.runs} runs; load average {os.getloadavg()[0]:.2f}; {mode}")
    for name, tree in trees.items():
        bare = statistics.median(times[name]["bare"]) * 1e6
        fork = statistics.median(times[name]["fork"]) * 1e6
        judge = statistics.median(times[name]["judge"]) * 1e6
        ratios = [f / b for f, b in zip(times[name]["fork"], times[name]["bare"], strict=True)]
        print(
            f"{name:5s} {tree!s:40s} bare {bare:6.0f} us  fork server {fork:6.0f} us  "
            f"{fork / bare:.2f}x (median of rounds' ratios {statistics.median(ratios):.2f}x); "
            f"the judge's CPU {judge:.0f} us"
        )
    paired = [t / o for t, o in zip(times["this"]["fork"], times["other"]["fork"], strict=True)]
    print(f"fork server, this / other: {statistics.median(paired):.3f} (median of rounds)")


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker()
    else:
        main()
