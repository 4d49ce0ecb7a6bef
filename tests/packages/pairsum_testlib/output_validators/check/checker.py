"""testlib convention: checker.py input output answer; 0 OK, 1 WA, 2 PE, 3 FAIL."""

import sys


def read(path):
    with open(path) as fh:
        return fh.read()


n_text, out, ans = (read(p) for p in sys.argv[1:4])
if ans.split() != n_text.split():
    sys.stderr.write("FAIL answer file does not match the input\n")
    sys.exit(3)
tokens = out.split()
if len(tokens) != 2 or not all(t.isdigit() for t in tokens):
    sys.stderr.write("wrong output format: expected two non-negative integers\n")
    sys.exit(2)
if int(tokens[0]) + int(tokens[1]) != int(n_text):
    sys.stderr.write(f"wrong answer: sum is {int(tokens[0]) + int(tokens[1])}\n")
    sys.exit(1)
sys.stderr.write("ok\n")
sys.exit(0)
