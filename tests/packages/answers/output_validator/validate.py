# the team's integer equals the answer's; with `space_change_sensitive` (an answer read
# as an output, strictly) it must also be written as one plain number and a newline
import sys

with open(sys.argv[2]) as f:
    answer = int(f.read().split()[0])
team = sys.stdin.read()
words = team.split()
right = (
    len(words) == 1
    and words[0].lstrip("-").isdigit()
    and len(words[0]) < 20
    and int(words[0]) == answer
)
if "space_change_sensitive" in sys.argv[4:]:
    right = right and team == f"{answer}\n"
sys.exit(42 if right else 43)
