"""What Ray runs in each worker process as it starts (the job's runtime_env
`worker_process_setup_hook`, set by distribute.Cluster): the imports every chunk needs,
paid while the driver is still planning instead of inside the first chunk (pyarrow
imports pandas on its first conversion of a Python list). Problem plugins are left to the
first chunk that needs one (mine's imports scipy)."""

from __future__ import annotations

SET_UP = False  # True once setup() ran in this process (tests look)


def setup() -> None:
    global SET_UP
    try:
        import pyarrow as pa

        import pipeline.corpus.generate
        import pipeline.grade.task  # noqa: F401  (imported for its cost, now)

        pa.array([""])  # the pandas import, now
    except Exception:  # pragma: no cover - a warm-up must never stop a worker starting
        return
    SET_UP = True
