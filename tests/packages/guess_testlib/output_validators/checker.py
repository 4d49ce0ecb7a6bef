"""testlib convention: checker input tout answer (tout: what the interactor wrote).
The number found must be the answer's secret, in at most 10 guesses: a tighter bound than
the interactor's 12, so that only this checker rejects an 11th or 12th guess."""

import sys

with open(sys.argv[2]) as fh:
    found, guesses = (int(w) for w in fh.read().split())
with open(sys.argv[3]) as fh:
    secret = int(fh.read().split()[1])
if found != secret:
    sys.stderr.write(f"FAIL interactor found {found}, answer says {secret}\n")
    sys.exit(3)
if guesses > 10:
    sys.stderr.write(f"wrong answer: {guesses} guesses\n")
    sys.exit(1)
sys.exit(0)
