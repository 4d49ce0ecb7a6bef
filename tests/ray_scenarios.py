"""Ray scenarios that need a cluster of their own, run as a separate process by
tests/test_grade_ray.py (a test process can hold only one Ray driver connection):

    python tests/ray_scenarios.py node-loss CORPUS RUN_DIR SUBMISSION

node-loss: a head node with no CPUs and two 1-CPU worker nodes (ray.cluster_utils);
grading starts, and once the first results part is written one worker node is removed
(all its processes killed) while a chunk is running on it. Prints a JSON line with the
node ids involved; the test checks the run folder.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path
from typing import Any


def node_loss(corpus: str, out: str, submission: str) -> dict[str, Any]:
    import ray
    from ray.cluster_utils import Cluster as RayTestCluster

    from pipeline.grade.driver import run_grade
    from pipeline.grade.plan import GradeOptions, plan_grade

    cluster = RayTestCluster(initialize_head=True, head_node_args={"num_cpus": 0})
    workers = [cluster.add_node(num_cpus=1), cluster.add_node(num_cpus=1)]
    cluster.wait_for_nodes()
    removed: dict[str, Any] = {}
    try:
        plan = plan_grade(
            GradeOptions(
                corpora=[Path(corpus)],
                submissions=[submission],
                out=Path(out),
                address=cluster.address,
                chunk_size=4,
            )
        )

        first_part = threading.Event()
        removed["chunks_running_on_it"] = 0  # until a node is removed

        def remove_a_busy_node() -> None:
            """Once the first results part is in, remove a worker node as soon as a chunk
            is running on it (polling from this thread: the driver keeps submitting)."""
            first_part.wait(60)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                running = {w.node_id: _running_chunks(w) for w in workers}
                busy = [w for w in workers if running[w.node_id]]
                if busy:
                    # counted in the same look as the choice (a chunk lasts ~0.2 s)
                    victim = busy[0]
                    removed["chunks_running_on_it"] = len(running[victim.node_id])
                    removed["node_id"] = victim.node_id
                    removed["survivor"] = next(w for w in workers if w is not victim).node_id
                    cluster.remove_node(victim, allow_graceful=False)
                    return
                time.sleep(0.005)

        remover = threading.Thread(target=remove_a_busy_node)
        remover.start()
        outcome = run_grade(plan, on_rows=lambda n, verdicts: first_part.set())
        first_part.set()
        remover.join()
        removed["rows"] = outcome.rows
    finally:
        ray.shutdown()
        cluster.shutdown()
    return removed


def _running_chunks(node: Any) -> list[int]:
    """Pids of the worker processes of `node` running a chunk now (their process title
    is `ray::_run_chunk`; idle workers show `ray::IDLE`)."""
    import psutil
    from ray._private import ray_constants

    pids = []
    for info in node.all_processes.get(ray_constants.PROCESS_TYPE_RAYLET, []):
        try:
            for child in psutil.Process(info.process.pid).children(recursive=True):
                cmd = child.cmdline()
                if cmd and cmd[0].startswith("ray::_run_chunk"):
                    pids.append(child.pid)
        except psutil.Error:
            continue
    return pids


if __name__ == "__main__":
    if sys.argv[1] == "node-loss":
        print(json.dumps(node_loss(*sys.argv[2:5])))
    else:
        raise SystemExit(f"unknown scenario {sys.argv[1]!r}")
