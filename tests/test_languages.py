"""The language registry, submission specs of every language, folders, the entry class
of JVM builds, time multipliers, and `gridjudge languages [--self-test]`."""

from __future__ import annotations

import dataclasses
import io
import os
import tarfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.limits import Limits
from pipeline.program.languages import (
    BuildFailure,
    Language,
    LanguageError,
    all_languages,
    for_extension,
    get_language,
    missing,
)
from pipeline.program.languages.contract import stage_names
from pipeline.program.languages.jvm import pack_jar
from pipeline.program.languages.multipliers import multiplier, parse_multipliers
from pipeline.program.submission import SubmissionError, parse_spec, prepare
from tests._fake_problem import make_problem
from tests.test_languages_golden import usable

VERSIONS = [
    "c11",
    "c17",
    "cpp98",
    "cpp11",
    "cpp17",
    "cpp20",
    "cpp23",
    "py3",
    "pypy3",
    "java",
    "kotlin",
    "scala",
    "csharp",
    "go",
    "rust",
    "js",
    "haskell",
    "ocaml",
    "ruby",
    "php",
]
runner = CliRunner()


def test_the_twenty_versions_are_registered() -> None:
    assert sorted(all_languages()) == sorted(VERSIONS)
    for lang in all_languages().values():
        assert lang.package and lang.tools and lang.extensions
        assert lang.self_test.hello and lang.self_test.accepted and lang.self_test.compile_error


@pytest.mark.parametrize(
    "ext,name",
    [(".c", "c11"), (".cpp", "cpp17"), (".cc", "cpp17"), (".py", "py3"), (".java", "java"),
     (".kt", "kotlin"), (".scala", "scala"), (".cs", "csharp"), (".go", "go"), (".rs", "rust"),
     (".js", "js"), (".hs", "haskell"), (".ml", "ocaml"), (".rb", "ruby"), (".php", "php")],
)  # fmt: skip
def test_default_version_per_extension(ext: str, name: str, tmp_path: Path) -> None:
    lang = for_extension(ext)
    assert lang is not None and lang.name == name
    source = tmp_path / f"x{ext}"
    source.write_text("")
    assert parse_spec(str(source)).language == name


def test_aliases_and_unknown_names(tmp_path: Path) -> None:
    assert get_language("C++").name == "cpp17"
    assert get_language("python").name == "py3"
    assert get_language("node").name == "js"
    assert get_language("c#").name == "csharp"
    source = tmp_path / "a.txt"
    source.write_text("")
    assert parse_spec(f"pypy:{source}").language == "pypy3"
    with pytest.raises(LanguageError) as err:
        get_language("cobol")
    assert "cobol" in str(err.value) and "java" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(SubmissionError) as bad:
        parse_spec(f"cobol:{source}")
    assert "\n" not in str(bad.value)


def test_folder_specs(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "a.c").write_text("")
    (mixed / "b.py").write_text("")
    with pytest.raises(SubmissionError) as err:
        parse_spec(str(mixed))
    assert "C" in str(err.value) and "Python 3" in str(err.value)
    assert parse_spec(f"py3:{mixed}").language == "py3"  # named: only its own files
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SubmissionError):
        parse_spec(str(empty))
    with pytest.raises(SubmissionError) as no_source:
        prepare(parse_spec(f"java:{empty}"), make_problem())
    assert "no Java source" in str(no_source.value)


def test_staged_names() -> None:
    c, java = get_language("c11"), get_language("java")
    assert stage_names(c, ["my sum.c"]) == ["main.c"]  # one file: a fixed name
    assert stage_names(java, ["P1760.java"]) == ["P1760.java"]  # the class needs its own
    assert stage_names(java, ["a b.java"]) == ["main.java"]
    assert stage_names(c, ["a.c", "b.c"]) == ["a.c", "b.c"]
    with pytest.raises(ValueError):
        stage_names(c, ["a.c", "b;rm -rf.c"])  # names reach `sh -c` scripts


def _tar(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def test_jar_without_a_main_class_is_a_build_failure() -> None:
    with pytest.raises(BuildFailure) as err:
        pack_jar(_tar({"./A.class": b"\xca\xfe\xba\xbe" + bytes(20)}))
    assert "main" in str(err.value)
    with pytest.raises(BuildFailure):
        pack_jar(b"not a tar at all")


@pytest.mark.slow
def test_among_main_classes_the_main_source_names_the_entry(tmp_path: Path) -> None:
    """Several classes with a main: the one of the main source, by the rule problemtools
    and BAPCtools document ({mainclass}: main.*, else the first file by name); none of
    them named so is a CE naming them all."""
    usable(get_language("java"))
    main = "public static void main(String[] a) {}"
    folder = tmp_path / "two"
    folder.mkdir()
    (folder / "A.java").write_text(f"class A {{ {main} }}\n")
    (folder / "B.java").write_text(f"class B {{ {main} }}\n")
    sub = prepare(parse_spec(str(folder)), make_problem())
    assert (sub.compile_error, sub.entry) == (None, "A")
    (folder / "Main.java").write_text(f"class Main {{ {main} }}\n")
    assert prepare(parse_spec(str(folder)), make_problem()).entry == "Main"
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.java").write_text(f"class P {{ {main} }}\n")
    (other / "y.java").write_text(f"class Q {{ {main} }}\n")
    sub = prepare(parse_spec(str(other)), make_problem())
    assert sub.compile_error is not None and "P, Q" in sub.compile_error


@pytest.mark.slow
def test_a_kotlin_folder_starts_at_main_kt(tmp_path: Path) -> None:
    """Two files with a top-level main: the one of main.kt, `MainKt` (the tools'
    `{Mainclass}Kt`), as a Kotlin folder is started by problemtools and BAPCtools."""
    usable(get_language("kotlin"))
    folder = tmp_path / "kt"
    folder.mkdir()
    (folder / "main.kt").write_text("fun main() {\n    println(twice(21))\n}\n")
    (folder / "helper.kt").write_text(
        "fun twice(x: Int) = 2 * x\n\nfun main() {\n    println(twice(1))\n}\n"
    )
    sub = prepare(parse_spec(str(folder)), make_problem())
    assert (sub.compile_error, sub.entry) == (None, "MainKt")


def test_the_main_source_rule_of_problemtools_and_bapctools() -> None:
    # imported here: the module's other tests run on a gridjudge without it
    from pipeline.program.languages.jvm import named_class

    py, java, c = get_language("py3"), get_language("java"), get_language("c11")

    def main(lang: Language, *names: str) -> str:
        return lang.main_source(list(names), [""] * len(names))

    assert main(py, "solve.py") == "solve.py"
    # the format's default entry point of a Python folder, before main.* and the first
    assert main(py, "__init__.py", "__main__.py", "main.py") == "__main__.py"
    assert main(py, "a.py", "Main.py", "z.py") == "Main.py"  # main.* in any case
    assert main(py, "util.py", "b.py") == "b.py"  # else the first by name
    assert main(java, "Helper.java", "Main.java") == "Main.java"
    assert main(c, "add.c", "zz.c") == "add.c"
    assert main(c, "a.h", "solve.c") == "solve.c"  # a header is never the main file
    assert main(c, "main.h", "b.c", "c.c") == "b.c"
    assert named_class("Main.java") == "Main"
    assert named_class("main.kt", kotlin=True) == "MainKt"
    assert named_class("solve.kt", kotlin=True) == "SolveKt"


def test_time_multipliers_off_by_default_and_configurable(tmp_path: Path) -> None:
    assert parse_multipliers("java=2, python=3.5") == {"java": 2.0, "py3": 3.5}
    for bad in ("java", "java=0.5", "java=x", "cobol=2"):
        with pytest.raises(LanguageError):
            parse_multipliers(bad)
    assert multiplier(None, "java") == 1.0 and multiplier({"java": 2.0}, "c11") == 1.0
    source = tmp_path / "a.py"
    source.write_text("print(1)\n")
    problem, limits = make_problem(), Limits.from_seconds(1.5, memory_mb=64)
    plain = prepare(parse_spec(str(source)), problem, tmp_path / "c")
    assert limits.times(plain.time_multiplier) == limits
    scaled = prepare(parse_spec(str(source)), problem, tmp_path / "c", {"py3": 2.0})
    assert limits.times(scaled.time_multiplier).cpu_ms == 3000.0
    assert limits.times(scaled.time_multiplier).wall_limit_ms == 2 * 3000.0 + 1000.0
    assert limits.times(scaled.time_multiplier).memory_mb == 64


def test_languages_table_lists_unavailable_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    absent = dataclasses.replace(get_language("php"), tools=("php-not-here",))
    monkeypatch.setitem(all_languages(), "php", absent)
    result = runner.invoke(app, ["languages", "php", "c11"])
    assert result.exit_code == 0, result.output
    assert "apt-get install php-cli" in result.output
    assert "gcc" in result.output  # c11's compile command and version


def test_self_test_fails_with_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    c11 = usable(get_language("c11"))
    wrong = dataclasses.replace(
        c11.self_test, hello='#include <stdio.h>\nint main(void){puts("goodbye");return 0;}\n'
    )
    monkeypatch.setitem(all_languages(), "c11", dataclasses.replace(c11, self_test=wrong))
    result = runner.invoke(app, ["languages", "c11", "--self-test"])
    assert result.exit_code == 1, result.output
    assert "FAIL" in result.output and "goodbye" in result.output


@pytest.mark.slow
def test_self_test_of_every_language_passes() -> None:
    """What CI runs: every one of the 20 versions proves its toolchain."""
    unavailable = [m for lang in all_languages().values() if (m := missing(lang))]
    if unavailable and os.environ.get("CI") == "true":
        pytest.fail(f"CI must have every toolchain: {unavailable}")
    result = runner.invoke(app, ["languages", "--self-test"])
    assert result.exit_code == 0, result.output
    assert "self-test: all passed" in result.output
    passed = sum(line.startswith("ok ") for line in result.output.splitlines())
    # hello, accepted, compile error; and the accepted program from a fork server
    available = [lang for lang in all_languages().values() if missing(lang) is None]
    assert passed == sum(3 + (lang.fork_server is not None) for lang in available)
    served = [ln for ln in result.output.splitlines() if " fork server " in ln]
    assert len(served) == sum(lang.fork_server is not None for lang in available)
