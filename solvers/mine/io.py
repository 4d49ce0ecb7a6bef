"""mine judge format: `T`, then per case `N M K` and K lines `X Y` (0-based mines).

Output: one line per case, `Case #x: Xiemao` (first player wins) or `Case #x: Fanglaoshi`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from pipeline.problem.contract import InvalidInput
from solvers.mine.tokens import int_tokens

MAX_CASES = 50
MAX_SIDE = 1000
FIRST, SECOND = "Xiemao", "Fanglaoshi"


@dataclass(frozen=True)
class MineCase:
    n: int
    m: int
    xs: np.ndarray  # int64 row of each mine, in input order
    ys: np.ndarray  # int64 column of each mine

    @property
    def k(self) -> int:
        return int(self.xs.size)

    def grid(self) -> np.ndarray:
        """Boolean N x M board, True on mines (ranges must have been checked)."""
        board = np.zeros((self.n, self.m), dtype=bool)
        board[self.xs, self.ys] = True
        return board


def read_cases(text: str) -> list[MineCase]:
    """The cases of a judge-format file; checks structure and sizes, not mine positions."""
    tok = int_tokens(text)
    if tok.size == 0:
        raise InvalidInput("empty input: expected T")
    t = int(tok[0])
    if not 1 <= t <= MAX_CASES:
        raise InvalidInput(f"T = {t} out of range 1..{MAX_CASES}")
    cases: list[MineCase] = []
    pos = 1
    for c in range(1, t + 1):
        if pos + 3 > tok.size:
            raise InvalidInput(f"case {c}: missing `N M K` (input ends after {c - 1} cases)")
        n, m, k = (int(v) for v in tok[pos : pos + 3])
        if not (1 <= n <= MAX_SIDE and 1 <= m <= MAX_SIDE):
            raise InvalidInput(f"case {c}: N = {n}, M = {m}: each must be in 1..{MAX_SIDE}")
        if not 0 <= k <= n * m:
            raise InvalidInput(f"case {c}: K = {k} out of range 0..N*M = {n * m}")
        pos += 3
        if pos + 2 * k > tok.size:
            got = (tok.size - pos) // 2
            raise InvalidInput(f"case {c}: K = {k} but only {got} mine lines follow")
        pairs = tok[pos : pos + 2 * k].reshape(k, 2)
        cases.append(MineCase(n, m, pairs[:, 0].copy(), pairs[:, 1].copy()))
        pos += 2 * k
    if pos != tok.size:
        raise InvalidInput(f"{tok.size - pos} extra numbers after the last case")
    return cases


def range_errors(cases: list[MineCase]) -> list[str]:
    """One message per case whose mines leave the board."""
    errors = []
    for c, case in enumerate(cases, 1):
        bad = (case.xs < 0) | (case.xs >= case.n) | (case.ys < 0) | (case.ys >= case.m)
        if bad.any():
            i = int(np.argmax(bad))
            more = int(bad.sum()) - 1
            tail = f" (and {more} more)" if more else ""
            errors.append(
                f"case {c}: mine {i + 1} at ({case.xs[i]},{case.ys[i]}) is outside the "
                f"{case.n}x{case.m} board{tail}"
            )
    return errors


def parse(text: str) -> list[MineCase]:
    cases = read_cases(text)
    errors = range_errors(cases)
    if errors:
        raise InvalidInput(errors[0])
    return cases


def format_output(wins: list[bool]) -> str:
    return "".join(f"Case #{i}: {FIRST if w else SECOND}\n" for i, w in enumerate(wins, 1))


def format_case(case: MineCase) -> str:
    """A one-case input file for `case`."""
    head = f"1\n{case.n} {case.m} {case.k}\n"
    if case.k == 0:
        return head
    return head + "\n".join(map("{} {}".format, case.xs.tolist(), case.ys.tolist())) + "\n"


def join(cases: list[str]) -> str:
    """One-case (or few-case) inputs -> one file whose T is the total number of cases."""
    total = 0
    bodies = []
    for text in cases:
        head, _, body = text.lstrip().partition("\n")
        parts = head.split(None, 1)
        if not parts or not parts[0].isdigit():
            raise InvalidInput("a mine input must start with T")
        total += int(parts[0])
        rest = (parts[1] + "\n" if len(parts) > 1 else "") + body
        bodies.append(rest if rest.endswith("\n") or not rest else rest + "\n")
    if total > MAX_CASES:
        raise InvalidInput(f"{total} cases cannot share one file (T <= {MAX_CASES})")
    return f"{total}\n" + "".join(bodies)


_CASE_TOKEN = re.compile(r"#(\d+):")


def split(output: str, n: int) -> list[str]:
    """A joined run's output -> n one-case outputs, each renumbered `Case #1:`.

    Pieces start at each `Case` token. A number that is not the expected one is left as
    is (so the piece mismatches); missing pieces are empty, surplus goes to the last."""
    tokens = output.split()
    starts = [i for i, tok in enumerate(tokens) if tok == "Case"]
    if not starts or starts[0] != 0:
        starts = [0, *starts]
    pieces = [tokens[a:b] for a, b in zip(starts, [*starts[1:], len(tokens)], strict=True)]
    if len(pieces) > n:
        pieces = [*pieces[: n - 1], [t for p in pieces[n - 1 :] for t in p]]
    out = []
    for i, piece in enumerate(pieces):
        if len(piece) >= 2 and piece[0] == "Case" and piece[1] == f"#{i + 1}:":
            piece = ["Case", "#1:", *piece[2:]]
        out.append(" ".join(piece) + "\n" if piece else "")
    return out + [""] * (n - len(out))


def split_input(text: str) -> list[str]:
    """A multi-case input file -> one-case input files (T = 1 each)."""
    return [format_case(case) for case in read_cases(text)]
