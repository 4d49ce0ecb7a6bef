"""Kattis protocol: validate.py input answer feedback_dir < team_output; 42 AC, 43 WA."""

import sys


def reject(why):
    with open(sys.argv[3] + "/judgemessage.txt", "w") as fh:
        fh.write(why + "\n")
    sys.exit(43)


with open(sys.argv[1]) as fh:
    n = int(fh.read())
tokens = sys.stdin.read().split()
if len(tokens) != 2 or not all(t.isdigit() for t in tokens):
    reject("expected two non-negative integers")
if int(tokens[0]) + int(tokens[1]) != n:
    reject(f"sum is {int(tokens[0]) + int(tokens[1])}, not {n}")
sys.exit(42)
