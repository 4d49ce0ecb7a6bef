"""Runtimes that reserve much address space (JVM, Go, CLR, Node) under both memory paths:
the memory cgroup, and the launcher's watchdog where no memory cgroup is writable
("rlimit-only": forced by pointing the cgroup root at an empty folder). A correct program
runs (no "could not reserve heap"); an endless loop is TLE; allocating past the limit is
MLE (or RE naming the runtime's out-of-memory error); starting threads without end leaves
no process behind. Also: a Java program with a package and a non-Main class, a folder of
sources, a missing toolchain (JE, not CE) and a toolchain upgrade (rebuilt)."""

from __future__ import annotations

import dataclasses
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline import sandbox as sandbox_module
from pipeline.grade.verdict import judge
from pipeline.limits import Limits
from pipeline.program.languages import Language, all_languages
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare
from pipeline.program.toolchains import SUM_INPUT, SUM_OUTPUT
from pipeline.sandbox import cgroups
from pipeline.sandbox.launched import LauncherSandbox
from tests._fake_problem import make_problem
from tests.test_languages_golden import usable

PROBLEM = make_problem()  # the sum of the integers on stdin
LIMITS = Limits.from_seconds(2.0, memory_mb=128)

HOSTILE = {
    "java": {
        "Spin.java": "class Spin { public static void main(String[] a) { long x = 0;"
        " while (true) x++; } }\n",
        "Hog.java": "import java.util.*;\nclass Hog { public static void main(String[] a) {"
        " List<long[]> keep = new ArrayList<>(); while (true) keep.add(new long[1 << 20]); } }\n",
        # MARK: a token of the test's own (_marked), so that it names this test's bomb
        # alone: in its class name (the JVM's command line) or its binary (Go's)
        "ThreadBombMARK.java": "class ThreadBombMARK { public static void main(String[] a) {"
        " while (true) new Thread(() -> { try { Thread.sleep(600000); }"
        " catch (InterruptedException e) { } }).start(); } }\n",
    },
    "go": {
        "spin.go": "package main\n\nfunc main() {\n\tx := 0\n\tfor {\n\t\tx++\n\t}\n}\n",
        "hog.go": "package main\n\nvar keep [][]byte\n\nfunc main() {\n\tfor {\n"
        "\t\tb := make([]byte, 1<<20)\n\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n"
        "\t\tkeep = append(keep, b)\n\t}\n}\n",
        "threadbomb.go": 'package main\n\nimport (\n\t"os"\n\t"runtime"\n\t"time"\n)\n\n'
        'func main() {\n\tif len(os.Args) > 99 {\n\t\tprintln("MARK")\n\t}\n'
        "\tfor {\n\t\tgo func() {\n\t\t\truntime.LockOSThread()\n"
        "\t\t\ttime.Sleep(time.Hour)\n\t\t}()\n\t\ttime.Sleep(time.Millisecond / 10)\n\t}\n}\n",
    },
}
OUT_OF_MEMORY = {"java": "OutOfMemoryError", "go": "out of memory"}


@pytest.fixture(
    params=[
        pytest.param("cgroup", marks=pytest.mark.needs_root(reason="the memory cgroup path")),
        "rlimit-only",
    ]
)
def memory_path(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """Every run of the test goes through a sandbox on this memory path."""
    if request.param == "rlimit-only":
        empty = tmp_path / "no-cgroups"
        empty.mkdir()
        monkeypatch.setattr(cgroups, "CGROUP_ROOT", empty)
    elif not cgroups.available():
        reason = "the memory cgroup path needs a writable cgroup v1"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI runs as root with cgroup v1: {reason}")
        pytest.skip(reason)
    monkeypatch.delenv("GRIDJUDGE_SANDBOX", raising=False)
    box = LauncherSandbox()
    assert (box.pool is None) == (request.param == "rlimit-only")
    # the namespaces probe must have held: a silent fall back to no namespaces would run
    # the whole test on another path than it names
    assert box.notes == [] or os.geteuid() != 0, box.notes
    sandbox_module.use(box)
    yield request.param
    sandbox_module.use(None)


def _prepared(
    lang: Language, folder: Path, name: str, text: str, cache: Path | None = None
) -> PreparedSubmission:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
    sub = prepare(parse_spec(f"{lang.name}:{folder / name}"), PROBLEM, cache)
    assert sub.compile_error is None, sub.compile_error
    return sub


def _verdict(sub: PreparedSubmission, text: str = SUM_INPUT) -> tuple[str, str]:
    result = sub.run(text, LIMITS)
    check = judge(PROBLEM, text, SUM_OUTPUT + "\n", result, LIMITS)
    return str(check.verdict), check.message


def _marked(programs: dict[str, str]) -> tuple[dict[str, str], str]:
    """`programs` with MARK, in names and texts, replaced by a token of this call's own."""
    token = f"gj{uuid.uuid4().hex[:12]}"
    return {n.replace("MARK", token): t.replace("MARK", token) for n, t in programs.items()}, token


def _leftovers(token: str) -> list[int]:
    """Host processes of this test's bomb: its token in their command line (a JVM
    names the class) or in their executable (a Go binary runs as `./prog`). Others'
    processes, another test run's included, never match."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            named = token.encode() in (entry / "cmdline").read_bytes()
            if not named and (entry / "comm").read_text().strip() == "prog":
                named = token.encode() in (entry / "exe").read_bytes()
        except OSError:  # ended meanwhile, or not ours to read
            continue
        if named:
            found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["java", "kotlin", "scala", "csharp", "go", "js", "haskell", "pypy3"]
)
def test_correct_program_runs_on_both_memory_paths(
    name: str, memory_path: str, tmp_path: Path
) -> None:
    """Compiled on that path too (javac and kotlinc are JVMs): the cgroup path's builds
    are shared with the other tests, the fallback's are made afresh."""
    lang = usable(all_languages()[name])
    cache = tmp_path / "cache" if memory_path == "rlimit-only" else None
    source = f"accepted{lang.extensions[0]}"
    sub = _prepared(lang, tmp_path, source, lang.self_test.accepted, cache)
    assert _verdict(sub) == ("AC", ""), memory_path


@pytest.mark.slow
@pytest.mark.parametrize("name", ["java", "go"])
def test_hostile_programs(name: str, memory_path: str, tmp_path: Path) -> None:
    lang = usable(all_languages()[name])
    programs, token = _marked(HOSTILE[name])
    # the marked bomb, new each time, is built in a cache of its own (not the shared one)
    spin, hog, bomb = (
        _prepared(lang, tmp_path / n, n, t, tmp_path / "cache" if token in t else None)
        for n, t in programs.items()
    )
    assert _verdict(spin)[0] == "TLE"
    verdict, message = _verdict(hog)
    assert verdict == "MLE" or (verdict == "RE" and OUT_OF_MEMORY[name] in message), message
    verdict, message = _verdict(bomb)
    assert verdict in ("RE", "TLE", "MLE"), message
    assert _leftovers(token) == []


@pytest.mark.slow
def test_java_package_and_any_class_name(tmp_path: Path) -> None:
    lang = usable(all_languages()["java"])
    text = (
        "package ojs.hdoj;\n\nimport java.util.*;\n\n"
        "public class P1760 {\n  public static void main(String[] args) {\n"
        "    Scanner in = new Scanner(System.in); long s = 0;\n"
        "    while (in.hasNextLong()) s += in.nextLong();\n"
        "    System.out.println(s);\n  }\n}\n"
        "class Helper { static int unused() { return 1; } }\n"
    )
    sub = _prepared(lang, tmp_path, "P1760.java", text)
    assert sub.entry == "ojs.hdoj.P1760"
    assert _verdict(sub) == ("AC", "")
    # the file name alone (no LANG:) is enough
    assert parse_spec(str(tmp_path / "P1760.java")).language == "java"


@pytest.mark.slow
def test_folder_of_sources_compiled_together(tmp_path: Path) -> None:
    lang = usable(all_languages()["java"])
    folder = tmp_path / "solution"
    folder.mkdir()
    (folder / "Adder.java").write_text(
        "class Adder { static long add(long a, long b) { return a + b; } }\n"
    )
    (folder / "Run.java").write_text(
        "import java.util.*;\nclass Run { public static void main(String[] a) {\n"
        "  Scanner in = new Scanner(System.in); long s = 0;\n"
        "  while (in.hasNextLong()) s = Adder.add(s, in.nextLong());\n"
        "  System.out.println(s); } }\n"
    )
    (folder / "notes.txt").write_text("not a source")
    spec = parse_spec(str(folder))
    assert (spec.kind, spec.language) == ("source", lang.name)
    sub = prepare(spec, PROBLEM)
    assert sub.compile_error is None, sub.compile_error
    assert [name for name, _ in sub.sources] == ["Adder.java", "Run.java"]
    assert _verdict(sub) == ("AC", "")
    c_folder = tmp_path / "c"
    c_folder.mkdir()
    (c_folder / "add.c").write_text("long add(long a, long b) { return a + b; }\n")
    (c_folder / "main.c").write_text(
        "#include <stdio.h>\nlong add(long, long);\n"
        'int main(void) { long s = 0, x; while (scanf("%ld", &x) == 1) s = add(s, x);\n'
        '  printf("%ld\\n", s); return 0; }\n'
    )
    assert _verdict(prepare(parse_spec(str(c_folder)), PROBLEM)) == ("AC", "")


def test_ocaml_links_str_and_unix_as_problemtools_does(tmp_path: Path) -> None:
    """problemtools links OCaml programs with str and unix: a program using Str is no CE."""
    lang = usable(all_languages()["ocaml"])
    text = (
        "let () =\n  ignore (Unix.getpid ());\n  let buf = Buffer.create 64 in\n"
        "  (try while true do Buffer.add_channel buf stdin 1 done with End_of_file -> ());\n"
        '  let words = Str.split (Str.regexp "[ \\t\\n]+") (Buffer.contents buf) in\n'
        "  let total = List.fold_left (fun s w -> s + int_of_string w) 0 words in\n"
        '  Printf.printf "%d\\n" total\n'
    )
    sub = _prepared(lang, tmp_path / "ml", "main.ml", text)
    assert _verdict(sub) == ("AC", "")


def test_cpp23_is_the_standard_problemtools_compiles_with(tmp_path: Path) -> None:
    """std::to_underlying is C++23: cpp23 compiles it, the default cpp17 does not."""
    lang = usable(all_languages()["cpp23"])
    text = (
        "#include <iostream>\n#include <utility>\nenum class E : long long { zero };\n"
        "int main() { long long s = std::to_underlying(E::zero), x;\n"
        "  while (std::cin >> x) s += x; std::cout << s << std::endl; }\n"
    )
    assert _verdict(_prepared(lang, tmp_path / "new", "main.cpp", text)) == ("AC", "")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "main.cpp").write_text(text)
    old = prepare(parse_spec(f"cpp17:{tmp_path / 'old' / 'main.cpp'}"), PROBLEM)
    assert old.compile_error is not None and "to_underlying" in old.compile_error


def test_csharp_references_system_numerics_as_problemtools_does(tmp_path: Path) -> None:
    lang = usable(all_languages()["csharp"])
    text = (
        "using System;\nusing System.Numerics;\nclass P { static void Main() {\n"
        "  BigInteger s = 0;\n"
        "  foreach (var w in Console.In.ReadToEnd().Split((char[])null,"
        " StringSplitOptions.RemoveEmptyEntries)) s += BigInteger.Parse(w);\n"
        "  Console.WriteLine(s); } }\n"
    )
    assert _verdict(_prepared(lang, tmp_path / "cs", "main.cs", text)) == ("AC", "")


def test_missing_toolchain_is_a_judge_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    lang = all_languages()["c11"]
    absent = dataclasses.replace(lang, tools=("gcc-that-is-not-installed",), package="gcc-99")
    monkeypatch.setitem(all_languages(), "c11", absent)
    source = tmp_path / "sum.c"
    source.write_text(lang.self_test.accepted)
    sub = prepare(parse_spec(str(source)), PROBLEM)
    assert sub.compile_error is None  # not the submission's fault
    verdict, message = _verdict(sub)
    assert verdict == "JE" and "gcc-99" in message and "gcc-that-is-not-installed" in message


def test_toolchain_upgrade_rebuilds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    usable(all_languages()["c11"])
    source = tmp_path / "sum.c"
    source.write_text(all_languages()["c11"].self_test.accepted)
    cache = tmp_path / "cache"
    first = prepare(parse_spec(str(source)), PROBLEM, cache)
    again = prepare(parse_spec(str(source)), PROBLEM, cache)
    assert again.program == first.program
    monkeypatch.setattr("pipeline.program.build.toolchain_version", lambda lang: "gcc 99")
    upgraded = prepare(parse_spec(str(source)), PROBLEM, cache)
    assert upgraded.program != first.program and upgraded.compile_error is None
