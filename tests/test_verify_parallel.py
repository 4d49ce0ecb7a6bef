"""`verify` grades a step's submissions side by side through one task stream
(grade.together): on a real local Ray they run in more than one worker process, each
still in case order up to its first rejection; a submission whose grading fails is a
JE check of its own and the others are still judged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.distribute.cluster import Cluster
from pipeline.grade import task
from pipeline.grade.task import GradeChunk
from pipeline.verify.runs import VerifyOptions
from pipeline.verify.verification import verify_package
from tests.cli_output import without_isolation_line

PACKAGES = Path(__file__).parent / "packages"
# an accepted submission that spends CPU time on every case (well within the margin of
# the 1 s limit, limit / 5): side by side, two of them
# cannot share one worker process (a Ray worker runs one task at a time)
BUSY = (
    "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.1:\n    pass\n"
    "a, b = map(int, input().split())\n"
    'print(f"{(a + b) / 2:.9f}")\n'
)


def package_with_busy_submissions(tmp_path: Path) -> Path:
    package = Path(shutil.copytree(PACKAGES / "average", tmp_path / "average"))
    for name in ("busy1.py", "busy2.py", "busy3.py"):
        (package / "submissions" / "accepted" / name).write_text(BUSY)
    return package


@pytest.mark.ray
def test_submissions_are_graded_in_more_than_one_worker_process(
    ray_cluster: Cluster, tmp_path: Path
) -> None:
    package = package_with_busy_submissions(tmp_path)
    options = VerifyOptions(package, repeat=1, address="local", workers=2, work=tmp_path / "w")
    result = verify_package(options)
    checks = {c.name: c for c in result.checks}
    assert not result.failures, [f"{c.name}: {c.detail}" for c in result.failures]
    labels = [f"accepted/{n}" for n in ("close.py", "busy1.py", "busy2.py", "busy3.py")]
    labels.append("wrong_answer/far.py")
    assert set(result.workers) == set(labels)
    pids = set().union(*result.workers.values())
    assert len(pids) > 1, result.workers
    # graded in case order up to its first rejection there too: the rest not run
    far = checks["wrong_answer/far.py"]
    assert "2 not run after its first rejected case" in far.detail, far.detail
    for label in labels[:4]:
        assert checks[label].detail.startswith("AC 3"), checks[label].detail


def test_a_submission_whose_grading_fails_is_je_and_the_others_are_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault of the judge in one submission's task (here its worker's disk): that
    submission is a JE check, every other is graded and judged, one line each, exit 1
    (today the whole verify ended in a ChunkFailed, the others' results lost)."""
    package = package_with_busy_submissions(tmp_path)
    real = task.grade_chunk

    def full_disk(chunk: GradeChunk) -> object:
        if any(s.label == "accepted/busy2.py" for s in chunk.submissions):
            raise OSError(28, "No space left on device")
        return real(chunk)

    monkeypatch.setattr(task, "grade_chunk", full_disk)
    argv = ["verify", str(package), "--address", "local-serial", "--repeat", "1"]
    outcome = CliRunner().invoke(app, argv)
    output = without_isolation_line(outcome.output)
    assert outcome.exit_code == 1, output
    assert "Traceback" not in output
    failed = [line for line in output.splitlines() if line.startswith("FAIL")]
    assert failed == [
        "FAIL  accepted/busy2.py: JE: grading it failed: OSError: [Errno 28] No space left "
        "on device"
    ], output
    for label in ("accepted/close.py", "accepted/busy1.py", "accepted/busy3.py"):
        assert f"PASS  {label}: AC 3" in output
    assert "PASS  wrong_answer/far.py: WA 1" in output
