"""Three passes: each pass's input is a number y (the validator's input file is the
pass's input, as the submission's stdin is), the submission must print 2y. The pass
number is kept in the feedback dir (it persists from pass to pass); passes 1 and 2 write
the next pass's input, pass 3 compares with the answer file (x times 8). The next pass's
input is the number after 100 kB of spaces: a nextpass.in cut short (at a message's
cap) is no number."""

import sys

input_path, answer_path, feedback = sys.argv[1:4]
state = feedback + "pass.txt"
try:
    with open(state) as fh:
        number = int(fh.read())
except FileNotFoundError:
    number = 1
with open(input_path) as fh:
    given = int(fh.read())
expected = given * 2
out = sys.stdin.read().split()
with open(feedback + "judgemessage.txt", "a") as log:
    if out != [str(expected)]:
        log.write(f"pass {number}: wanted {expected}, got {' '.join(out)[:50]}\n")
        sys.exit(43)
    log.write(f"pass {number} ok\n")
if number < 3:
    with open(feedback + "nextpass.in", "w") as nxt:
        nxt.write(" " * 100_000 + f"{expected}\n")
    with open(state, "w") as fh:
        fh.write(str(number + 1))
    sys.exit(42)
with open(answer_path) as fh:
    sys.exit(42 if int(fh.read()) == expected else 43)
