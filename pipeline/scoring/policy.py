"""The scoring policy (YAML, `--scoring` or a run config's `scoring:` block): groups of
families, each with points and an aggregation. A case belongs to the first group whose
family patterns (globs) match its family.

    all          points only if every case of the group is AC (CMS GroupMin)
    fraction     points x passed / cases (CMS Sum)
    threshold: k points if at least k cases of the group are AC (CMS GroupThreshold)
    sum          points x the mean of the cases' scores (the 2023-07 package format's `sum`:
                 the group's points split evenly among its cases, each case worth its
                 share x its score)
    min          points x the lowest case score (the 2023-07 format's `min`)

A case's score is what its checker gave (the results' `score` column: a package
validator's score.txt, testlib points), else 1 for AC and 0 for anything else; so on
cases without scores `sum` is `fraction` and `min` is `all`.
"""

from __future__ import annotations

import fnmatch
import glob
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pipeline.errors import GridjudgeError
from pipeline.ids import plain_names
from pipeline.yamlfile import first_error, read_yaml

POLICY_FILE = "scoring.yaml"  # the policy a run was last scored with, kept in its folder
DEFAULT_TOTAL = 100.0
# "/" too: an imported package's families are its data folders (secret/group1)
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./-]*$")


class ScoringError(GridjudgeError):
    """A scoring policy that cannot be used; one line for the user."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Threshold(_Strict):
    threshold: int = Field(ge=1)


class Group(_Strict):
    name: str
    families: list[str] = Field(min_length=1)
    points: float = Field(ge=0)
    aggregate: Literal["all", "fraction", "sum", "min"] | Threshold = "fraction"
    # the problem whose cases the group holds (None: any): in a run over several problems
    # each submission is scored per problem, over its problem's groups only
    problem: str | None = None

    @field_validator("name")
    @classmethod
    def _plain_name(cls, name: str) -> str:
        if not _NAME.match(name):
            raise ValueError(f"group name {name!r} must be letters, digits, _ . - /")
        return name

    def matches(self, family: str) -> bool:
        return any(fnmatch.fnmatchcase(family, pattern) for pattern in self.families)


class Policy(_Strict):
    groups: list[Group] = Field(min_length=1)

    @field_validator("groups")
    @classmethod
    def _unique(cls, groups: list[Group]) -> list[Group]:
        names = [g.name for g in groups]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"group name(s) used twice: {', '.join(twice)}")
        return groups

    @property
    def max_score(self) -> float:
        return sum(g.points for g in self.groups)

    def for_problem(self, problem: str, families: Iterable[str]) -> Policy:
        """The groups that score `problem`: those of no problem or of this one that take a
        family of it (an error when none does)."""
        names = list(families)
        groups = [
            g
            for g in self.groups
            if g.problem in (None, problem) and any(g.matches(f) for f in names)
        ]
        if not groups:
            raise ScoringError(f"scoring: no group takes a family of problem {problem!r}")
        return Policy(groups=groups)

    def group_of(self, family: str) -> Group | None:
        return next((g for g in self.groups if g.matches(family)), None)

    def assign(self, families: Iterable[str]) -> dict[str, str]:
        """family -> group name; a family no group matches is a one-line error."""
        out = {}
        for family in sorted(set(families)):
            group = self.group_of(family)
            if group is None:
                raise ScoringError(f"scoring: family {family!r} matches no group's families")
            out[family] = group.name
        return out

    def check(self, family_cases: Mapping[str, int]) -> None:
        """Before any work: every family is in a group, and a threshold can be reached."""
        assigned = self.assign(family_cases)
        for group in self.groups:
            if isinstance(group.aggregate, Threshold):
                cases = sum(n for f, n in family_cases.items() if assigned[f] == group.name)
                if cases < group.aggregate.threshold:
                    raise ScoringError(
                        f"scoring: group {group.name!r} has {cases} cases, fewer than its "
                        f"threshold {group.aggregate.threshold}"
                    )

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.model_dump(mode="json", exclude_none=True), sort_keys=False)


def default_policy(families: Iterable[str]) -> Policy:
    """One group per family, `fraction`, equal points summing to DEFAULT_TOTAL; a group
    is named by its family made plain (ids.plain_names: a family is a folder's name, and
    may hold anything) and takes that family alone."""
    names = sorted(set(families))
    if not names:
        raise ScoringError("scoring: the run has no results to score")
    points = DEFAULT_TOTAL / len(names)
    plain = plain_names(names)
    groups = [Group(name=plain[f], families=[literal(f)], points=points) for f in names]
    return Policy(groups=groups)


def literal(family: str) -> str:
    """A family pattern that matches `family` alone (its `*`, `?` and `[` are not glob
    syntax): a folder's name may hold any of them."""
    return glob.escape(family)


def default_policy_by_problem(families: Mapping[str, Iterable[str]]) -> Policy:
    """One problem: default_policy. Several: per problem one group per family (named
    PROBLEM/FAMILY, of that problem only), equal points summing to DEFAULT_TOTAL in each
    problem, so every problem is scored out of DEFAULT_TOTAL."""
    if len(families) <= 1:
        return default_policy(next(iter(families.values()), []))
    groups = []
    plain = plain_names(f"{p}/{f}" for p in sorted(families) for f in sorted(set(families[p])))
    for problem in sorted(families):
        names = sorted(set(families[problem]))
        groups += [
            Group(
                name=plain[f"{problem}/{f}"],
                families=[literal(f)],
                points=DEFAULT_TOTAL / len(names),
                problem=problem,
            )
            for f in names
        ]
    return Policy(groups=groups)


def policy_from(data: Any, where: str) -> Policy:
    """A policy from parsed YAML (a file's content or a run config's block)."""
    if not isinstance(data, dict):
        raise ScoringError(f"{where}: expected a mapping with `groups:`")
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        raise ScoringError(f"{where}: {first_error(exc, Policy)}") from None


def load_policy(path: Path) -> Policy:
    return policy_from(read_yaml(path, ScoringError), str(path))
