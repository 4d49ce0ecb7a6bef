"""A scoring package's test groups as the groups of a scoring policy (pipeline.scoring),
given as plain data (the policy type lives on a higher floor).

Each folder directly in data/secret is one policy group, its nested groups included
(the policy's groups are flat). Its aggregation `min` (legacy `grader_flags: min`, 2023-07
`scoring: {aggregation: min}`) is the policy's `min`, `sum` its `sum`: on cases scored by
verdict alone they are the policy's `all` and `fraction`; a case's own score (score.txt,
testlib points) counts as the fraction of its share it earned. 2025-09's `pass-fail` is
the policy's `all`. Its points are the group's `score` / `max_score` (2023-07 and later:
where not given, inferred as the format says, spec.folder_settings); legacy: the upper
end of its `range`, else what the legacy default grader gives: `accept_score` (1) per
case for `sum`, once for `min`.
Cases directly in data/secret form a group `secret` the same way; data/sample earns 0.
"""

from __future__ import annotations

import glob
from collections import Counter
from pathlib import Path
from typing import Any

from pipeline.ids import plain_names
from pipeline.package.problem import test_files
from pipeline.package.spec import FolderSettings, is_package, read_package

SAMPLE_GROUP = {"name": "sample", "families": ["sample", "sample/*"], "points": 0.0}


# a package group's aggregation -> the policy's (pass-fail: points only if every case is AC)
AGGREGATES = {"sum": "sum", "min": "min", "pass-fail": "all"}


def _group(name: str, families: list[str], settings: FolderSettings, cases: int) -> dict[str, Any]:
    once = settings.aggregation != "sum"
    points = settings.score
    if points is None:
        points = settings.accept_score * (1 if once else cases)
    return {
        "name": name,
        "families": families,
        "points": points,
        "aggregate": AGGREGATES[settings.aggregation],
    }


def scoring_policy(name: str) -> dict[str, Any] | None:
    """The policy (as YAML would give it) of the scoring package at path `name`; None
    for a name that is no package, or a pass-fail package (scored per family)."""
    path = Path(name)
    if not is_package(path):
        return None
    package = read_package(path)
    if not package.scoring:
        return None
    top: Counter[str] = Counter()  # "secret" or "secret/<group>" -> cases
    for family, _, _ in test_files(package):
        parts = family.split("/")
        if parts[0] == "secret":
            top["/".join(parts[:2])] += 1
    groups: list[dict[str, Any]] = [SAMPLE_GROUP]
    # a folder's name may hold anything: as a group name made plain, as a pattern literal
    # (a group is named by its folder in data/secret: none may be named as `sample` or
    # as `secret`, the cases directly in data/secret)
    plain = plain_names(sorted(top), reserved=["secret/sample", "secret/secret"])
    for family in sorted(top):
        settings = package.folders[family]
        exact = glob.escape(family)
        families = [exact] if family == "secret" else [exact, f"{exact}/*"]
        name = plain[family].removeprefix("secret/")
        groups.append(_group(name, families, settings, top[family]))
    return {"groups": groups}
