# Clocks, deliberately slow: iterative deepening over move SEQUENCES (not multisets), so
# it only finishes when the answer is short (9**depth paths). It keeps one path in memory:
# a breadth-first queue reached the 256 MB limit before the 1 s one on a fast machine.
import sys

MOVES = ["ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"]
CELLS = [[ord(ch) - 65 for ch in letters] for letters in MOVES]


def search(state: list[int], path: list[int], depth: int) -> list[int] | None:
    if not any(state):
        return path
    if depth == 0:
        return None
    for move, cells in enumerate(CELLS, 1):
        for c in cells:
            state[c] = (state[c] + 1) % 4
        found = search(state, [*path, move], depth - 1)
        for c in cells:
            state[c] = (state[c] - 1) % 4
        if found is not None:
            return found
    return None


start = [int(t) // 3 % 4 for t in sys.stdin.read().split()[:9]]
depth = 0
while (answer := search(start, [], depth)) is None:
    depth += 1
print(" ".join(str(m) for m in sorted(answer)))
