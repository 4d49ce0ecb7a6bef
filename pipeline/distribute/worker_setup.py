"""What Ray runs in each worker process as it starts (the job's runtime_env
`worker_process_setup_hook`, set by distribute.cluster): the third-party imports every
task pays on its first use, paid while the driver is still planning instead of inside
the first task (pyarrow imports pandas on its first conversion of a Python list). The
task's own modules are imported by Ray with the task; problem plugins are left to the
first task that needs one (mine's imports scipy)."""

from __future__ import annotations

SET_UP = False  # True once setup() ran in this process (tests look)


def setup() -> None:
    global SET_UP
    try:
        import numpy  # noqa: F401  (imported for its cost, now)
        import pyarrow as pa
        import pyarrow.compute

        pa.array([""])  # the pandas import, now
    except Exception:  # pragma: no cover - a warm-up must never stop a worker starting
        return
    SET_UP = True
