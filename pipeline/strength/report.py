"""What the kill matrix says: per case and per family how many programs it kills, per
program the first case that kills it (none: a survivor), and the minimal corpus (by
count, and by CPU) written as a corpus and, for a package, as a `data/` folder."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.corpus.store import CorpusWriter, iter_batches, read_manifest
from pipeline.package.case_files import INPUT_SUFFIX, case_path
from pipeline.schemas import (
    STRENGTH_CASES_SCHEMA,
    STRENGTH_FAMILIES_SCHEMA,
    STRENGTH_PROGRAMS_SCHEMA,
)
from pipeline.strength.cover import Cover
from pipeline.strength.matrix import Cases
from pipeline.strength.population import Program

# the files of one case in a package's data folder, besides NAME.in and NAME.ans
CASE_SUFFIXES = (
    *(".in", ".ans", ".yaml", ".hint", ".desc", ".png", ".jpg", ".jpeg", ".svg"),
    *(".interaction", ".args", ".files", ".out"),
)


@dataclass(frozen=True)
class Strength:
    programs: pa.Table  # program, kind, origin, kills, first_kill (null: survivor)
    cases: pa.Table  # case_id, family, kills, cpu_ms, minimal, minimal_cpu
    families: pa.Table  # family, cases, kills, programs_killed
    cover: Cover
    cpu_cover: Cover

    @property
    def survivors(self) -> list[str]:
        names = self.programs.column("program").to_pylist()
        first = self.programs.column("first_kill").to_pylist()
        return [p for p, f in zip(names, first, strict=True) if f is None]


def _program_table(programs: list[Program], kills: np.ndarray, cases: Cases) -> pa.Table:
    any_kill = [bool(hit) for hit in np.asarray(kills.any(axis=1))]
    first = [int(j) for j in np.argmax(kills, axis=1)]
    return pa.table(
        {
            "program": [p.label for p in programs],
            "kind": [p.kind for p in programs],
            "origin": [p.origin for p in programs],
            "kills": pa.array(kills.sum(axis=1), pa.int64()),
            "first_kill": [
                cases.ids[j] if hit else None for j, hit in zip(first, any_kill, strict=True)
            ],
        },
        schema=STRENGTH_PROGRAMS_SCHEMA,
    )


def _family_table(kills: np.ndarray, cases: Cases) -> pa.Table:
    families = sorted(set(cases.families))
    at = np.array([families.index(f) for f in cases.families], dtype=np.int64)
    rows = []
    for k, family in enumerate(families):
        mine = kills[:, at == k]
        rows.append(
            {
                "family": family,
                "cases": int(mine.shape[1]),
                "kills": int(mine.sum()),
                "programs_killed": int(mine.any(axis=1).sum()),
            }
        )
    return pa.Table.from_pylist(rows, schema=STRENGTH_FAMILIES_SCHEMA)


def summarize(
    programs: list[Program],
    kills: np.ndarray,
    cost: np.ndarray,
    cases: Cases,
    covers: tuple[Cover, Cover],
) -> Strength:
    cover, cpu_cover = covers
    minimal = np.zeros(len(cases.ids), dtype=bool)
    minimal[cover.cases] = True
    minimal_cpu = np.zeros(len(cases.ids), dtype=bool)
    minimal_cpu[cpu_cover.cases] = True
    case_table = pa.table(
        {
            "case_id": cases.ids,
            "family": cases.families,
            "kills": pa.array(kills.sum(axis=0), pa.int64()),
            "cpu_ms": pa.array(cost, pa.float64()),
            "minimal": minimal,
            "minimal_cpu": minimal_cpu,
        },
        schema=STRENGTH_CASES_SCHEMA,
    )
    program_table = _program_table(programs, kills, cases)
    return Strength(program_table, case_table, _family_table(kills, cases), cover, cpu_cover)


def write_minimal_corpus(source: Path, chosen: list[str], out: Path) -> Path:
    """The chosen cases of the corpus `source`, in its order, as a corpus of their own
    (vouched for as the source is: the inputs are the same)."""
    manifest = read_manifest(source)
    wanted = set(chosen)
    with CorpusWriter(
        out, manifest.problem, source=str(source), validated_with=manifest.validated_with
    ) as writer:
        for batch in iter_batches(source):
            for row in batch.to_pylist():
                if row["case_id"] in wanted:
                    writer.add(
                        row["case_id"],
                        row["family"],
                        row["input"],
                        row["expected"],
                        row.get("seed"),
                        row.get("params"),
                    )
    return out


def write_minimal_data(package: Path, keep: list[str], out: Path) -> Path:
    """The package's `data/` folder with only the secret cases in `keep` (every sample
    stays: it is shown to contestants, not only graded): a copy without the files of
    every other secret case, those the validators rejected included."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(package / "data", out, symlinks=False)
    kept = set(keep)
    for case_in in sorted((out / "secret").rglob("*" + INPUT_SUFFIX)):
        case_id = case_path(case_in.relative_to(out)).as_posix()
        if case_id in kept:
            continue
        for suffix in CASE_SUFFIXES:
            path = out / f"{case_id}{suffix}"
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            elif path.exists() or path.is_symlink():
                path.unlink()
    return out
