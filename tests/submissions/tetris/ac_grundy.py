# Tetris (2x2 squares) in Python: the free cells split into independent parts (cells
# linked by a common square); each part's Grundy value is memoised; XOR decides.
import sys
from functools import cache

SQUARES = ()


def parts(free):
    """Independent sub-positions of `free`: unions of squares that overlap."""
    usable = [sq for sq in SQUARES if free & sq == sq]
    groups = []
    for sq in usable:
        merged = sq
        rest = []
        for g in groups:
            if g & merged:
                merged |= g
            else:
                rest.append(g)
        groups = [*rest, merged]
    return groups


@cache
def grundy(free):
    seen = set()
    for sq in SQUARES:
        if free & sq == sq:
            value = 0
            for part in parts(free & ~sq):
                value ^= grundy(part)
            seen.add(value)
    g = 0
    while g in seen:
        g += 1
    return g


def solve(n, m, rows):
    global SQUARES
    free = 0
    for r in range(n):
        for c in range(m):
            if rows[r][c] == "0":
                free |= 1 << (r * m + c)
    SQUARES = tuple(
        (1 << (r * m + c))
        | (1 << (r * m + c + 1))
        | (1 << ((r + 1) * m + c))
        | (1 << ((r + 1) * m + c + 1))
        for r in range(n - 1)
        for c in range(m - 1)
    )
    grundy.cache_clear()
    value = 0
    for part in parts(free):
        value ^= grundy(part)
    return "Yes" if value else "No"


def main():
    data = sys.stdin.read().split()
    pos, out = 0, []
    while pos + 1 < len(data):
        n, m = int(data[pos]), int(data[pos + 1])
        out.append(solve(n, m, data[pos + 2 : pos + 2 + n]))
        pos += 2 + n
    print("\n".join(out))


main()
