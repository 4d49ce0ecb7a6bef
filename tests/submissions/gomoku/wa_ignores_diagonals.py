# Gomoku, deliberately wrong: only rows and columns are scanned.
import sys

NUMERALS = ["", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"]


def lines(board, skip_diagonals=False):
    n = 7
    out = ["".join(row) for row in board]
    out += ["".join(board[r][c] for r in range(n)) for c in range(n)]
    if skip_diagonals:
        return out
    for start in range(-(n - 1), n):
        down = [board[r][r - start] for r in range(n) if 0 <= r - start < n]
        anti = [board[r][start + (n - 1) - r] for r in range(n) if 0 <= start + (n - 1) - r < n]
        out += ["".join(down), "".join(anti)]
    return [line for line in out if len(line) >= 5]


def count(line, pattern):
    return sum(line.startswith(pattern, i) for i in range(len(line)))


def answer(board, skip_diagonals=False):
    dead = live4 = live3 = 0
    for line in lines(board, skip_diagonals):
        dead += line.startswith("oooox") + line.endswith("xoooo")
        live4 += count(line, "xoooox")
        live3 += count(line, "xooox") + count(line, "xoxoox") + count(line, "xooxox")
    parts = []
    for k, name in ((dead, "死四"), (live4, "活四"), (live3, "活三")):
        if k:
            parts.append(NUMERALS[k] + name)
    return "".join(parts)


def main(skip_diagonals=False):
    board = [list(row) for row in sys.stdin.read().split()[:7]]
    sys.stdout.write(answer(board, skip_diagonals) + "\n")


main(skip_diagonals=True)  # wrong: diagonals are never scanned
