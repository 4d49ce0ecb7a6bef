# Spot, deliberately wrong: counts the empty starting board as produced.
import sys


def rotations(cells, n):
    out = [cells]
    for _ in range(3):
        cells = frozenset((c, n - 1 - r) for r, c in cells)
        out.append(cells)
    return out


def play(n, moves, count_empty):
    seen = set(rotations(frozenset(), n)) if count_empty else set()
    board = set()
    for i, (r, c, sign) in enumerate(moves, 1):
        if sign == "+":
            board.add((r - 1, c - 1))
        else:
            board.discard((r - 1, c - 1))
        now = frozenset(board)
        if now in seen:
            return f"Player {2 if i % 2 else 1} wins on move {i}"
        seen.update(rotations(now, n))
    return "Draw"


def main(count_empty=False):
    tokens = sys.stdin.read().split()
    pos, out = 0, []
    while pos < len(tokens):
        n = int(tokens[pos])
        pos += 1
        if n == 0:
            break
        moves = []
        for _ in range(2 * n):
            moves.append((int(tokens[pos]), int(tokens[pos + 1]), tokens[pos + 2]))
            pos += 3
        out.append(play(n, moves, count_empty))
    print("\n".join(out))


main(count_empty=True)  # wrong: the empty starting board counts as seen
