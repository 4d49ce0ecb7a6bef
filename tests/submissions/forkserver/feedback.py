# A served checker-like program: reads its staged files, writes its feedback into its
# own folder (as a Kattis output validator writes judgemessage.txt into feedback_dir).
import sys

n = sys.stdin.read().split()[0]
with open("input") as staged:
    seen = staged.read().strip()
with open("judgemessage.txt", "w") as feedback:
    feedback.write(f"case {n} saw {seen}\n")
print(n)
