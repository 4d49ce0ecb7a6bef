"""Output checkers: plain functions (input_text, expected, actual) -> CheckResult."""

from __future__ import annotations

from typing import NamedTuple

from pipeline.schemas import Verdict


class CheckResult(NamedTuple):
    """A case's verdict, the checker's message and, where the checker gave one, the
    case's score as a fraction of its full score (1.0: as if accepted; None: by verdict,
    AC full and anything else nothing)."""

    verdict: Verdict
    message: str = ""
    score: float | None = None


def normalize(text: str) -> str:
    """The judge's normalisation: CRLF -> LF, trailing blanks of each line and trailing
    empty lines removed. An answer that is one empty line equals an empty output."""
    lines = [line.rstrip(" \t\r") for line in text.replace("\r\n", "\n").split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines)


# One shared accepted result (a NamedTuple is immutable): building one per case is a
# noticeable share of an in-process solver's time per case.
ACCEPTED = CheckResult(Verdict.AC)


def _first_difference(expected: list[str], actual: list[str], what: str) -> str:
    for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
        if e != a:
            return f"{what} {i + 1}: expected {e[:60]!r}, got {a[:60]!r}"
    if len(expected) != len(actual):
        return f"expected {len(expected)} {what}s, got {len(actual)}"
    return "outputs differ"


def token_check(input_text: str, expected: str, actual: str) -> CheckResult:
    """Whitespace-insensitive token comparison (the usual default judge checker)."""
    if actual == expected:  # the common case, without splitting
        return ACCEPTED
    want, got = expected.split(), actual.split()
    if want == got:
        return ACCEPTED
    return CheckResult(Verdict.WA, _first_difference(want, got, "token"))


def exact_text_check(input_text: str, expected: str, actual: str) -> CheckResult:
    """Exact text after normalisation; same tokens laid out differently is PE."""
    if actual == expected:  # the common case, without normalising
        return ACCEPTED
    want, got = normalize(expected), normalize(actual)
    if want == got:
        return ACCEPTED
    if want.split() == got.split():
        return CheckResult(Verdict.PE, _first_difference(want.split("\n"), got.split("\n"), "line"))
    return CheckResult(Verdict.WA, _first_difference(want.split("\n"), got.split("\n"), "line"))
