"""What `gridjudge languages` shows, and each language's self-test: its hello world runs,
its accepted program sums integers (spawned, and from a fork server where the language
has one), its compile error is refused with the compiler's message. Everything goes
through the same build and sandbox as a graded submission."""

from __future__ import annotations

import contextlib
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.problem.contract import STDIO
from pipeline.program import execute
from pipeline.program.build import build
from pipeline.program.languages.contract import Language
from pipeline.program.languages.registry import (
    all_languages,
    get_language,
    missing,
    toolchain_version,
)
from pipeline.program.submission import PreparedSubmission

LIMITS = Limits.from_seconds(10.0, memory_mb=256)
SUM_INPUT, SUM_OUTPUT = "1 2 39\n-5 5\n", "42"
STARTUP_RUNS = 3


@dataclass(frozen=True)
class LanguageInfo:
    name: str
    title: str
    available: bool
    version: str  # the toolchain's, or why the language is unavailable
    compile: str
    run: str
    package: str


@dataclass(frozen=True)
class ToolchainCheck:
    language: str
    step: str  # hello | accepted | fork server | compile error
    ok: bool
    detail: str


def describe(lang: Language) -> LanguageInfo:
    reason = missing(lang)
    step = lang.compile or lang.check or ()
    sources = ["{sources}"]
    return LanguageInfo(
        name=lang.name,
        title=lang.title,
        available=reason is None,
        version=reason if reason else toolchain_version(lang),
        compile=" ".join(lang.expand(step, sources, main="{main}")) if step else "",
        run=" ".join(lang.expand(lang.run, sources, "{main}", "{entry}", LIMITS.memory_mb)),
        package=lang.package,
    )


def _prepared(lang: Language, name: str, text: str, cache_dir: Path) -> PreparedSubmission:
    """The program built as a submission would be (PreparedSubmission)."""
    sources = ((f"{name}{lang.extensions[0]}", text.encode()),)
    built = build(lang, sources, cache_dir)
    return PreparedSubmission(
        label=f"{lang.name}:{name}",
        sha=name,
        kind="source",
        problem="self-test",
        io=STDIO,
        compile_error=built.error,
        language=lang.name,
        sources=sources,
        program=str(built.program) if built.program else None,
        entry=built.entry,
    )


def prebuild(langs: list[Language], cache_dir: Path, hello_only: bool = False) -> None:
    """Builds the self-test programs of the available `langs` into the cache, one per
    core at a time (compilers mostly use one); a failure shows later, in its check."""
    jobs = [
        (lang, name, text)
        for lang in langs
        if missing(lang) is None
        for name, text in (
            ("hello", lang.self_test.hello),
            ("accepted", lang.self_test.accepted),
            ("broken", lang.self_test.compile_error),
        )
        if name == "hello" or not hello_only
    ]

    def one(job: tuple[Language, str, str]) -> None:
        with contextlib.suppress(Exception):
            _prepared(job[0], job[1], job[2], cache_dir)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(one, jobs))


def _ran(result: ExecutionResult, want: str) -> tuple[bool, str]:
    if result.judge_error:
        return False, f"judge error: {result.judge_error}"
    got = result.output.decode("utf-8", "replace").strip()
    if result.exit_code == 0 and got == want:
        return True, f"{result.wall_ms:.0f} ms"
    tail = result.stderr_head.decode("utf-8", "replace").strip().splitlines()[-1:]
    return False, f"exit {result.exit_code} signal {result.signal}: {got[:80]!r} {tail}"


def self_test(lang: Language, cache_dir: Path) -> list[ToolchainCheck]:
    """The three checks of one language (which must be available)."""
    test = lang.self_test
    checks = []
    for step, name, text, stdin, want in (
        ("hello", "hello", test.hello, "", "hello world"),
        ("accepted", "accepted", test.accepted, SUM_INPUT, SUM_OUTPUT),
    ):
        sub = _prepared(lang, name, text, cache_dir)
        if sub.compile_error is not None:
            checks.append(ToolchainCheck(lang.name, step, False, f"CE: {sub.compile_error[:300]}"))
            continue
        ok, detail = _ran(sub.run(stdin, LIMITS), want)
        checks.append(ToolchainCheck(lang.name, step, ok, detail))
        if step == "accepted" and lang.fork_server is not None:
            checks.append(fork_server_check(sub))
    bad = _prepared(lang, "broken", test.compile_error, cache_dir)
    message = bad.compile_error or ""
    ok = test.error_word.lower() in message.lower()
    detail = message.splitlines()[0][:120] if ok else f"not refused as expected: {message[:200]!r}"
    checks.append(ToolchainCheck(lang.name, "compile error", ok, detail))
    return checks


def fork_server_check(sub: PreparedSubmission) -> ToolchainCheck:
    """The accepted program run twice from one fork server; a program that cannot be
    served (statically linked, no namespaces here) passes, saying it is spawned."""
    assert sub.language is not None
    servers = execute.Servers()
    try:
        results = [
            execute.run(sub, SUM_INPUT.encode(), limits=LIMITS, servers=servers) for _ in range(2)
        ]
    finally:
        servers.close()
    how = results[0].extra.get("runner", "")
    if how != execute.FORK_SERVER and not any(r.judge_error for r in results):
        return ToolchainCheck(sub.language, "fork server", True, f"spawned instead: {how}")
    runs = [_ran(result, SUM_OUTPUT) for result in results]
    bad = [detail for ok, detail in runs if not ok]
    return ToolchainCheck(sub.language, "fork server", not bad, bad[0] if bad else runs[1][1])


def startup_ms(lang: Language, cache_dir: Path) -> float | None:
    """Median wall time of hello world in the sandbox (ms), None if it does not run."""
    sub = _prepared(lang, "hello", lang.self_test.hello, cache_dir)
    if sub.compile_error is not None:
        return None
    times = []
    for _ in range(STARTUP_RUNS):
        start = time.monotonic()
        result = sub.run("", LIMITS)
        if result.judge_error or result.exit_code != 0:
            return None
        times.append((time.monotonic() - start) * 1000)
    return statistics.median(times)


def languages(names: list[str] | None = None) -> list[Language]:
    """The languages called `names` (all when None), in registry order."""
    if not names:
        return list(all_languages().values())
    return [get_language(n) for n in names]
