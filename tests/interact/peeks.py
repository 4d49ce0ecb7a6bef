"""A hostile submission of the guessing packages: before its first guess it looks for
the interactor's files (the input file holding the secret, the answer file) and memory
wherever another process's could show: other processes in /proc (their cwd, root, open
files, memory; its own fork server aside), the shared temporary folders, the run folders
of the judge. Its first line is what it found ("found PATH" or "found nothing"), then it
guesses 1 and stops."""

import os

NAMES = {"testcase.in", "testcase.ans"}
found = []


def look(top, depth=4):
    try:
        entries = list(os.scandir(top))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.name in NAMES and entry.is_file():
                found.append(entry.path)
            elif entry.is_dir(follow_symlinks=False) and depth > 0:
                look(entry.path, depth - 1)
        except OSError:
            pass


me = os.getpid()
for pid in os.listdir("/proc"):
    if not pid.isdigit() or int(pid) in (me, 1):
        continue
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            if b"testcase" in fh.read():  # the interactor is called with testcase.in
                found.append(f"/proc/{pid} (the interactor)")
    except OSError:
        pass
    for part in ("cwd", "root/tmp", "fd"):
        look(f"/proc/{pid}/{part}", 2)
    try:
        with open(f"/proc/{pid}/mem", "rb") as mem:
            mem.read(1)
            found.append(f"/proc/{pid}/mem")
    except OSError:
        pass
for top in ("/tmp", "/dev/shm", "/var/tmp", "/run", os.path.dirname(os.getcwd())):
    look(top)
print("found " + " ".join(found) if found else "found nothing", flush=True)
print(1, flush=True)
