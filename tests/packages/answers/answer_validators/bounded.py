# `bounded.py testcase.in [answer_validator_args] < testcase.ans`: one integer in
# [0, a + b]; given `--exact`, a + b itself. Any other argument (the output validator's,
# which BAPCtools does not give it) is rejected.
import sys

with open(sys.argv[1]) as f:
    a, b = map(int, f.read().split())
args = sys.argv[2:]
words = sys.stdin.read().split()
ok = len(words) == 1 and words[0].lstrip("-").isdigit() and 0 <= int(words[0]) <= a + b
if "--exact" in args:
    ok = ok and int(words[0]) == a + b
sys.exit(42 if ok and set(args) <= {"--exact"} else 43)
