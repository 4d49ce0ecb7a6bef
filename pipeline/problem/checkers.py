"""Output checkers: plain functions (input_text, expected, actual) -> CheckResult. They
stream the comparison: an output of millions of tokens costs one chunk of them in memory."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
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


# Outputs are compared a chunk of about this many characters at a time: the judge holds
# one chunk's tokens per side, never a Python object per token of the whole output.
CHUNK_CHARS = 1 << 16
_SPACE = re.compile(r"\s")  # \s is str.isspace, the separators of str.split()
_LINE_CONTENT = re.compile(r"[^ \t\r\n][ \t\r\n]*\Z")


def token_chunks(text: str) -> Iterator[list[str]]:
    """The tokens of `text` (those of text.split()), a list per chunk."""
    pos, size = 0, len(text)
    while pos < size:
        cut = _SPACE.search(text, pos + CHUNK_CHARS) if pos + CHUNK_CHARS < size else None
        end = cut.start() if cut else size
        part = text[pos:end].split()
        if part:
            yield part
        pos = end


def line_chunks(text: str) -> Iterator[list[str]]:
    """The lines of normalize(text), a list per chunk, without building the normalised text."""
    last = _LINE_CONTENT.search(text)
    # normalize("") is one empty line
    remaining = text.count("\n", 0, last.start()) + 1 if last else 1
    pos = 0
    while remaining:
        cut = text.find("\n", pos + CHUNK_CHARS)
        end = len(text) if cut < 0 else cut + 1
        lines = text[pos:end].split("\n")
        if cut >= 0:
            lines.pop()  # the empty piece after the chunk's closing newline
        lines = [line.rstrip(" \t\r") for line in lines[:remaining]]
        remaining -= len(lines)
        yield lines
        pos = end


class Difference(NamedTuple):
    """Where two item streams first differ: the 0-based index `at`, the items there (None:
    that stream ended) and, where one stream ended first, how many items each holds."""

    at: int
    expected: str | None
    actual: str | None
    expected_count: int
    actual_count: int


class _Cursor:
    def __init__(self, chunks: Iterable[list[str]]) -> None:
        self.chunks = iter(chunks)
        self.items: list[str] = []
        self.at = 0

    def left(self) -> int:
        """Items left in the current chunk, after fetching the next one if it is used up."""
        while self.at == len(self.items):
            chunk = next(self.chunks, None)
            if chunk is None:
                return 0
            self.items, self.at = chunk, 0
        return len(self.items) - self.at

    def head(self) -> str | None:
        return self.items[self.at] if self.left() else None

    def count_rest(self) -> int:
        return self.left() + sum(len(chunk) for chunk in self.chunks)


def first_difference(
    expected: Iterable[list[str]],
    actual: Iterable[list[str]],
    same: Callable[[int, str, str], bool] | None = None,
) -> Difference | None:
    """The first index where the streams differ (items compared with `same(index, e, a)`,
    else ==), or None. Equal runs are compared a chunk at a time, as lists."""
    want, got = _Cursor(expected), _Cursor(actual)
    index = 0
    while True:
        n = min(want.left(), got.left())
        if n == 0:
            break
        x = want.items[want.at : want.at + n]
        y = got.items[got.at : got.at + n]
        if x != y:
            for k in range(n):
                if not (x[k] == y[k] if same is None else same(index + k, x[k], y[k])):
                    return Difference(index + k, x[k], y[k], 0, 0)
        index += n
        want.at += n
        got.at += n
    e, a = want.head(), got.head()
    if e is None and a is None:
        return None
    return Difference(index, e, a, index + want.count_rest(), index + got.count_rest())


def _message(diff: Difference, what: str) -> str:
    if diff.expected is not None and diff.actual is not None:
        e, a = diff.expected[:60], diff.actual[:60]
        return f"{what} {diff.at + 1}: expected {e!r}, got {a!r}"
    return f"expected {diff.expected_count} {what}s, got {diff.actual_count}"


def token_check(input_text: str, expected: str, actual: str) -> CheckResult:
    """Whitespace-insensitive token comparison (the usual default judge checker)."""
    if actual == expected:  # the common case, without splitting
        return ACCEPTED
    diff = first_difference(token_chunks(expected), token_chunks(actual))
    return ACCEPTED if diff is None else CheckResult(Verdict.WA, _message(diff, "token"))


def exact_text_check(input_text: str, expected: str, actual: str) -> CheckResult:
    """Exact text after normalisation; same tokens laid out differently is PE."""
    if actual == expected:  # the common case, without normalising
        return ACCEPTED
    lines = first_difference(line_chunks(expected), line_chunks(actual))
    if lines is None:
        return ACCEPTED
    tokens = first_difference(token_chunks(expected), token_chunks(actual))
    return CheckResult(Verdict.WA if tokens else Verdict.PE, _message(lines, "line"))
