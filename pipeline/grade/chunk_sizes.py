"""How many cases a Ray task of `grade` gets: pure arithmetic over the submissions' kind,
the batch size, the corpus size and the cluster's CPUs (the driver, grade.driver, cuts the
chunks)."""

from __future__ import annotations

from pipeline.grade.settings import GradeSettings
from pipeline.program.submission import PreparedSubmission

IN_PROCESS_CHUNK = 1000  # cases per Ray task when every submission is an in-process solver,
MAX_IN_PROCESS_CHUNK = 50000  # ... up to this many in large corpora
CHUNKS_PER_CPU = 4  # ... and about this many chunks per CPU of the cluster
SUBPROCESS_CHUNK = 32  # cases per Ray task when submissions spawn processes
# ... or fork them from a fork server, which each chunk starts once per submission
FORK_SERVER_CHUNK = 256
MAX_BATCHED_CHUNK = 2000


def chunk_size_for(
    submissions: list[PreparedSubmission],
    settings: GradeSettings,
    cases: int | None = None,
    cpus: int = 1,
) -> int:
    """Cases per Ray task. In-process solvers: large chunks, since a Ray task costs
    milliseconds of CPU (its arguments and results through the object store) whatever its
    size, but about CHUNKS_PER_CPU chunks per cluster CPU so that the CPUs share the work
    and finish together: between IN_PROCESS_CHUNK and MAX_IN_PROCESS_CHUNK.
    Subprocess runs: a few dozen (each case costs milliseconds); from a fork server (whose
    start-up each chunk pays) up to a few hundred, but no more than CHUNKS_PER_CPU chunks
    per CPU need (a class of submissions makes each case a large task: a few big chunks
    left one CPU working alone at the end); with batching, enough cases for several full
    batches per task."""
    share = -(-(cases or 0) // (CHUNKS_PER_CPU * max(1, cpus)))
    if in_process(submissions):
        return max(IN_PROCESS_CHUNK, min(MAX_IN_PROCESS_CHUNK, share))
    if settings.batch > 1:
        return min(MAX_BATCHED_CHUNK, max(SUBPROCESS_CHUNK, 4 * settings.batch))
    if settings.fork_server:
        return max(SUBPROCESS_CHUNK, min(FORK_SERVER_CHUNK, share or FORK_SERVER_CHUNK))
    return SUBPROCESS_CHUNK


def in_process(submissions: list[PreparedSubmission]) -> bool:
    """Every submission runs inside the worker (reference solvers; a submission that did
    not compile runs nothing)."""
    return all(s.kind == "solver" or s.compile_error for s in submissions)


def tapered_size(size: int, left: int, cpus: int) -> int:
    """The next in-process chunk's size when `left` cases remain: `size`, and over the
    last cpus x size cases what is left shared among the CPUs, so the chunks halve down
    to IN_PROCESS_CHUNK. Workers do not run at one speed (whichever core Ray's daemons and
    the driver woke on): small last chunks let the faster one take more of the tail."""
    return max(min(size, IN_PROCESS_CHUNK), min(size, -(-left // max(1, cpus))))
