# Answers `continue` to every move: wrong at the move that decides the game (or the last).
import sys

n = int(sys.stdin.readline())
for _ in range(2 * n):
    if not sys.stdin.readline():
        break
    print("continue", flush=True)
