"""Times a reference piece of honest work (start an interpreter, touch 64 MB, compute a
little): `vm.sh` runs it on the host and `inside.sh` in the VM, and the ratio becomes
GRIDJUDGE_TEST_TIME_SCALE there (tests/time_scale.py). Prints the CPU seconds, the least
of a few tries (other work on the machine only ever adds)."""

from __future__ import annotations

import resource
import subprocess
import sys

WORK = (
    "b = bytearray(64 << 20)\n"
    "for i in range(0, len(b), 4096): b[i] = 1\n"
    "print(sum(i * i for i in range(300_000)))\n"
)


def cpu_seconds() -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", WORK], check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    print(f"{min(cpu_seconds() for _ in range(3)):.4f}")


if __name__ == "__main__":
    main()
