"""One positive integer below 1000 on one line."""

import sys

text = sys.stdin.read()
ok = text.endswith("\n") and text.strip().isdigit() and 1 <= int(text) < 1000
sys.exit(42 if ok else 43)
