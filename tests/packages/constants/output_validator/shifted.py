import sys

SHIFT = int("{{SHIFT}}")  # the judge puts problem.yaml's constant in its place

# argv: input, answer, feedback folder, then test_group.yaml's output_validator_args
with open(sys.argv[1]) as given:
    n = int(given.read())
if sys.argv[4:] not in ([], ["five"]):
    sys.exit(1)  # neither nothing nor the substituted word: the judge's fault
try:
    got = int(sys.stdin.read())
except ValueError:
    sys.exit(43)
sys.exit(42 if got == n + SHIFT else 43)
