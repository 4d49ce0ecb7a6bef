# Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
import sys

WRONG = False
NUMERALS = ["", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"]


def count(line, pat):
    return sum(line.startswith(pat, i) for i in range(len(line)))


def main():
    b = sys.stdin.read().split()[:7]
    lines = [b[r] for r in range(7)] + ["".join(b[c][r] for c in range(7)) for r in range(7)]
    for start in range(-6, 7):
        if WRONG:
            break
        lines.append("".join(b[r][r - start] for r in range(7) if 0 <= r - start < 7))
        lines.append("".join(b[r][start + 6 - r] for r in range(7) if 0 <= start + 6 - r < 7))
    dead = live4 = live3 = 0
    for line in lines:
        if len(line) < 5:
            continue
        dead += line.startswith("oooox") + line.endswith("xoooo")
        live4 += count(line, "xoooox")
        live3 += count(line, "xooox") + count(line, "xoxoox") + count(line, "xooxox")
    out = ""
    for k, name in ((dead, "死四"), (live4, "活四"), (live3, "活三")):
        if k:
            out += NUMERALS[k] + name
    sys.stdout.write(out + "\n")


main()
