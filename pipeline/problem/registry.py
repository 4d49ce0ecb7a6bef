"""Finds problem plugins through the entry-point group "gridjudge.problems".

A plugin that fails to import, or whose object is not a Problem, fails loudly with its
name: a judge silently missing a problem is worse than one that refuses to start.
`get_problem(name)` loads only that plugin (mine's pulls in scipy, which grading another
problem need not pay for); `all_problems()` loads, and checks, every one.

A name that is no plugin's is offered to the problem sources, the entry-point group
"gridjudge.problem_sources": callables (name) -> Problem | None, such as the problem
package reader (pipeline.package), which takes a package folder's path. They live on
higher floors and are found here by name only, as the languages registry finds languages.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from pipeline.errors import GridjudgeError
from pipeline.problem.contract import Problem

ENTRY_POINT_GROUP = "gridjudge.problems"
SOURCE_GROUP = "gridjudge.problem_sources"


class RegistryError(GridjudgeError):
    """A plugin is broken or a name is unknown; the message is one line for the user."""


@cache  # scanning the installed distributions takes milliseconds; chunks ask often
def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


@cache
def _load(ep: EntryPoint) -> Problem:
    try:
        obj = ep.load()
    except Exception as exc:  # any import failure of a plugin is reported the same way
        raise RegistryError(
            f"problem plugin {ep.name!r} ({ep.value}) failed to load: {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(obj, Problem):
        raise RegistryError(
            f"problem plugin {ep.name!r} ({ep.value}) is a {type(obj).__name__}, not a Problem"
        )
    if obj.name != ep.name:
        raise RegistryError(f"problem plugin {ep.name!r} ({ep.value}) calls itself {obj.name!r}")
    return obj


def all_problems() -> dict[str, Problem]:
    return {name: _load(ep) for name, ep in sorted(_entry_points().items())}


@cache
def _sources() -> list[Callable[[str], Problem | None]]:
    return [ep.load() for ep in sorted(entry_points(group=SOURCE_GROUP), key=lambda e: e.name)]


def get_problem(name: str) -> Problem:
    """The plugin called `name`, else the problem a source makes of `name` (a path)."""
    eps = _entry_points()
    if name in eps:
        return _load(eps[name])
    for source in _sources():
        found = source(name)
        if found is not None:
            return found
    known = ", ".join(sorted(eps)) or "none installed"
    raise RegistryError(f"unknown problem {name!r} (known: {known}, or a problem package folder)")
