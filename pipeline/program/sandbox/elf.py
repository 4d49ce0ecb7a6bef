"""Which programs the fork server can enter: an ELF with a dynamic loader, which honours
LD_PRELOAD (forkserver.py); a statically linked one is spawned."""

from __future__ import annotations

from pathlib import Path
from typing import Literal


def dynamically_linked(path: Path | None) -> bool:
    """Whether `path` is an ELF program with an interpreter (the dynamic loader, which
    honours LD_PRELOAD); False for anything else or anything unreadable."""
    try:
        with open(path or "", "rb") as fh:
            head = fh.read(64)
            if head[:4] != b"\x7fELF" or head[4] != 2:  # 64-bit ELF
                return False
            order: Literal["little", "big"] = "little" if head[5] == 1 else "big"
            phoff = int.from_bytes(head[32:40], order)
            phentsize = int.from_bytes(head[54:56], order)
            phnum = int.from_bytes(head[56:58], order)
            fh.seek(phoff)
            table = fh.read(phentsize * phnum)
    except OSError:
        return False
    pt_interp = 3
    return any(
        int.from_bytes(table[i : i + 4], order) == pt_interp
        for i in range(0, len(table), phentsize)
    )
