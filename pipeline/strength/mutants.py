"""Mutants of a correct program, made by universalmutator (a maintained mutation tool of
many languages; gridjudge writes no mutator), a seeded sample of them, and the ones that
fail to compile dropped and counted.

universalmutator rewrites the source text only (`--noCheck`: it compiles nothing, so no
program of the user runs outside the sandbox); each sampled mutant is then compiled like
any submission (program.submission.prepare, in the sandbox, cached by content), and a
compile error drops it. A mutant lives in a folder of its own under the source's file
name, so a language that ties a file's name to its content (a Java class) still builds.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import GridjudgeError
from pipeline.problem.contract import Problem
from pipeline.program.languages.registry import for_extension, missing
from pipeline.program.submission import PreparedSubmission, SubmissionSpec, prepare
from pipeline.program.submission_sets import spec_for

MUTATE_TIMEOUT_S = 300.0
_NUMBER = re.compile(r"\.mutant\.(\d+)\.[^.]+$")


class MutantError(GridjudgeError):
    """A source that cannot be mutated (no such file, a language the tool lacks); one line."""


@dataclass(frozen=True)
class Mutant:
    label: str  # `<source file name>.m<number>`: the program's id in the matrix
    source: Path  # the mutated program's source
    number: int  # universalmutator's number of the mutant
    origin: Path  # the source it is a mutant of


@dataclass
class MutantSet:
    mutants: list[Mutant] = field(default_factory=list)  # sampled and compiled
    made: int = 0  # every mutant the tool made of the sources
    sampled: int = 0
    compile_failed: list[str] = field(default_factory=list)  # labels dropped
    # sources not mutated: (source, why): no toolchain here, or the tool knows no rules
    passed_over: list[tuple[Path, str]] = field(default_factory=list)


def mutate(source: Path, into: Path) -> list[Path]:
    """Every mutant universalmutator makes of `source` (by the file's extension), in
    `into`, in the tool's order."""
    source = Path(source).resolve()
    if not source.is_file():
        raise MutantError(f"--mutate {source}: no such file (a single source file is mutated)")
    into.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gridjudge-mutate-") as work:
        # the tool writes scratch files in its working folder: a fresh one
        command = [sys.executable, "-m", "universalmutator.genmutants", str(source)]
        command += ["--noCheck", "--mutantDir", str(into.resolve())]
        try:
            done = subprocess.run(
                command, cwd=work, capture_output=True, text=True, timeout=MUTATE_TIMEOUT_S
            )
        except subprocess.TimeoutExpired:
            raise MutantError(f"universalmutator took over {MUTATE_TIMEOUT_S:.0f} s") from None
    made = sorted(into.glob(f"{source.stem}.mutant.*"), key=_number)
    if done.returncode != 0 and not made:
        why = (done.stderr or done.stdout).strip().splitlines() or ["no message"]
        raise MutantError(f"universalmutator could not mutate {source.name}: {why[-1][:200]}")
    return made


def _number(path: Path) -> int:
    match = _NUMBER.search(path.name)
    return int(match.group(1)) if match else -1


def sample(paths: list[Path], count: int, seed: int) -> list[Path]:
    """`count` of the paths, drawn by random.Random(seed) from their order (all when
    there are fewer), kept in that order: the same seed, the same mutants."""
    if count >= len(paths):
        return list(paths)
    chosen = set(random.Random(seed).sample(range(len(paths)), count))
    return [p for i, p in enumerate(paths) if i in chosen]


def _placed(made: Path, origin: Path, name: str, out: Path) -> Mutant:
    """The mutant copied to `out/<name>.m<n>/<origin's file name>`."""
    number = _number(made)
    label = f"{name}.m{number}"
    folder = out / label
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(made, folder / origin.name)
    return Mutant(label, folder, number, origin)


def _unusable(source: Path) -> str | None:
    """Why a source's mutants could not run here (no language, no toolchain), or None."""
    if not source.is_file():
        return "no such file (a single source file is mutated)"
    lang = for_extension(source.suffix)
    if lang is None:
        return f"no language uses {source.suffix or 'files without an extension'}"
    return missing(lang)


def _names(sources: list[Path]) -> dict[Path, str]:
    """Each source's name in its mutants' names: its file name (x.c and x.js are both
    mutated), with its position among the sources where two share one."""
    count = Counter(p.name for p in sources)
    return {p: p.name if count[p.name] == 1 else f"{p.name}.{n}" for n, p in enumerate(sources)}


def make_mutants(
    sources: list[Path],
    count: int,
    seed: int,
    out: Path,
    problem: Problem,
    workers: int = 2,
    pass_over: bool = False,
) -> MutantSet:
    """`count` mutants over all the sources (a seeded sample of everything the tool
    makes of them), written under `out`, each compiled; those that fail are dropped. A
    source whose language cannot run here, or that the tool cannot mutate, is an error,
    or with `pass_over` (a package's accepted submissions, in any language) left out."""
    result = MutantSet()
    made: list[tuple[Path, Path]] = []
    with tempfile.TemporaryDirectory(prefix="gridjudge-mutants-") as scratch:
        for n, source in enumerate(map(Path, sources)):
            try:
                why = _unusable(source)
                if why is not None:
                    raise MutantError(f"--mutate {source}: {why}")
                made += [(p, source) for p in mutate(source, Path(scratch) / str(n))]
            except MutantError as exc:
                if not pass_over:
                    raise
                result.passed_over.append((source, str(exc)))
        result.made = len(made)
        picked = {p for p in sample([p for p, _ in made], count, seed)}
        names = _names(list(map(Path, sources)))
        placed = [_placed(p, origin, names[origin], out) for p, origin in made if p in picked]
    result.sampled = len(placed)
    built = compile_all([spec_for(m.label, m.source) for m in placed], problem, workers)
    for mutant, prepared in zip(placed, built, strict=True):
        if prepared.compile_error is None:
            result.mutants.append(mutant)
        else:
            result.compile_failed.append(mutant.label)
            shutil.rmtree(mutant.source, ignore_errors=True)
    return result


def compile_all(
    specs: list[SubmissionSpec], problem: Problem, workers: int = 2
) -> list[PreparedSubmission]:
    """Each spec prepared (built once per content into the compile cache), `workers`
    compiles at a time: a compiler is a process, the threads only wait for it."""
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(lambda spec: prepare(spec, problem), specs))
