"""One integer in 1..1000 on one line."""

import sys

text = sys.stdin.read()
if not text.endswith("\n") or not text.strip().isdigit() or not 1 <= int(text) <= 1000:
    print("expected one integer in 1..1000", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
