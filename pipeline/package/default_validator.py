"""The default output validator of the Kattis / ICPC problem package format, written
from the format's description: the team's output is compared with the answer file
token by token (tokens are separated by whitespace), with these flags:

    case_sensitive              tokens compare case-sensitively (default: insensitively)
    space_change_sensitive      the whitespace between tokens must be the same as well
    float_absolute_tolerance e  a number within e of the answer's number is accepted
    float_relative_tolerance e  ... or within e x |the answer's number|
    float_tolerance e           both of the above

A tolerance applies where the answer's token is a number; the team's token must then be
a number too. Pure code: no I/O.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from pipeline.problem.checkers import (
    ACCEPTED,
    CHUNK_CHARS,
    CheckResult,
    first_difference,
    token_chunks,
)
from pipeline.schemas import Verdict

_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|infinity|nan)", re.I)
_SPACES = re.compile(r"(\s+)")
SHOWN = 60


@dataclass(frozen=True)
class Options:
    case_sensitive: bool = False
    space_change_sensitive: bool = False
    absolute: float | None = None
    relative: float | None = None

    @property
    def numeric(self) -> bool:
        return self.absolute is not None or self.relative is not None


def parse_flags(flags: tuple[str, ...] | list[str]) -> Options:
    """Options from validator flags; ValueError names an unknown flag or a bad value."""
    out: dict[str, object] = {}
    words = list(flags)
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("case_sensitive", "space_change_sensitive"):
            out[word] = True
            i += 1
            continue
        if word not in ("float_tolerance", "float_absolute_tolerance", "float_relative_tolerance"):
            raise ValueError(f"unknown default validator flag {word!r}")
        if i + 1 >= len(words) or not _NUMBER.fullmatch(words[i + 1]):
            raise ValueError(f"{word} needs a number")
        value = float(words[i + 1])
        if word != "float_relative_tolerance":
            out["absolute"] = value
        if word != "float_absolute_tolerance":
            out["relative"] = value
        i += 2
    return Options(**out)  # type: ignore[arg-type]


def _number(token: str) -> float | None:
    return float(token) if _NUMBER.fullmatch(token) else None


def _close(want: float, got: float, options: Options) -> bool:
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if want == got:
        return True
    error = abs(want - got)
    if options.absolute is not None and error <= options.absolute:
        return True
    return options.relative is not None and error <= options.relative * abs(want)


def _same_token(want: str, got: str, options: Options) -> bool:
    if options.numeric:
        number = _number(want)
        if number is not None:
            mine = _number(got)
            return mine is not None and _close(number, mine, options)
    return want == got if options.case_sensitive else want.casefold() == got.casefold()


def _cut(text: str) -> str:
    return repr(text[:SHOWN])


def _space_chunks(text: str) -> Iterator[list[str]]:
    """The pieces of re.split(r"(\\s+)", text) (tokens and the whitespace runs between
    them, alternating, a token first), a list per chunk: each chunk but the last ends
    with a whole whitespace run, whose empty token after it the next chunk begins."""
    pos, size = 0, len(text)
    while True:
        cut = _SPACES.search(text, pos + CHUNK_CHARS) if pos + CHUNK_CHARS < size else None
        if cut is None or cut.end() == size:
            yield _SPACES.split(text[pos:])
            return
        pieces = _SPACES.split(text[pos : cut.end()])
        pieces.pop()  # the empty token after the closing run: the next chunk's first
        yield pieces
        pos = cut.end()


def compare(expected: str, actual: str, options: Options) -> CheckResult:
    """AC, or WA naming the first difference (streamed: a chunk of tokens at a time)."""
    spaced = options.space_change_sensitive

    def same(i: int, want: str, got: str) -> bool:
        if spaced and i % 2 == 1:
            return want == got
        return _same_token(want, got, options)

    chunks = _space_chunks if spaced else token_chunks
    diff = first_difference(chunks(expected), chunks(actual), same)
    if diff is None:
        return ACCEPTED
    w, g = diff.expected, diff.actual
    if w is not None and g is not None:
        what = "whitespace" if spaced and diff.at % 2 == 1 else "token"
        return CheckResult(Verdict.WA, f"{what} {diff.at + 1}: expected {_cut(w)}, got {_cut(g)}")
    if g is not None:
        return CheckResult(Verdict.WA, f"extra output after the answer: {_cut(g)}")
    return CheckResult(Verdict.WA, f"output ends early: expected {_cut(w or '')}")
