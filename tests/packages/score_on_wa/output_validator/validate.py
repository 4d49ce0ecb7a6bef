# a validator that writes its score before it judges: score.txt on a WA too, which
# problemtools counts as a judge error (a real submission's wrong output gets one)
import sys

with open(sys.argv[2]) as f:
    answer = f.read().split()
feedback = sys.argv[3]
team = sys.stdin.buffer.read().decode("utf-8", "replace").split()
right = team == answer
with open(feedback + "/score.txt", "w") as f:
    f.write("1\n" if right else "0\n")
sys.exit(42 if right else 43)
