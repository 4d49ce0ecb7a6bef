"""An interactor that crashes on the secret 1000 (and plays fair otherwise)."""

import sys

with open(sys.argv[1]) as given:
    secret = int(given.read())
if secret == 1000:
    raise RuntimeError("interactor bug")
for _ in range(10):
    guess = int(sys.stdin.readline())
    if guess == secret:
        print("correct", flush=True)
        sys.exit(42)
    print("lower" if guess > secret else "higher", flush=True)
sys.exit(43)
