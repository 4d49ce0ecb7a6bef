# interactor of the seam tests: writes without end to the submission (a judge's bug)
import sys

line = b"9" * 4095 + b"\n"
while True:
    sys.stdout.buffer.write(line)
