"""A run folder's summary.parquet as tests read it (gridjudge itself only writes it:
`report` rewrites it, `demo` reads the runs' files directly)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.results.store import SUMMARY_FILE
from pipeline.schemas import SUMMARY_SCHEMA


def read_summary(run_dir: Path) -> pa.Table:
    return pq.read_table(Path(run_dir) / SUMMARY_FILE).cast(SUMMARY_SCHEMA)
