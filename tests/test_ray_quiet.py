"""What Ray's worker processes print (Ray's own C++ messages, such as absl's "RAW: Lock
blocking") stays in Ray's session logs, out of the command's output."""

from __future__ import annotations

import subprocess
import sys

import pytest

DRIVER = """
import time
from pipeline.distribute.cluster import Cluster
with Cluster("local", num_cpus=1) as cluster:
    done = [r for _, r in cluster.map_unordered(print, ["RAW: Lock blocking 0xfeed"])]
    print("chunks done", len(done))
    time.sleep(3)  # Ray's log monitor forwards within about a second when it forwards
"""


@pytest.mark.ray
def test_worker_output_does_not_reach_the_driver() -> None:
    done = subprocess.run(
        [sys.executable, "-c", DRIVER], capture_output=True, text=True, timeout=300, check=True
    )
    assert "chunks done 1" in done.stdout
    assert "Lock blocking" not in done.stdout + done.stderr
