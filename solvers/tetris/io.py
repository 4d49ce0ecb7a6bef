"""tetris judge format: cases until end of file, each `N M` (N*M < 50) and N rows of M
characters `0` (free) / `1` (blocked), at most 40 zeros. Output `Yes`/`No` per case."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.problem.contract import InvalidInput

MAX_CELLS = 49  # N*M < 50
MAX_ZEROS = 40
MAX_CASES = 100_000


@dataclass(frozen=True)
class TetrisCase:
    n: int
    m: int
    rows: tuple[str, ...]

    @property
    def zeros(self) -> int:
        return sum(row.count("0") for row in self.rows)


def _int(token: str, what: str) -> int:
    if not (token.isascii() and token.isdigit()):
        raise InvalidInput(f"{what}: expected a positive integer, got {token[:20]!r}")
    return int(token)


def scan(text: str) -> tuple[list[TetrisCase], list[str]]:
    """Cases of a judge-format file and the broken rules, one message each. A structural
    error (bad size line, missing or misshapen row) ends the scan."""
    tokens = text.split()
    cases: list[TetrisCase] = []
    errors: list[str] = []
    pos = 0
    try:
        if not tokens:
            raise InvalidInput("empty input: expected at least one case")
        while pos < len(tokens):
            c = len(cases) + 1
            if pos + 2 > len(tokens):
                raise InvalidInput(f"case {c}: `N M` incomplete at the end of the input")
            n = _int(tokens[pos], f"case {c}: N")
            m = _int(tokens[pos + 1], f"case {c}: M")
            if n < 1 or m < 1 or n * m > MAX_CELLS:
                raise InvalidInput(f"case {c}: N = {n}, M = {m}: need N, M >= 1 and N*M < 50")
            pos += 2
            rows = tuple(tokens[pos : pos + n])
            if len(rows) < n:
                raise InvalidInput(f"case {c}: {n} rows expected, input ends after {len(rows)}")
            for r, row in enumerate(rows, 1):
                if len(row) != m:
                    raise InvalidInput(f"case {c}: row {r} has {len(row)} characters, not {m}")
                if row.strip("01"):
                    bad = next(ch for ch in row if ch not in "01")
                    raise InvalidInput(f"case {c}: row {r} holds {bad!r} (only 0 and 1)")
            pos += n
            case = TetrisCase(n, m, rows)
            if case.zeros > MAX_ZEROS:
                errors.append(f"case {c}: {case.zeros} zeros (at most {MAX_ZEROS})")
            cases.append(case)
            if len(cases) > MAX_CASES:
                raise InvalidInput(f"more than {MAX_CASES} cases")
    except InvalidInput as exc:
        errors.append(str(exc))
    return cases, errors


def parse(text: str) -> list[TetrisCase]:
    cases, errors = scan(text)
    if errors:
        raise InvalidInput(errors[0])
    return cases


def validate(text: str) -> list[str]:
    return scan(text)[1]


def format_output(wins: list[bool]) -> str:
    return "".join("Yes\n" if w else "No\n" for w in wins)


def format_case(case: TetrisCase) -> str:
    return f"{case.n} {case.m}\n" + "".join(row + "\n" for row in case.rows)


def join(cases: list[str]) -> str:
    return "".join(text if text.endswith("\n") else text + "\n" for text in cases)


def split(output: str, n: int) -> list[str]:
    """One token per case; missing pieces are empty, surplus goes to the last piece."""
    tokens = output.split()
    pieces = [[t] for t in tokens[:n]]
    if len(tokens) > n and pieces:
        pieces[-1].extend(tokens[n:])
    out = [" ".join(p) + "\n" for p in pieces]
    return out + [""] * (n - len(out))


def split_input(text: str) -> list[str]:
    return [format_case(case) for case in parse(text)]
