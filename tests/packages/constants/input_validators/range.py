import sys

LIMIT = int("{{LIMIT}}")  # the judge puts problem.yaml's constant in its place

text = sys.stdin.read()
try:
    n = int(text)
except ValueError:
    sys.exit(43)
sys.exit(42 if text == f"{n}\n" and 0 <= n <= LIMIT else 43)
