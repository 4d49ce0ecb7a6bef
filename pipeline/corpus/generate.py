"""Deterministic generation of test corpora (`gridjudge generate`).

Case i of family f gets its own `random.Random` seeded from (seed, f, i) alone, so a
corpus depends only on (problem, count, seed, families): not on the chunk size, the
number of workers or the order in which chunks finish. Families get the count split
evenly (balanced): with F families, the first N mod F families in the order given get
N // F + 1 cases, the others N // F, and family f holds its cases i = 0, 1, ...; case_id
is f"{family}/{i:07d}". So growing N only adds cases (a corpus of N cases is contained in
the corpus of N + F·k cases with the same seed). Rows are written family by family, in
index order. Expected answers come from the problem's default reference solver; every
generated input is validated (an invalid one is a generator bug and stops the run).

Chunks are pure values (`GenChunk`); `generate_chunk` turns one into corpus rows and runs
the same serially and inside Ray tasks (through pipeline.distribute.cluster).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.corpus.store import CorpusWriter, Manifest, read_manifest, validator_fingerprint
from pipeline.errors import GridjudgeError
from pipeline.problem.contract import Problem
from pipeline.problem.registry import get_problem

if TYPE_CHECKING:  # only distribute.py imports ray; the type is all that is needed here
    from pipeline.distribute.cluster import Cluster

DEFAULT_CHUNK_SIZE = 500
WINDOW = 64  # chunks handed to the runner at a time

# chunks -> (chunk, rows) pairs in ANY order; the serial runner and
# pipeline.distribute.cluster both fit.
ChunkRunner = Callable[[list["GenChunk"]], Iterable[tuple["GenChunk", list[dict[str, Any]]]]]


class GenerateError(GridjudgeError):
    """Generation cannot proceed; one line for the user."""


@dataclass(frozen=True)
class GenChunk:
    """Cases start..stop-1 of one family: everything a worker needs, by value."""

    problem: str
    seed: int
    family: str
    start: int
    stop: int
    index: int = 0  # position of this chunk in the corpus (rows are written in this order)


def case_seed(seed: int, family: str, i: int) -> int:
    """The seed of case i of `family`: 63 bits of sha256 over (seed, family, i)."""
    digest = hashlib.sha256(f"{seed}\x00{family}\x00{i}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def case_id(family: str, i: int) -> str:
    return f"{family}/{i:07d}"


def family_counts(problem: Problem, count: int, families: Sequence[str] = ()) -> dict[str, int]:
    """How many cases each family gets (balanced split, see the module doc)."""
    if problem.generate is None:
        raise GenerateError(f"problem {problem.name} has no generator: import its test data")
    if count < 1:
        raise GenerateError(f"--count must be at least 1 (got {count})")
    chosen = list(dict.fromkeys(families)) or list(problem.families)
    unknown = [f for f in chosen if f not in problem.families]
    if unknown:
        raise GenerateError(
            f"unknown family {unknown[0]!r} of problem {problem.name} "
            f"(known: {', '.join(problem.families)})"
        )
    base, extra = divmod(count, len(chosen))
    return {f: base + (1 if k < extra else 0) for k, f in enumerate(chosen)}


def auto_chunk_size(count: int, cpus: int) -> int:
    """About 8 chunks per CPU (load balance across families of unequal cost), between
    10 and DEFAULT_CHUNK_SIZE cases each (Ray's per-task cost stays small)."""
    return max(10, min(DEFAULT_CHUNK_SIZE, count // (8 * max(1, cpus)) or 1))


def plan_chunks(
    problem: Problem,
    count: int,
    seed: int,
    families: Sequence[str] = (),
    chunk_size: int = DEFAULT_CHUNK_SIZE,
) -> list[GenChunk]:
    if chunk_size < 1:
        raise GenerateError(f"chunk size must be at least 1 (got {chunk_size})")
    chunks: list[GenChunk] = []
    for family, n in family_counts(problem, count, families).items():
        for start in range(0, n, chunk_size):
            chunks.append(
                GenChunk(problem.name, seed, family, start, min(n, start + chunk_size), len(chunks))
            )
    return chunks


def generate_case(problem: Problem, seed: int, family: str, i: int) -> dict[str, Any]:
    """One corpus row: input from the family's generator, expected from the default solver."""
    cseed = case_seed(seed, family, i)
    cid = case_id(family, i)
    assert problem.generate is not None  # family_counts refused a problem without one
    text = problem.generate(random.Random(cseed), family)
    errors = problem.validate(text)
    if errors:
        raise GenerateError(
            f"generator of {problem.name}/{family} made an invalid case {cid} "
            f"(seed {seed}): {errors[0]}"
        )
    return {
        "case_id": cid,
        "problem": problem.name,
        "family": family,
        "input": text,
        "expected": problem.solve(text),
        "seed": cseed,
        "params": json.dumps({"seed": seed, "family": family, "index": i}, sort_keys=True),
    }


def generate_chunk(chunk: GenChunk, problem: Problem | None = None) -> list[dict[str, Any]]:
    """The corpus rows of one chunk (pure: same chunk, same rows, on any node)."""
    prob = problem if problem is not None else get_problem(chunk.problem)
    return [
        generate_case(prob, chunk.seed, chunk.family, i) for i in range(chunk.start, chunk.stop)
    ]


def serial_runner(problem: Problem | None = None) -> ChunkRunner:
    """Run chunks one after another in this process."""

    def run(chunks: list[GenChunk]) -> Iterator[tuple[GenChunk, list[dict[str, Any]]]]:
        for chunk in chunks:
            yield chunk, generate_chunk(chunk, problem)

    return run


def cluster_runner(cluster: Cluster, max_in_flight: int | None = None) -> ChunkRunner:
    """Run chunks as Ray tasks on `cluster` (an entered pipeline.distribute.cluster.Cluster); the
    workers look the problem up by name in their own registry."""

    def run(chunks: list[GenChunk]) -> Iterable[tuple[GenChunk, list[dict[str, Any]]]]:
        return cluster.map_unordered(generate_chunk, chunks, max_in_flight=max_in_flight)

    return run


def write_in_order(
    writer: CorpusWriter,
    results: Iterable[tuple[GenChunk, list[dict[str, Any]]]],
    on_rows: Callable[[int], None] | None = None,
    first: int = 0,
) -> None:
    """Write chunk results that may arrive in any order, in chunk order (from `first`)."""
    pending: dict[int, list[dict[str, Any]]] = {}
    next_index = first
    for chunk, rows in results:
        pending[chunk.index] = rows
        while next_index in pending:
            for row in pending.pop(next_index):
                writer.add(
                    row["case_id"],
                    row["family"],
                    row["input"],
                    row["expected"],
                    row["seed"],
                    row["params"],
                )
            next_index += 1
        if on_rows is not None:
            on_rows(len(rows))
    if pending:
        raise GenerateError(f"chunks {sorted(pending)[:5]} arrived without their predecessors")


def generate_corpus(
    problem: Problem,
    count: int,
    seed: int,
    out_dir: Path,
    families: Sequence[str] = (),
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    runner: ChunkRunner | None = None,
    on_rows: Callable[[int], None] | None = None,
    window: int = WINDOW,
) -> Manifest:
    """Generate `count` cases of `problem` into the new corpus folder `out_dir`.

    `runner` maps chunks to rows (default: serially in this process); the result does
    not depend on it. Chunks go to the runner `window` at a time, so rows waiting for a
    slower predecessor never exceed `window` chunks (memory bounded by chunk size)."""
    chunks = plan_chunks(problem, count, seed, families, chunk_size)
    run = runner if runner is not None else serial_runner(problem)
    source = f"gridjudge generate {problem.name} --count {count} --seed {seed}"
    # generate_case validated every input: the manifest says so, and grade trusts it
    fingerprint = validator_fingerprint(problem)
    with CorpusWriter(out_dir, problem.name, source=source, validated_with=fingerprint) as writer:
        for start in range(0, len(chunks), max(1, window)):
            write_in_order(writer, run(chunks[start : start + max(1, window)]), on_rows, start)
    return read_manifest(out_dir)
