# Reads the first move and never answers: the judge waits for it, it waits for the judge.
import sys
import time

sys.stdin.readline()
sys.stdin.readline()
time.sleep(60)
