"""An interactive multi-pass interactor: pass 1 plays for the input's secret; once it is
found it asks for a second pass, whose input (nextpass.in, the next pass's input file)
is the secret + 1 (or - 1 at 1000), and keeps its pass count in the feedback dir; pass 2
plays for the secret its input file holds."""

import os
import sys

with open(sys.argv[1]) as given:
    secret = int(given.read())
feedback = sys.argv[3]
state = feedback + "pass.txt"
second = os.path.exists(state)
for _ in range(10):
    line = sys.stdin.readline()
    if not line.strip():
        sys.exit(43)
    guess = int(line)
    if guess == secret:
        print("correct", flush=True)
        if not second:
            with open(state, "w") as fh:
                fh.write("2")
            with open(feedback + "nextpass.in", "w") as fh:
                fh.write(f"{secret + 1 if secret < 1000 else secret - 1}\n")
        sys.exit(42)
    print("lower" if guess > secret else "higher", flush=True)
sys.exit(43)
