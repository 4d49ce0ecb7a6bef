# The zygote's version of state.c: module globals, a module the zygote imported, the
# environment, a signal handler and files must all look fresh to every case.
import collections
import os
import signal
import sys

n = sys.stdin.read().split()[0]
stale = None
if getattr(collections, "gj_mark", None):
    stale = "attribute of an imported module"
elif "gj_state" in sys.modules:
    stale = "sys.modules"
elif os.environ.get("GJ_STATE"):
    stale = "environment variable"
elif signal.getsignal(signal.SIGUSR1) is not signal.SIG_DFL:
    stale = "signal handler"
elif os.path.exists("scratch_marker") or os.path.exists("/tmp/gj_state_marker"):
    stale = "file"
collections.gj_mark = True
sys.modules["gj_state"] = collections
os.environ["GJ_STATE"] = "1"
signal.signal(signal.SIGUSR1, lambda *_: None)
for path in ("scratch_marker", "/tmp/gj_state_marker"):
    open(path, "w").close()
print(f"stale {stale}" if stale else n)
