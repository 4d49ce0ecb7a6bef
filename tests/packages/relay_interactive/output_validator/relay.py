"""The interactive relay: the interactor reads `p v` from its input file (the pass's
input, nextpass.in of the pass before), tells the submission, which must answer v + p;
it writes `p+1 v+p` as the next pass's input while p < 3, and on pass 3 compares with
the answer file. Its judge message grows pass by pass: the feedback folder is kept."""

import sys

input_path, answer_path, feedback = sys.argv[1:4]
with open(input_path) as fh:
    p, v = map(int, fh.read().split())
print(p, v, flush=True)
said = sys.stdin.readline().split()
with open(feedback + "judgemessage.txt", "a") as log:
    if said != [str(v + p)]:
        log.write(f"pass {p}: wanted {v + p}, got {' '.join(said)[:40]}\n")
        sys.exit(43)
    log.write(f"pass {p} ok; ")
if p < 3:
    with open(feedback + "nextpass.in", "w") as nxt:
        nxt.write(f"{p + 1} {v + p}\n")
    sys.exit(42)
with open(answer_path) as fh:
    sys.exit(42 if int(fh.read()) == v + p else 43)
