"""Two integers 0..1000 on one line."""

import re
import sys

text = sys.stdin.read()
ok = re.fullmatch(r"(\d+) (\d+)\n", text) and all(int(v) <= 1000 for v in text.split())
sys.exit(42 if ok else 43)
