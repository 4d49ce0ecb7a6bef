# interactor of the seam tests: asks one number, reads the answer, waits for the end of
# its input (the submission is over by then, whatever the machine's load: reading the
# answer alone can come before the submission's end), then writes 1 MiB to it and
# rejects (43): it must get to its exit
import sys

print(3, flush=True)
sys.stdin.readline()
sys.stdin.read()
try:
    for _ in range(1024):
        sys.stdout.write("y" * 1023 + "\n")
    sys.stdout.flush()
except BrokenPipeError:  # not what either way of joining the two should give
    sys.exit(1)
sys.exit(43)
