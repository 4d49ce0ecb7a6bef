# Appends to its own script, which the zygote reads again for every case: the next case
# must still run the script as submitted (it would print a second line).
import sys

n = sys.stdin.read().split()[0]
try:
    with open(__file__, "a") as script:
        script.write("\nprint('tampered')\n")
except OSError:
    pass
print(n)
