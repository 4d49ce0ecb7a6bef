"""A pass's input is `p v` (pass p, value v): the submission must print v + p. The
validator learns the pass from its input file (the pass's input, nextpass.in of the
pass before), writes `p+1 v+p` as the next pass's input while p < 3, and on pass 3
compares with the answer file. Its judge message grows pass by pass: the feedback
folder is kept between passes."""

import sys

input_path, answer_path, feedback = sys.argv[1:4]
with open(input_path) as fh:
    p, v = map(int, fh.read().split())
out = sys.stdin.read().split()
with open(feedback + "judgemessage.txt", "a") as log:
    if out != [str(v + p)]:
        log.write(f"pass {p}: wanted {v + p}, got {' '.join(out)[:40]}\n")
        sys.exit(43)
    log.write(f"pass {p} ok; ")
if p < 3:
    with open(feedback + "nextpass.in", "w") as nxt:
        nxt.write(f"{p + 1} {v + p}\n")
    sys.exit(42)
with open(answer_path) as fh:
    sys.exit(42 if int(fh.read()) == v + p else 43)
