# Tries to leave files outside its scratch dir; the test checks none reached the host.
import os
import sys

n = sys.stdin.read().split()[0]
targets = [
    f"/tmp/gj_escape_{n}",
    f"/var/tmp/gj_escape_{n}",
    f"/dev/shm/gj_escape_{n}",
    f"../gj_escape_{n}",
    f"/root/gj_escape_{n}",
    f"/gj_escape_{n}",
    os.path.join(os.path.dirname(os.getcwd()), f"gj_escape_{n}"),
]
for path in targets:
    try:
        with open(path, "w") as fh:
            fh.write("escaped")
        print(f"wrote {path}", file=sys.stderr)
    except OSError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
with open("inside.txt", "w") as fh:  # the scratch dir itself is writable
    fh.write("fine")
print(n)
