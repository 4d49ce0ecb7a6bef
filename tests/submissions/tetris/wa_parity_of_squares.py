# Tetris, deliberately wrong: "Yes" iff the number of free 2x2 squares is odd.
import sys

data = sys.stdin.read().split()
pos, out = 0, []
while pos + 1 < len(data):
    n, m = int(data[pos]), int(data[pos + 1])
    rows = data[pos + 2 : pos + 2 + n]
    pos += 2 + n
    squares = sum(
        rows[r][c] == rows[r][c + 1] == rows[r + 1][c] == rows[r + 1][c + 1] == "0"
        for r in range(n - 1)
        for c in range(m - 1)
    )
    out.append("Yes" if squares % 2 else "No")
print("\n".join(out))
