"""Generating a corpus on a cluster, as `generate`, `run CONFIG` and `demo` do."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from pipeline.corpus.generate import (
    GenerateError,
    auto_chunk_size,
    cluster_runner,
    family_counts,
    generate_corpus,
)
from pipeline.corpus.store import Manifest
from pipeline.distribute.cluster import Cluster
from pipeline.problem.contract import Problem

DEFAULT_SEED = 0  # of a generated corpus, when none is given


def check_generate(problem: Problem, count: int, families: Sequence[str], out: Path) -> None:
    """What `generate_on` would refuse, found before a cluster starts."""
    family_counts(problem, count, families)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise GenerateError(f"output folder {out} is not empty")


def generate_on(
    cluster: Cluster,
    problem: Problem,
    count: int,
    seed: int,
    out: Path,
    families: Sequence[str] = (),
    *,
    chunk_size: int | None = None,
    on_rows: Callable[[int], None] | None = None,
) -> Manifest:
    """Generate a corpus into `out` on `cluster` (chunk size by default: auto_chunk_size)."""
    return generate_corpus(
        problem,
        count,
        seed,
        out,
        families,
        chunk_size=chunk_size or auto_chunk_size(count, cluster.total_cpus()),
        runner=cluster_runner(cluster),
        on_rows=on_rows,
    )
