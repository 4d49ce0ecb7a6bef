# interactor of the seam tests: sends each number of its input file, expects it doubled
import sys

with open(sys.argv[1]) as given:
    numbers = given.read().split()
for n in numbers:
    print(n, flush=True)
    got = sys.stdin.readline()
    if got.strip() != str(2 * int(n)):
        print(f"wanted {2 * int(n)}, got {got.strip()!r}", file=sys.stderr)
        sys.exit(43)
sys.exit(42)
