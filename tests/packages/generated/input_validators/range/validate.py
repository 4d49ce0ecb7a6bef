"""Two integers 0..1000 on one line (with --small: 0..10)."""

import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"(0|[1-9][0-9]*) (0|[1-9][0-9]*)\n", text):
    sys.exit(43)
bound = 10 if "--small" in sys.argv[1:] else 1000
sys.exit(42 if all(int(x) <= bound for x in text.split()) else 43)
