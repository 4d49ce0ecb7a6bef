# `bounded.py testcase.in [flags] < testcase.ans`: one integer in [0, a + b]
import sys

with open(sys.argv[1]) as f:
    a, b = map(int, f.read().split())
words = sys.stdin.read().split()
ok = len(words) == 1 and words[0].lstrip("-").isdigit() and 0 <= int(words[0]) <= a + b
sys.exit(42 if ok else 43)
