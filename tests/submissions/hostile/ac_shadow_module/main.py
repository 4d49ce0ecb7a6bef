# A folder submission holding random.py, a module the Python zygote imports itself: the
# zygote must not import it from the scratch dir (it would run outside any case's
# limits). Prints N unless it finds the mark random.py leaves when it runs.
import os
import sys

if __name__ == "__main__":
    n = sys.stdin.read().split()[0]
    print("random.py ran outside the case" if os.path.exists("/tmp/gj_shadow_ran") else n)
