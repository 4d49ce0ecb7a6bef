"""Which programs the fork server may enter (forkserver.py): an ELF started by the
dynamic loader (which honours LD_PRELOAD) that runs none of its own code in the server.

The server is the program's own process from exec to "ready" and between cases. Code of
the program that ran there could keep what the judge hands the server for a case (its
files) in memory, a shared mapping or an open file every later case is forked from, or
rewrite the serving code itself. Its code gets there three ways, each visible in the
files: `.preinit_array` (run before any library's constructor, the server's included),
IFUNC resolvers (run by the loader while it relocates), and code it exports under a
name a loaded library imports or calls through its PLT (that library's call, the
server's own included, finds the program's definition first: a C++ program that
defines `syscall` or `memcmp` exports it, since libstdc++ imports both). Its
constructors (`.init_array`) run after the server's, in each case's child. Anything
this cannot read is spawned.
"""

from __future__ import annotations

import functools
import glob
import struct
from dataclasses import dataclass
from pathlib import Path

PT_LOAD, PT_DYNAMIC, PT_INTERP = 1, 2, 3
PF_X = 1
DT_NULL, DT_NEEDED, DT_PLTRELSZ, DT_STRTAB, DT_RELA, DT_RELASZ = 0, 1, 2, 5, 7, 8
DT_JMPREL, DT_PREINIT_ARRAYSZ = 23, 33
SHT_DYNSYM = 11
STT_TLS = 6
RELA_SIZE, SYM_SIZE = 24, 24
# the relocation that calls an IFUNC resolver, by e_machine
IRELATIVE = {62: 37, 183: 1032}  # x86-64, AArch64
# the relocation of a call through the PLT
JUMP_SLOT = {62: 7, 183: 1026}
# what the loader itself looks up in the global scope once libc is loaded
LOADER_IMPORTS = frozenset({"malloc", "calloc", "realloc", "free"})
LIBRARY_DIRS = (
    *("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64"),
    *("/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib", "/usr/lib"),
)


class _Unreadable(Exception):
    pass


def why_not_served(path: Path | None, library: Path | None = None) -> str | None:
    """None when the fork server (the shared object `library`) may enter the program at
    `path`; otherwise why not, in a few words (the runner's reason)."""
    try:
        program = _Elf.read(Path(path or ""))
        if program is None:
            return "not a 64-bit ELF program"
        if not program.interpreted:
            return "statically linked"
        if program.preinit:
            return "its own code runs before main (.preinit_array)"
        if program.irelative:
            return "its own code runs while it is loaded (an IFUNC resolver)"
        exported = program.exported_code()
        if exported:
            imported = set(LOADER_IMPORTS)
            for name in (*program.needed, *([str(library)] if library else [])):
                imported |= _imports_of_library(name)
            clash = sorted(exported & imported)
            if clash:
                return f"it defines {clash[0][:40]}, which a library it loads would call"
    except OSError:
        return "not a readable program"
    except (struct.error, IndexError, ValueError, _Unreadable):
        return "an ELF file it cannot read"
    return None


@functools.cache
def _imports_of_library(name: str, depth: int = 0) -> frozenset[str]:
    """What the library `name` (a path, or a DT_NEEDED name found in the usual
    folders) and the libraries it needs import."""
    found = Path(name) if "/" in name else _find(name)
    lib = _Elf.read(found)
    if lib is None or depth > 16:
        raise _Unreadable
    names = set(lib.imported())
    for needed in lib.needed:
        names |= _imports_of_library(needed, depth + 1)
    return frozenset(names)


def _find(name: str) -> Path:
    configured = [
        line.strip()
        for conf in sorted(glob.glob("/etc/ld.so.conf.d/*.conf"))
        for line in Path(conf).read_text().splitlines()
        if line.startswith("/")
    ]
    for folder in (*configured, *LIBRARY_DIRS):
        if (Path(folder) / name).is_file():
            return Path(folder) / name
    raise _Unreadable


@dataclass
class _Elf:
    data: bytes
    order: str
    machine: int
    segments: list[tuple[int, ...]]  # p_type, p_flags, p_offset, p_vaddr, _, p_filesz, p_memsz
    sections: list[tuple[int, ...]]  # sh_name, sh_type, sh_flags, sh_addr, sh_offset, ...
    tags: dict[int, list[int]]

    @classmethod
    def read(cls, path: Path) -> _Elf | None:
        data = path.read_bytes()
        if data[:4] != b"\x7fELF" or data[4] != 2:
            return None
        order = "<" if data[5] == 1 else ">"
        header = struct.unpack_from(order + "HHIQQQIHHHHHH", data, 16)
        phoff, shoff, phentsize, phnum = header[4], header[5], header[8], header[9]
        shentsize, shnum = header[10], header[11]
        segments = [
            struct.unpack_from(order + "IIQQQQQQ", data, phoff + k * phentsize)
            for k in range(phnum)
        ]
        sections = [
            struct.unpack_from(order + "IIQQQQII", data, shoff + k * shentsize)
            for k in range(shnum)
        ]
        tags: dict[int, list[int]] = {}
        for dynamic in (s for s in segments if s[0] == PT_DYNAMIC):
            for at in range(dynamic[2], dynamic[2] + dynamic[5], 16):
                tag, value = struct.unpack_from(order + "qQ", data, at)
                if tag == DT_NULL:
                    break
                tags.setdefault(tag, []).append(value)
        return cls(data, order, header[1], segments, sections, tags)

    @property
    def interpreted(self) -> bool:
        return any(s[0] == PT_INTERP for s in self.segments)

    @property
    def preinit(self) -> bool:
        return any(self.tags.get(DT_PREINIT_ARRAYSZ, []))

    def _offset(self, vaddr: int) -> int:
        for s in self.segments:
            if s[0] == PT_LOAD and s[3] <= vaddr < s[3] + s[5]:
                return s[2] + vaddr - s[3]
        raise _Unreadable

    def _string(self, at: int) -> str:
        return self.data[at : self.data.index(b"\0", at)].decode(errors="replace")

    @property
    def needed(self) -> list[str]:
        if DT_NEEDED not in self.tags:
            return []
        strings = self._offset(self.tags[DT_STRTAB][0])
        return [self._string(strings + k) for k in self.tags[DT_NEEDED]]

    def _relocations(self) -> list[int]:
        """r_info of every relocation the loader applies to this file."""
        out = []
        for table, size in ((DT_RELA, DT_RELASZ), (DT_JMPREL, DT_PLTRELSZ)):
            for start, length in zip(
                self.tags.get(table, []), self.tags.get(size, []), strict=True
            ):
                at = self._offset(start)
                out += [
                    struct.unpack_from(self.order + "Q", self.data, k + 8)[0]
                    for k in range(at, at + length, RELA_SIZE)
                ]
        return out

    @property
    def irelative(self) -> bool:
        kind = IRELATIVE.get(self.machine)
        if kind is None:
            raise _Unreadable
        return any(info & 0xFFFFFFFF == kind for info in self._relocations())

    def _symbols(self) -> list[tuple[str, int, int, int]]:
        """(name, st_info, st_shndx, st_value) of the dynamic symbol table."""
        tables = [s for s in self.sections if s[1] == SHT_DYNSYM]
        if not tables:
            raise _Unreadable
        out = []
        for table in tables:
            strings = self.sections[table[6]][4]
            for at in range(table[4], table[4] + table[5], SYM_SIZE):
                name, info, _, shndx, value = struct.unpack_from(
                    self.order + "IBBHQ", self.data, at
                )
                out.append((self._string(strings + name), info, shndx, value))
        return out

    def exported_code(self) -> set[str]:
        """Names of the symbols this file exports that lie in its code, whatever type
        they claim (the loader binds a call to any defined symbol)."""
        code = [(s[3], s[3] + s[6]) for s in self.segments if s[0] == PT_LOAD and s[1] & PF_X]
        return {
            name
            for name, info, shndx, value in self._symbols()
            if shndx != 0
            and info & 0xF != STT_TLS
            and any(low <= value < high for low, high in code)
        }

    def imported(self) -> set[str]:
        """The names this file takes from whichever object defines them first (the
        program, when it exports one): its undefined symbols, and the functions of its
        own it calls through its PLT (libstdc++'s constructors call two such). Not the
        addresses it only stores (a vtable's entries, GLOB_DAT): every C++ program that
        writes `endl` exports an inline `std::ctype<char>::do_widen`, which libstdc++'s
        vtable then holds and none of its constructors calls."""
        kind = JUMP_SLOT.get(self.machine)
        if kind is None:
            raise _Unreadable
        symbols = self._symbols()
        names = {name for name, _, shndx, _ in symbols if shndx == 0}
        names |= {
            symbols[info >> 32][0] for info in self._relocations() if info & 0xFFFFFFFF == kind
        }
        return names - {""}
