"""The 2025-09 format's one rule tying problem.yaml to the statements: "the set of
languages for which `name` is given must exactly match the set of languages for which a
problem statement exists" (`statement/problem.<language>.{tex,md,pdf}`). bt fails a
package that breaks it; so does `verify`. The statements themselves are not read."""

from __future__ import annotations

import re

from pipeline.package.spec import Package, load_yaml
from pipeline.package.versions import V2025
from pipeline.verify.expect import INPUTS, Check

STATEMENT_DIR = "statement"
STATEMENT_FILE = re.compile(r"problem\.([A-Za-z0-9-]+)\.(tex|md|pdf)")
NAME = "statement languages"


def statement_checks(package: Package) -> list[Check]:
    """One check on a 2025-09 package with statements: the languages of its `name` are
    those of its statements; none otherwise."""
    folder = package.root / STATEMENT_DIR
    if package.version != V2025 or not folder.is_dir():
        return []
    found = (STATEMENT_FILE.fullmatch(p.name) for p in folder.iterdir() if p.is_file())
    written = {m.group(1) for m in found if m is not None}
    if not written:
        return []
    name = load_yaml(package.root / "problem.yaml").get("name")
    named = set(name) if isinstance(name, dict) else {"en"} if name else set()
    if named == written:
        return [Check(INPUTS, NAME, True, f"a name for each statement: {', '.join(sorted(named))}")]
    why = [
        *(f"statement/problem.{x}.* has no name in problem.yaml" for x in sorted(written - named)),
        *(f"name in {x} has no statement/problem.{x}.*" for x in sorted(named - written)),
    ]
    return [Check(INPUTS, NAME, False, "; ".join(why))]
