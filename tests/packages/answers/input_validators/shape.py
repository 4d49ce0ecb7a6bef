# one line of input; given any argument it rejects (so it must be given none)
import sys

lines = sys.stdin.read().splitlines()
sys.exit(42 if len(lines) == 1 and not sys.argv[1:] else 43)
