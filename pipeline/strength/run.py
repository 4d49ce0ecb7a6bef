"""`strength` as a library: the target and its population, the kill matrix graded by
`grade`, the minimal covers, and every table written to the strength folder:

    OUT/run/             the grading run (`grade`'s run folder: --resume continues it)
    OUT/mutants/         the mutants graded, one folder each
    OUT/corpus/          a package's valid inputs as a corpus (a corpus target is read in place)
    OUT/matrix.parquet   program, kind, case_id, family, verdict, cpu_ms, killed, ran
    OUT/programs.parquet program, kind, origin, kills, first_kill (null: a survivor)
    OUT/cases.parquet    case_id, family, kills, cpu_ms, minimal, minimal_cpu
    OUT/families.parquet family, cases, kills, programs_killed
    OUT/minimal/         the smallest corpus that kills every killed program
    OUT/data/            for a package: its data folder with only those secret cases
    OUT/survivors.parquet   with --stress-survivors: each survivor's search, the case found
    OUT/regression/      the shrunk cases that kill survivors, as a corpus
    OUT/strength.json    the figures
    OUT/report.html      the grading run's report, first its strength section: the matrix
                         as a picture, the survivors, the minimal corpus against the full
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.corpus.store import read_manifest
from pipeline.grade.plan import GradeOutcome
from pipeline.private import write_private
from pipeline.results.store import write_table
from pipeline.strength.cover import minimal_cover
from pipeline.strength.html import strength_section, write_strength_report
from pipeline.strength.matrix import (
    Cases,
    GradeRun,
    corpus_cases,
    grade_population,
    write_kill_matrix,
)
from pipeline.strength.population import (
    Population,
    StrengthError,
    Target,
    population,
    target_of,
)
from pipeline.strength.report import (
    Strength,
    summarize,
    write_minimal_corpus,
    write_minimal_data,
)
from pipeline.strength.survivors import search_survivors, search_table, write_regression

STRENGTH_JSON = "strength.json"
REPORT_HTML = "report.html"
DEFAULT_COVER_TIME_S = 120.0
OURS = frozenset(
    {"run", "mutants", "corpus", "minimal", "data", "regression", STRENGTH_JSON, REPORT_HTML}
    | {"strength.html"}  # the report's name before it was the run's report with a section
    | {f"{name}.parquet" for name in ("matrix", "programs", "cases", "families", "survivors")}
)


@dataclass
class StrengthOptions:
    target: Path
    out: Path
    wrong: list[Path] = field(default_factory=list)
    mutate: list[Path] = field(default_factory=list)
    mutants: int = 0
    seed: int = 0
    grading: GradeRun | None = None  # None: GradeRun(out / "run")
    workers: int = 2  # compiles at a time
    examples: bool = True  # a built-in problem's wrong examples join the population
    stress_s: float = 0.0  # seconds of `stress` per survivor (0: none)
    cover_time_s: float | None = DEFAULT_COVER_TIME_S  # each cover's; then the best found


@dataclass
class StrengthOutcome:
    target: Target
    population: Population
    graded: GradeOutcome
    strength: Strength
    pairs: int
    figures: dict[str, Any]


def _check_out(out: Path, resume: bool) -> None:
    """A fresh folder, or with --resume one a strength run wrote; nothing else in it."""
    if not out.is_dir():
        if out.exists():
            raise StrengthError(f"--out {out} is a file")
        return
    entries = {p.name for p in out.iterdir()}
    foreign = sorted(entries - OURS)
    if foreign:
        raise StrengthError(f"--out {out} holds {foreign[0]!r}, not a strength run's: refused")
    if entries and not resume:
        raise StrengthError(f"{out} already holds a strength run: pass --resume, or another --out")


def run_strength(
    options: StrengthOptions,
    on_rows: Callable[[int, Counter[str]], None] | None = None,
    on_stage: Callable[[str], None] = lambda _: None,
) -> StrengthOutcome:
    """The whole analysis (see the module); `on_stage` hears one line as each step
    starts, `on_rows` is `grade`'s callback."""
    out = Path(options.out)
    grading = options.grading or GradeRun(out / "run")
    _check_out(out, grading.resume)
    out.mkdir(parents=True, exist_ok=True)
    if (out / "corpus").exists():  # a package's corpus is made anew, the same each time
        shutil.rmtree(out / "corpus")
    target = target_of(options.target, out / "corpus")
    if options.mutants:
        on_stage(f"making {options.mutants} mutants (universalmutator) and compiling them")
    pop = population(
        target,
        options.wrong,
        options.mutate,
        options.mutants,
        options.seed,
        out / "mutants",
        options.workers,
        options.examples,
    )
    count = read_manifest(target.corpus).count
    on_stage(f"grading {len(pop.programs)} programs on {count} cases ({target.corpus})")
    graded = grade_population(target.corpus, pop.programs, grading, on_rows)
    cases = corpus_cases(target.corpus)
    matrix = write_kill_matrix(grading.out, pop.programs, cases, out / "matrix.parquet")
    kills, cost = matrix.kills, matrix.cost
    on_stage("solving the minimal set cover (HiGHS)")
    limit = options.cover_time_s
    covers = (
        minimal_cover(kills, cost, time_limit_s=limit),
        minimal_cover(kills, cost, by_cpu=True, time_limit_s=limit),
    )
    strength = summarize(pop.programs, kills, cost, cases, covers)
    _write_corpora(out, target, [cases.ids[j] for j in covers[0].cases], cases)
    figures = _figures(options, pop, strength, cost)
    if options.stress_s > 0 and strength.survivors:
        figures["regression_cases"] = _search(target, pop, strength, options, on_stage)
    for name in ("programs", "cases", "families"):
        write_table(out / f"{name}.parquet", getattr(strength, name))
    section = strength_section(figures, pop.programs, kills, cases)
    write_strength_report(out / REPORT_HTML, grading.out, matrix.pairs, section)
    write_private(out / STRENGTH_JSON, json.dumps(figures, indent=2) + "\n")
    return StrengthOutcome(target, pop, graded, strength, matrix.pairs, figures)


def _write_corpora(out: Path, target: Target, chosen: list[str], cases: Cases) -> None:
    """OUT/minimal/ (and a package's OUT/data/), written anew on a resumed run."""
    if (out / "minimal").exists():
        shutil.rmtree(out / "minimal")
    write_minimal_corpus(target.corpus, chosen, out / "minimal")
    if target.package is not None:
        write_minimal_data(target.package, chosen, out / "data")


def _search(
    target: Target,
    pop: Population,
    strength: Strength,
    options: StrengthOptions,
    on_stage: Callable[[str], None],
) -> int:
    """Each survivor stressed (a problem with a generator); the cases found written to
    OUT/regression/; how many."""
    out = Path(options.out)
    if target.problem.generate is None:
        on_stage(f"no survivor searched: {target.problem.name} has no generator")
        return 0
    left = set(strength.survivors)
    survivors = [p for p in pop.programs if p.label in left]
    on_stage(f"stressing {len(survivors)} survivors, {options.stress_s:g} s each")
    searches = search_survivors(target.problem, survivors, options.seed, options.stress_s)
    write_table(out / "survivors.parquet", search_table(searches))
    if (out / "regression").exists():
        shutil.rmtree(out / "regression")
    return write_regression(target.problem, searches, out / "regression")


def _figures(
    options: StrengthOptions, pop: Population, strength: Strength, cost: np.ndarray
) -> dict[str, Any]:
    """strength.json: CPU is the population's on the cases (every program's ms summed)."""
    kinds = Counter(p.kind for p in pop.programs)
    survivors = strength.survivors
    return {
        "target": str(options.target),
        "seed": options.seed,
        "programs": len(pop.programs),
        "programs_by_kind": dict(sorted(kinds.items())),
        "mutants_made": pop.mutants.made,
        "mutants_sampled": pop.mutants.sampled,
        "mutants_compile_failed": len(pop.mutants.compile_failed),
        "not_mutated": [f"{path.name}: {why}" for path, why in pop.mutants.passed_over],
        "compile_failed": pop.compile_failed,
        "killed": len(pop.programs) - len(survivors),
        "survivors": survivors,
        "cases": len(cost),
        "cpu_ms": round(float(cost.sum()), 3),
        "minimal_cases": len(strength.cover.cases),
        "minimal_cpu_ms": round(float(cost[strength.cover.cases].sum()), 3),
        "minimal_by_cpu_cases": len(strength.cpu_cover.cases),
        "minimal_by_cpu_cpu_ms": round(strength.cpu_cover.cost, 3),
        "optimal": strength.cover.optimal and strength.cpu_cover.optimal,
        "gap": round(max(strength.cover.gap, strength.cpu_cover.gap), 6),
    }
