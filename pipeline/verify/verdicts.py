"""A submission's verdict as the format's own tool gives it for the legacy and 2023-07
formats (problemtools' `verifyproblem`), read from its results rows.

The cases are walked in the format's order: `data/` holds `sample` then `secret`, each
folder its cases and sub-folders by name. A folder stops at its first rejected case or
sub-folder (`on_reject: break`, the default of every folder's `testdata.yaml`; `continue`
walks on), and its verdict is its children's by its `grader_flags`: the worst of them
(`worst_error`, the default), the first rejection (`first_error`), AC when any is
(`accept_if_any_accepted`), and on `data/` itself `ignore_sample` looks at the last child
only. With every folder breaking, the verdict is the first rejected case's. A case that
was not run (the grading stopped before it) is passed over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.package.spec import Package, load_yaml
from pipeline.package.versions import V2025

# problemtools' worst-first order of verdicts in gridjudge's names as the format reads
# them (expect.spec_verdict: MLE and OLE are RE, PE is WA); CE is worse than any
WORST_FIRST = ("CE", "JE", "IE", "RE", "TLE", "WA", "AC")
SETTINGS = "testdata.yaml"


@dataclass(frozen=True)
class FolderRules:
    """How a test data folder walks and aggregates its children."""

    on_reject: str = "break"  # or "continue"
    flags: tuple[str, ...] = ()  # grader_flags' words

    @property
    def breaks(self) -> bool:
        return self.on_reject != "continue"


def folder_rules(package: Package) -> dict[str, FolderRules] | None:
    """Each folder's rules (by its path under data/, "" for data/ itself; a folder inherits
    its parent's keys), or None where the format's verdict is not problemtools' (2025-09:
    its submissions are judged case by case, as the 2025-09 text says)."""
    if package.version == V2025 or not package.data.is_dir():
        return None
    grading = load_yaml(package.root / "problem.yaml").get("grading")
    legacy = grading.get("on_reject") if isinstance(grading, dict) else None
    top = FolderRules({"grade": "continue", "first_error": "break"}.get(str(legacy), "break"))
    out: dict[str, FolderRules] = {}
    folders = [package.data, *sorted(p for p in package.data.rglob("*") if p.is_dir())]
    for folder in folders:
        rel = folder.relative_to(package.data).as_posix()
        rel = "" if rel == "." else rel
        up = Path(rel).parent.as_posix()
        parent = out.get("" if up == "." else up, top) if rel else top
        file = folder / SETTINGS
        data = load_yaml(file) if file.is_file() else {}
        on_reject = str(data.get("on_reject", parent.on_reject))
        if legacy in ("grade", "first_error"):  # problem.yaml's wins, as in problemtools
            on_reject = top.on_reject
        words = data.get("grader_flags")
        flags = parent.flags if words is None else tuple(str(words).split())
        out[rel] = FolderRules(on_reject, flags)
    return out


def always_breaks(rules: Mapping[str, FolderRules] | None) -> bool:
    """Every folder stops at its first rejection: the verdict is the first rejected
    case's, and no case after it needs to run."""
    return rules is not None and all(r.breaks for r in rules.values())


@dataclass(frozen=True)
class FormatVerdict:
    verdict: str  # as the format names it (expect.spec_verdict), AC when none rejected
    case_id: str | None  # the rejected case that decided it (None: AC, or nothing ran)


def _worst(verdicts: Iterable[str]) -> str:
    rank = {v: i for i, v in enumerate(WORST_FIRST)}
    return min(verdicts, key=lambda v: rank.get(v, 0))


def _aggregate(got: list[FormatVerdict], rules: FolderRules, top: bool) -> FormatVerdict:
    if top and "ignore_sample" in rules.flags:
        got = got[-1:]
    if "accept_if_any_accepted" in rules.flags and any(g.verdict == "AC" for g in got):
        return FormatVerdict("AC", None)
    rejected = [g for g in got if g.verdict != "AC"]
    if not rejected:
        return FormatVerdict("AC", None)
    if "first_error" in rules.flags:
        return rejected[0]
    worst = _worst(g.verdict for g in rejected)
    return next(g for g in rejected if g.verdict == worst)


def _order(name: str, is_case: bool) -> str:
    """problemtools lists a folder's file names sorted, a case by its answer file."""
    return f"{name}.ans" if is_case else name


def format_verdict(
    verdicts: Mapping[str, str], rules: Mapping[str, FolderRules]
) -> FormatVerdict | None:
    """The verdict of the cases `verdicts` (case_id -> verdict as the format names it;
    case ids are paths under data/ without suffix), None when no case ran."""
    tree: dict[str, dict[str, bool]] = {}  # folder -> child name -> is a case
    for case_id in verdicts:
        parts = case_id.split("/")
        for depth in range(len(parts)):
            folder = "/".join(parts[:depth])
            tree.setdefault(folder, {})[parts[depth]] = depth == len(parts) - 1

    def walk(folder: str) -> FormatVerdict | None:
        rule = rules.get(folder, FolderRules())
        got: list[FormatVerdict] = []
        children = sorted(tree.get(folder, {}).items(), key=lambda c: _order(c[0], c[1]))
        for name, is_case in children:
            path = f"{folder}/{name}" if folder else name
            child = FormatVerdict(verdicts[path], path) if is_case else walk(path)
            if child is None:
                continue
            got.append(child if child.verdict != "AC" else FormatVerdict("AC", None))
            if child.verdict != "AC" and rule.breaks:
                break
        return _aggregate(got, rule, folder == "") if got else None

    return walk("")


def of_rows(rows: Iterable[Mapping[str, Any]], name: Any) -> dict[str, str]:
    """case_id -> verdict as the format names it (`name`: expect.spec_verdict)."""
    return {str(r["case_id"]): str(name(r["verdict"])) for r in rows}
