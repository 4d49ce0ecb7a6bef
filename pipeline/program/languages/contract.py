"""What a language plugin declares: how its sources are staged, compiled (in the sandbox)
and run, which toolchain it needs, how the memory limit reaches its runtime, and the
three programs of its self-test.

Command templates are argv tuples. In an element, `{sources}` alone expands to every
source file name, `{main}` is the main source, `{entry}` what the build found to start
(a JVM class), `{memory_mb}` the run's memory limit. `sh -c` scripts get the names
already shell-safe (see `SAFE_NAME`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

# file names a submission's sources may keep (else they are renamed main<ext>)
SAFE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$")
ELF_MAGIC = b"\x7fELF"
# the rule that picks a build's entry point (main_source, a JVM finisher's class): part
# of every build's cache key, so that a build made under an earlier rule is made again
ENTRY_RULE = "entry: mainfile rule of problemtools and BAPCtools"


@dataclass(frozen=True)
class SelfTest:
    """Programs proving a toolchain: `hello` prints "hello world"; `accepted` prints the
    sum of the integers on stdin; `compile_error` must be refused (its message naming
    `error_word`)."""

    hello: str
    accepted: str
    compile_error: str
    error_word: str = "error"


# A finishing step run by the judge on the compiler's single output file, given the
# main source's staged name: returns the program's files (name -> bytes) and what to
# start ({entry}), or raises BuildFailure.
Finisher = Callable[[bytes, str], tuple[dict[str, bytes], str]]


class BuildFailure(Exception):
    """The compiler's output cannot be used (e.g. no class with a main): a CE message."""


@dataclass(frozen=True)
class Language:
    """One language version. `compile` None: the sources run as they are (after the
    optional `check` command, a syntax check whose failure is a CE)."""

    name: str
    title: str  # the family shown to people: "C++", "Java"
    extensions: tuple[str, ...]  # the first one names staged sources
    package: str  # the Debian package that provides the toolchain
    tools: tuple[str, ...]  # programs that must be on the sandbox's PATH
    run: tuple[str, ...]
    version: tuple[str, ...]  # prints the toolchain's version (run on the host)
    self_test: SelfTest
    compile: tuple[str, ...] | None = None
    check: tuple[str, ...] | None = None
    artefact: str = "prog"  # the file `compile` writes
    magic: bytes | None = ELF_MAGIC  # how the artefact must start
    aliases: tuple[str, ...] = ()
    default_for: tuple[str, ...] = ()  # extensions for which this version is the default
    files: tuple[str, ...] = ()  # other files the toolchain needs (runtime libraries)
    # extensions of a folder's files staged beside its sources but not given to the
    # compiler (C and C++ headers)
    headers: tuple[str, ...] = ()
    keep_names: bool = False  # sources keep their own names (Java: class = file name)
    whole_folder: bool = False  # a folder's every file is a source (build/run scripts)
    # files that are the entry point of a folder program when present (the format's
    # default entry point: Python's `__main__.py`), before the main.* rule
    entry_names: tuple[str, ...] = ()
    finish: Finisher | None = None
    env: tuple[str, ...] = ()  # NAME=value for every command
    compile_env: tuple[str, ...] = ()  # NAME=value for `compile` and `check` only
    # what `compile` and `check` read under /etc, /var and /opt (glob patterns) besides
    # the loader's cache and /etc/alternatives: a compiler's view shows nothing else there
    compile_reads: tuple[str, ...] = ()
    noise: tuple[str, ...] = ()  # starts of compiler output lines left out of messages
    # glibc gives every new thread a stack of RLIMIT_STACK, which the sandbox sets to the
    # memory limit: a runtime that starts threads would reserve that much address space
    # per thread. Such a runtime runs under this stack limit instead.
    thread_stack_mb: int | None = None
    # How a fork server loads it once and forks per case: "preload" (a native program,
    # the fork-server library preloaded before main), "zygote" (a Python interpreter
    # started once, running the main file in each child), None (spawn every run).
    fork_server: str | None = None

    @property
    def interpreted(self) -> bool:
        return self.compile is None

    def main_source(self, names: Sequence[str], texts: Sequence[str]) -> str:
        """The main file among the staged sources, by the rule problemtools and BAPCtools
        document for `{mainfile}` (their languages.yaml), with the package format's
        entry points first: the only one; one of `entry_names` (Python's `__main__.py`);
        the one named main.* in any case; the first by name otherwise."""
        del texts  # the rule looks at names only, as those tools do
        sources = self.compiled(names) or list(names)  # headers are never the main file
        if len(sources) == 1:
            return sources[0]
        for name in self.entry_names:
            if name in sources:
                return name
        mains = sorted(n for n in sources if n.rpartition(".")[0].lower() == "main")
        return mains[0] if mains else sorted(sources)[0]

    def expand(
        self,
        template: Sequence[str],
        sources: Sequence[str],
        main: str = "",
        entry: str = "",
        memory_mb: int = 0,
        stack_mb: int | None = None,
    ) -> list[str]:
        """`template` with its fields filled in (see the module docstring), under `env`
        and, when `stack_mb` is given, that stack limit (see `thread_stack_mb`)."""
        out: list[str] = []
        for part in template:
            if part == "{sources}":
                out.extend(sources)
                continue
            fields = {"sources": " ".join(sources), "main": main, "entry": entry}
            out.append(part.format(memory_mb=memory_mb, **fields))
        env = [*self.env, *(self.compile_env if template is not self.run else ())]
        if env:
            out = ["env", *env, *out]
        if stack_mb:
            out = ["sh", "-c", f'ulimit -s {stack_mb * 1024} && exec "$0" "$@"', *out]
        return out

    def takes(self, name: str) -> bool:
        """Whether a file of a submission's folder (or of included code) named `name` is
        one of its sources or headers: its kinds, or any file for a whole folder."""
        return self.whole_folder or PurePosixPath(name).suffix in (*self.extensions, *self.headers)

    def compiled(self, names: Sequence[str]) -> list[str]:
        """The staged names the compiler is given: the sources, not the headers."""
        return [n for n in names if not n.endswith(self.headers)] if self.headers else list(names)

    def run_command(self, files: Sequence[str], main: str, entry: str, memory_mb: int) -> list[str]:
        return self.expand(self.run, files, main, entry, memory_mb, self.thread_stack_mb)

    def flags(self) -> str:
        """Everything of this language that changes what a build produces (cache key)."""
        parts = [*(self.compile or ()), *(self.check or ()), *self.env, *self.compile_env]
        return "\0".join([*parts, self.artefact, ENTRY_RULE])


def stage_names(language: Language, names: Sequence[str]) -> list[str]:
    """The names sources get in the scratch dir: a single file is main<ext> unless the
    language needs its own name (Java: the public class); a folder's files keep theirs.
    Raises ValueError for a name that is not safe to use."""
    if len(names) == 1 and not (language.keep_names and SAFE_NAME.match(names[0])):
        return [f"main{language.extensions[0]}"]
    for name in names:
        if not SAFE_NAME.match(name):
            raise ValueError(f"source file name {name!r}: use only A-Z a-z 0-9 _ . + -")
    return list(names)
