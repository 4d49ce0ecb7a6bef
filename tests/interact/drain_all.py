# interactor of the seam tests: reads everything the submission writes, then accepts
import sys

while sys.stdin.buffer.read(1 << 16):
    pass
sys.exit(42)
