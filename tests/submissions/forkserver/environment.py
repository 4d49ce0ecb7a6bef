# Sees what the judge gave the zygote to start it (its control variable), if it is still
# in the program's environment; a spawned run of the same program sees none of it. Prints
# N when its environment holds none of it, and writes that environment to stderr, for
# the test to compare with a spawned run's.
import os
import sys

n = int(input())
seen = [k for k in os.environ if k.startswith(("LD_", "GRIDJUDGE_"))]
for key, value in os.environ.items():
    print(f"{key}={value}", file=sys.stderr)
print(f"judge variable {seen[0]}" if seen else n)
