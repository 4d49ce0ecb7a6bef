"""Importers: judge folders, Kattis packages and multi-case files written as corpora
(corpus.store's form)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

from pipeline.corpus.store import (
    CorpusError,
    CorpusWriter,
    Manifest,
    read_manifest,
    validator_fingerprint,
)
from pipeline.errors import GridjudgeError
from pipeline.package.case_files import INPUT_SUFFIX, answer_of, case_path
from pipeline.package.links import link_out_of
from pipeline.problem.contract import InvalidInput, Problem

KATTIS_GRADED = ("sample", "secret")  # a package's data/invalid_* and the rest are not cases


def _judge_cases(
    root: Path, only: tuple[str, ...] = ()
) -> Iterator[tuple[str, str, Path, Path | None]]:
    """(case_id, family, .in, .ans or None) for a folder tree of NNNN.in [+ NNNN.ans]
    (in its sub-folders `only`, where given); the family is the sub-folder path
    (\"default\" for files directly in root)."""
    tops = [root / name for name in only] if only else [root]
    found = (p for t in tops for p in t.rglob(f"*{INPUT_SUFFIX}") if p.is_file())
    ins = {case_path(p): p for p in found}  # by the whole name: `1.5.in` is case `1.5`
    for ans in sorted(a for t in tops for a in t.rglob("*.ans")):
        if case_path(ans) not in ins:
            raise CorpusError(f"{ans}: answer file without a matching .in file")
    if not ins:
        raise CorpusError(f"{root}: no .in files found")
    for stem in sorted(ins):
        rel = stem.relative_to(root)
        family = rel.parent.as_posix() if rel.parent != Path(".") else "default"
        ans_path = answer_of(ins[stem])
        yield rel.as_posix(), family, ins[stem], ans_path if ans_path.is_file() else None


def import_folder(root: Path, problem: Problem, out_dir: Path) -> Manifest:
    """A judge folder tree (golden layout) or a Kattis package (its data/sample and
    data/secret). A link in the folder whose target is outside it is refused (the
    judge, root, would read any host file through it). A problem that asks for it (a
    package's) has every input validated: one it rejects is a one-line error naming the
    file, and the corpus is written as validated (grade trusts it, as it trusts a
    generated one)."""
    root = Path(root)
    if not root.is_dir():
        raise CorpusError(f"{root}: no such folder")
    escaping = link_out_of(root)
    if escaping is not None:
        raise CorpusError(escaping)
    only: tuple[str, ...] = ()
    if (root / "data").is_dir():  # Kattis problem package
        root, only = root / "data", tuple(n for n in KATTIS_GRADED if (root / "data" / n).is_dir())
    check = problem.validate_on_import
    vouch = validator_fingerprint(problem) if check else ""
    fresh = not Path(out_dir).exists()
    try:
        with CorpusWriter(out_dir, problem.name, source=str(root), validated_with=vouch) as writer:
            for case_id, family, in_path, ans_path in _judge_cases(root, only):
                text = _read_text(in_path)
                errors = problem.validate(text) if check else []
                if errors:
                    raise CorpusError(f"{in_path}: input rejected: {errors[0]}")
                writer.add(case_id, family, text, _read_text(ans_path) if ans_path else None)
    except GridjudgeError:  # a rejected input, or a validator that could not run
        if fresh:  # no half-written corpus is left behind
            shutil.rmtree(out_dir, ignore_errors=True)
        raise
    return read_manifest(out_dir)


def import_multicase(
    path: Path, problem: Problem, out_dir: Path, answers: Path | None = None
) -> Manifest:
    """One judge-format file holding several cases, cut by the problem's split_input;
    an answer file for it is cut by the problem's split."""
    path = Path(path)
    if not path.is_file():
        raise CorpusError(f"{path}: no such file")
    try:
        cases = problem.cases_of(_read_text(path))
    except InvalidInput as exc:
        raise CorpusError(f"{path}: cannot cut into cases: {exc}") from None
    expected: list[str | None] = [None] * len(cases)
    if answers is not None:
        if problem.split is None:
            raise CorpusError(
                f"problem {problem.name} holds one case per file: an answer file cannot be split"
            )
        parts = problem.split(_read_text(Path(answers)), len(cases))
        if len(parts) != len(cases):
            raise CorpusError(f"{answers}: {len(parts)} answers for {len(cases)} cases")
        expected = list(parts)
    family = path.stem
    with CorpusWriter(out_dir, problem.name, source=str(path)) as writer:
        for i, (case, ans) in enumerate(zip(cases, expected, strict=True), start=1):
            writer.add(f"{family}/{i:04d}", family, case, ans)
    return read_manifest(out_dir)


def import_path(
    path: Path, problem: Problem, out_dir: Path, answers: Path | None = None
) -> Manifest:
    path = Path(path)
    if path.is_dir():
        return import_folder(path, problem, out_dir)
    if path.is_file():
        return import_multicase(path, problem, out_dir, answers)
    raise CorpusError(f"{path}: no such file or folder")


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise CorpusError(f"{path}: {exc.strerror}") from None
