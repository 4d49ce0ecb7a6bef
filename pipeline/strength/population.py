"""The population `strength` grades: the target (a corpus of a built-in problem, or a
problem package made into one) and its wrong programs: `--wrong` files and folders, a
package's rejected submissions, and mutants of correct programs (`--mutate`, by default
a package's accepted submissions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.corpus.store import manifest_path, read_manifest
from pipeline.errors import GridjudgeError
from pipeline.package.spec import is_package, read_package
from pipeline.package.submissions import read_submissions
from pipeline.problem.contract import Problem
from pipeline.problem.registry import get_problem
from pipeline.program.examples import example_files, is_correct
from pipeline.program.submission import SubmissionSpec
from pipeline.program.submission_sets import from_dir, spec_for
from pipeline.strength.mutants import MutantSet, compile_all, make_mutants
from pipeline.verify.expect import Check
from pipeline.verify.prepare import label_of, specs_of, validate_inputs

WRONG, REJECTED, EXAMPLE, MUTANT = "wrong", "rejected", "example", "mutant"


class StrengthError(GridjudgeError):
    """`strength` cannot start (a target that is neither corpus nor package, a program
    given twice, nothing to grade); one line."""


@dataclass(frozen=True)
class Program:
    label: str  # its id in the matrix
    kind: str  # wrong | rejected | example | mutant
    spec: SubmissionSpec
    origin: str = ""  # a mutant's source; a rejected submission's verdict folder; a file


@dataclass
class Target:
    problem: Problem
    corpus: Path
    package: Path | None = None  # the package's folder, when the target is one
    correct: list[Path] = field(default_factory=list)  # a package's accepted sources
    rejected: list[Program] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)  # a package's inputs, as verify's


@dataclass
class Population:
    programs: list[Program]
    mutants: MutantSet
    compile_failed: list[str]  # programs other than mutants that cannot run: left out


def target_of(path: Path, work: Path) -> Target:
    """A corpus folder as it is, or a package whose valid inputs are written to the
    corpus `work` (an input its validators reject is left out, as `verify` does)."""
    path = Path(path)
    if manifest_path(path) is not None:
        return Target(get_problem(read_manifest(path).problem), path)
    if not is_package(path):
        raise StrengthError(f"{path}: neither a corpus folder nor a problem package")
    package = read_package(path)
    problem = get_problem(str(package.root))
    checks = validate_inputs(package, problem, work)
    subs = read_submissions(package.root)
    accepted = [s.path for s in subs if s.required == {"AC"} and s.path.is_file()]
    wrong = [s for s in subs if s.required and "AC" not in s.required]
    specs = specs_of(package, wrong, checks)
    folder = {label_of(package, s): s.folder for s in wrong}
    rejected = [Program(label, REJECTED, spec, folder[label]) for label, spec in specs.items()]
    return Target(problem, work, package.root, accepted, rejected, checks)


def wrong_examples(problem: str, given: Sequence[Program]) -> list[Program]:
    """The problem's bundled examples that are not correct (datasets/examples/PROBLEM/,
    the verdict in the name), each named `examples/FILE`; one given already is not added."""
    paths = {str(Path(p.spec.path).resolve()) for p in given if p.spec.path is not None}
    return [
        Program(
            f"examples/{path.name}", EXAMPLE, spec_for(f"examples/{path.name}", path), str(path)
        )
        for path in (p.resolve() for p in example_files(problem))
        if not is_correct(path) and str(path) not in paths
    ]


def wrong_programs(paths: Sequence[Path]) -> list[Program]:
    """Each `--wrong` file, and each program in a `--wrong` folder, named by its stem."""
    out = []
    for path in map(Path, paths):
        if path.is_dir():  # a folder of programs, as `grade --submissions` reads one
            out += [Program(s.label, WRONG, s, str(path)) for s in from_dir(path)]
        elif path.exists():
            out.append(Program(path.stem, WRONG, spec_for(path.stem, path.resolve())))
        else:
            raise StrengthError(f"--wrong {path}: no such file or folder")
    return out


def population(
    target: Target,
    wrong: Sequence[Path],
    mutate: Sequence[Path],
    count: int,
    seed: int,
    mutants_dir: Path,
    workers: int = 2,
    examples: bool = True,
) -> Population:
    """Every wrong program, compiled (a program that does not compile is left out and
    named: a compile error kills nothing of the test data's), with `examples` a built-in
    problem's wrong examples, and `count` mutants of `mutate` (default: the package's
    accepted sources)."""
    given = wrong_programs(wrong) + target.rejected
    if examples and target.package is None:
        given += wrong_examples(target.problem.name, given)
    _once([p.label for p in given])  # before any mutant is made or compiled
    sources = list(mutate) or target.correct
    if count and not sources:
        raise StrengthError("--mutants needs --mutate SOURCE (a correct program to mutate)")
    mutants = MutantSet()
    if count:
        mutants = make_mutants(
            sources, count, seed, mutants_dir, target.problem, workers, pass_over=not mutate
        )
    built = compile_all([p.spec for p in given], target.problem, workers)
    failed = [  # a compile error, or no toolchain here: every case would be a CE or a JE
        p.label
        for p, b in zip(given, built, strict=True)
        if b.compile_error is not None or b.unavailable is not None
    ]
    programs = [p for p in given if p.label not in failed]
    programs += [
        Program(m.label, MUTANT, spec_for(m.label, m.source), str(m.origin))
        for m in mutants.mutants
    ]
    _once([p.label for p in programs])
    if not programs:
        raise StrengthError("no program to grade: give --wrong, or --mutants with --mutate")
    return Population(programs, mutants, failed)


def _once(labels: list[str]) -> None:
    """Every program's id is its own: the matrix and `grade` know programs by it."""
    seen: set[str] = set()
    for label in labels:
        if label in seen:
            raise StrengthError(f"program {label!r} is given twice (rename one of them)")
        seen.add(label)
