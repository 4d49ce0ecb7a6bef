# Clocks, deliberately slow: breadth-first over move SEQUENCES (not multisets), so it
# only finishes when the answer is short.
import sys
from collections import deque

MOVES = ["ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"]
start = tuple(int(t) // 3 % 4 for t in sys.stdin.read().split()[:9])
queue = deque([(start, ())])
while queue:
    state, path = queue.popleft()
    if not any(state):
        print(" ".join(str(m) for m in sorted(path)))
        break
    for m, letters in enumerate(MOVES, 1):
        nxt = list(state)
        for ch in letters:
            nxt[ord(ch) - 65] = (nxt[ord(ch) - 65] + 1) % 4
        queue.append((tuple(nxt), (*path, m)))
