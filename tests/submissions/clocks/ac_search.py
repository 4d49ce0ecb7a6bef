# Clocks by stdin/stdout (no clocks.out written: the runner takes stdout). Choose how
# often moves 1-3 are used; the remaining moves are then forced clock by clock.
import itertools
import sys

MOVES = ["ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"]
EFFECT = [[ord(ch) - 65 for ch in m] for m in MOVES]
# (clock, move): once the moves before it are fixed, this clock decides this move
FORCED = [(0, 3), (1, 4), (2, 5), (3, 6), (6, 7), (4, 8)]

values = [int(t) // 3 % 4 for t in sys.stdin.read().split()[:9]]
for first in itertools.product(range(4), repeat=3):
    counts = [*first, 0, 0, 0, 0, 0, 0]
    state = values[:]
    for move in range(3):
        for i in EFFECT[move]:
            state[i] += counts[move]
    for clock, move in FORCED:
        counts[move] = -state[clock] % 4
        for i in EFFECT[move]:
            state[i] += counts[move]
    if all(s % 4 == 0 for s in state):
        print(" ".join(str(m + 1) for m in range(9) for _ in range(counts[m])))
        break
