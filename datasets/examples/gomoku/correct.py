"""gomoku, accepted (Python): count live fours, live threes and edge-blocked dead fours
over every row, column and diagonal of length >= 5 of the 7x7 board."""

import sys

NUMERALS = ["", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"]
LIVE_THREES = ("xooox", "xoxoox", "xooxox")


def lines(board: list[str]) -> list[str]:
    n = len(board)
    out = list(board)
    out += ["".join(board[r][c] for r in range(n)) for c in range(n)]
    for d in range(-(n - 5), n - 4):  # diagonals of length >= 5, both directions
        out.append("".join(board[r][r - d] for r in range(n) if 0 <= r - d < n))
        out.append("".join(board[r][n - 1 - r + d] for r in range(n) if 0 <= n - 1 - r + d < n))
    return out


def main() -> None:
    board = sys.stdin.read().split()[:7]
    dead = live4 = live3 = 0
    for line in lines(board):
        dead += line.startswith("oooox") or line.endswith("xoooo")
        live4 += line.count("xoooox")
        live3 += sum(line.count(p) for p in LIVE_THREES)
    parts = [
        NUMERALS[n] + name
        for n, name in ((dead, "死四"), (live4, "活四"), (live3, "活三"))
        if n > 0
    ]
    sys.stdout.write("".join(parts) + "\n")


if __name__ == "__main__":
    main()
