"""testlib convention (Polygon): interactor input tout, the program on stdin/stdout.
Exit 0 OK, 1 WA, 3 FAIL; what it writes to tout goes to the checker."""

import sys

with open(sys.argv[1]) as given:
    secret = int(given.read())
with open(sys.argv[2], "w") as tout:
    for guesses in range(1, 13):
        line = sys.stdin.readline()
        if not line.strip():
            sys.stderr.write("wrong answer: no guess\n")
            sys.exit(1)
        guess = int(line)
        if guess == secret:
            print("correct", flush=True)
            tout.write(f"{guess} {guesses}\n")
            sys.exit(0)
        print("lower" if guess > secret else "higher", flush=True)
    sys.stderr.write("wrong answer: 12 guesses used\n")
    sys.exit(1)
