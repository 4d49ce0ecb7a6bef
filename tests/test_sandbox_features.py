"""Backends are values of one features record, run by one sandbox class: the name a user
gives (GRIDJUDGE_SANDBOX) picks the value, and what a run gets follows the value's
fields, not a subclass."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from pipeline.sandbox import SandboxError, make
from pipeline.sandbox.features import BACKENDS, BWRAP, FULL, UNSANDBOXED
from pipeline.sandbox.launched import LauncherSandbox


def test_only_the_full_backend_may_be_served() -> None:
    assert FULL.serves
    assert not BWRAP.serves and not UNSANDBOXED.serves
    assert not replace(FULL, view=False).serves
    assert not replace(FULL, namespaces=False).serves


@pytest.mark.parametrize("name", sorted(BACKENDS))
def test_each_backend_is_the_one_sandbox_with_its_features(name: str) -> None:
    if BACKENDS[name].bwrap and shutil.which("bwrap") is None:
        pytest.skip("bubblewrap not installed (apt-get install bubblewrap)")
    box = make(name)
    assert type(box) is LauncherSandbox
    assert box.features is BACKENDS[name] and box.name == name
    assert (box.bwrap is not None) == BACKENDS[name].bwrap


def test_a_backend_that_promises_no_isolation_is_not_refused_for_lacking_it() -> None:
    # chosen (`none`), not fallen back to: nothing to refuse
    assert not LauncherSandbox(UNSANDBOXED).unsandboxed
    # a full backend that could make no namespaces, as the judge's own user, is
    assert LauncherSandbox(replace(FULL, namespaces=False, drop_uid=False)).unsandboxed


def test_an_unknown_backend_is_one_error_naming_the_known_ones() -> None:
    with pytest.raises(SandboxError, match="known: rlimit, bwrap, none"):
        make("firejail")
