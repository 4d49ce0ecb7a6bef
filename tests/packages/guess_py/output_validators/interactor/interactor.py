"""The interactor: the secret is the input file's number. At most 10 guesses, each
answered "lower", "higher" or "correct"; a score-free verdict by exit code, 42 or 43."""

import sys

with open(sys.argv[1]) as given:
    secret = int(given.read())
feedback = sys.argv[3]


def reject(why):
    with open(feedback + "judgemessage.txt", "w") as out:
        out.write(why)
    sys.exit(43)


for _ in range(10):
    line = sys.stdin.readline()
    if not line.strip():
        reject("no guess")
    guess = int(line)
    if guess == secret:
        print("correct", flush=True)
        sys.exit(42)
    print("lower" if guess > secret else "higher", flush=True)
reject("10 guesses used")
