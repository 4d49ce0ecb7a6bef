# Answers the first move, then crashes.
import sys

sys.stdin.readline()
sys.stdin.readline()
print("continue", flush=True)
sys.stdin.readline()
raise SystemExit(3)
