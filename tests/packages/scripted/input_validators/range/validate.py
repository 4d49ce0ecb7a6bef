"""Two integers in [-1000, 1000] on one line: exit 42, else 43."""

import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"-?\d+ -?\d+\n", text):
    sys.exit(43)
sys.exit(42 if all(-1000 <= int(t) <= 1000 for t in text.split()) else 43)
