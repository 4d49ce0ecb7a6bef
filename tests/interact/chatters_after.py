# interactor of the seam tests: asks one number, reads the answer, then writes 1 MiB to
# a submission that is over by then, and rejects (43): it must get to its exit
import sys

print(3, flush=True)
sys.stdin.readline()
try:
    for _ in range(1024):
        sys.stdout.write("y" * 1023 + "\n")
    sys.stdout.flush()
except BrokenPipeError:  # not what either way of joining the two should give
    sys.exit(1)
sys.exit(43)
