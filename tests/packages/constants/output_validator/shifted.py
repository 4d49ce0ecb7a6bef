import sys

# argv: input, answer, feedback folder, then test_group.yaml's output_validator_args
n = int(open(sys.argv[1]).read())
args = sys.argv[4:]
if args not in ([], ["five"]):
    sys.exit(1)  # neither nothing nor the substituted word: the judge's fault
try:
    got = int(sys.stdin.read())
except ValueError:
    sys.exit(43)
sys.exit(42 if got == n + {{SHIFT}} else 43)
