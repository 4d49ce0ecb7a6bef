"""Checker protocols of a package, each in its own module with one contract
(contract.CheckerProtocol): `kattis` (output validators, the default) and `testlib`
(chosen by `gridjudge: {checker: testlib}` in problem.yaml), and on an interactive
problem their interactors (interactive.py). The default output validator
runs in the judge (pipeline.package.default_validator); a built-in problem's checker is a
Python function (pipeline.problem.checkers)."""

from __future__ import annotations

from pipeline.package.protocols.contract import CheckerProtocol
from pipeline.package.protocols.interactive import KattisInteractor, TestlibInteractor
from pipeline.package.protocols.kattis import KattisValidator
from pipeline.package.protocols.testlib import TestlibChecker


def protocol_for(
    name: str, *, scoring: bool, bounded: bool, interactive: bool = False
) -> CheckerProtocol:
    """The protocol named `name` (one of spec.PROTOCOLS), set for the package: its
    interactor's on an interactive problem."""
    if interactive:
        if name == "testlib":
            return TestlibInteractor()
        return KattisInteractor(scoring=scoring, bounded=bounded)
    made: dict[str, CheckerProtocol] = {
        "kattis": KattisValidator(scoring=scoring, bounded=bounded),
        "testlib": TestlibChecker(),
    }
    return made[name]
