# spotlive reference, interactive: keeps every board seen (with its rotations) and
# answers each move with `continue`, the game's result when the move decides it, or `Draw`.
import sys


def rotations(board, n):
    out = [board]
    for _ in range(3):
        board = frozenset((c, n - 1 - r) for r, c in board)
        out.append(board)
    return out


n = int(sys.stdin.readline())
board, seen = set(), set()
for move in range(1, 2 * n + 1):
    r, c, sign = sys.stdin.readline().split()
    cell = (int(r) - 1, int(c) - 1)
    if sign == "+":
        board.add(cell)
    else:
        board.discard(cell)
    now = frozenset(board)
    if now in seen:
        print(f"Player {2 if move % 2 else 1} wins on move {move}", flush=True)
        break
    seen.update(rotations(now, n))
    print("Draw" if move == 2 * n else "continue", flush=True)
