"""The registry finds plugins by entry point and fails loudly, naming a broken one."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

from pipeline.problem import registry
from pipeline.problem.registry import RegistryError


@pytest.fixture
def fake_entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    eps: list[EntryPoint] = []
    monkeypatch.setattr(registry, "entry_points", lambda group: eps)
    registry._load.cache_clear()
    registry._entry_points.cache_clear()
    yield eps
    registry._load.cache_clear()
    registry._entry_points.cache_clear()


def test_broken_plugin_is_named(fake_entry_points: list[EntryPoint]) -> None:
    fake_entry_points.append(
        EntryPoint("ghost", "no_such_module_xyz:PROBLEM", registry.ENTRY_POINT_GROUP)
    )
    with pytest.raises(RegistryError, match=r"problem plugin 'ghost' .* failed to load"):
        registry.all_problems()


def test_plugin_that_is_not_a_problem(fake_entry_points: list[EntryPoint]) -> None:
    fake_entry_points.append(EntryPoint("odd", "os:sep", registry.ENTRY_POINT_GROUP))
    with pytest.raises(RegistryError, match="is a str, not a Problem"):
        registry.all_problems()


def test_unknown_problem(fake_entry_points: list[EntryPoint]) -> None:
    with pytest.raises(RegistryError, match="unknown problem 'nope'"):
        registry.get_problem("nope")


def test_installed_problems_pass_self_test() -> None:
    from pipeline.problem.contract import self_test

    problems = registry.all_problems()
    assert problems, "no problem plugin is installed"
    for problem in problems.values():
        assert self_test(problem, seed=7, per_family=2) == []


def test_get_problem_loads_only_the_plugin_asked_for(
    fake_entry_points: list[EntryPoint],
) -> None:
    fake_entry_points.append(EntryPoint("spot", "solvers.spot:PROBLEM", registry.ENTRY_POINT_GROUP))
    fake_entry_points.append(
        EntryPoint("ghost", "no_such_module_xyz:PROBLEM", registry.ENTRY_POINT_GROUP)
    )
    assert registry.get_problem("spot").name == "spot"  # the broken one is not touched
    with pytest.raises(RegistryError, match=r"problem plugin 'ghost' .* failed to load"):
        registry.get_problem("ghost")
