"""Finds problem plugins through the entry-point group "gridjudge.problems".

A plugin that fails to import, or whose object is not a Problem, fails loudly with its
name: a judge silently missing a problem is worse than one that refuses to start.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from pipeline.errors import GridjudgeError
from pipeline.problem import Problem

ENTRY_POINT_GROUP = "gridjudge.problems"


class RegistryError(GridjudgeError):
    """A plugin is broken or a name is unknown; the message is one line for the user."""


@cache
def all_problems() -> dict[str, Problem]:
    problems: dict[str, Problem] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            obj = ep.load()
        except Exception as exc:  # any import failure of a plugin is reported the same way
            raise RegistryError(
                f"problem plugin {ep.name!r} ({ep.value}) failed to load: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        if not isinstance(obj, Problem):
            raise RegistryError(
                f"problem plugin {ep.name!r} ({ep.value}) is a {type(obj).__name__}, not a Problem"
            )
        if obj.name != ep.name:
            raise RegistryError(
                f"problem plugin {ep.name!r} ({ep.value}) calls itself {obj.name!r}"
            )
        problems[ep.name] = obj
    return problems


def get_problem(name: str) -> Problem:
    problems = all_problems()
    if name not in problems:
        known = ", ".join(problems) or "none installed"
        raise RegistryError(f"unknown problem {name!r} (known: {known})")
    return problems[name]
