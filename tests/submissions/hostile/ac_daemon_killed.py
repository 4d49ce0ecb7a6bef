# Leaves a daemon behind (new session, `sleep N`); the test checks it is gone.
import os
import sys

n = sys.stdin.read().split()[0]
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", n])
    os._exit(0)
print(n)
