"""How a problem's included code joins a submission's sources (pure: no build):
which files a language gets, which replace the submission's, where the program starts."""

from __future__ import annotations

import pytest

from pipeline.program.included import EVERY_LANGUAGE, included_for, with_included
from pipeline.program.languages import Language, get_language

PY, CPP, C = get_language("py3"), get_language("cpp17"), get_language("c11")
HEADER, GRADER_C, GRADER_CPP = ("grader.h", b"h"), ("grader.c", b"c"), ("grader.cpp", b"cpp")
INCLUDED = {EVERY_LANGUAGE: (GRADER_C, HEADER), "C++": (GRADER_CPP, HEADER), "Python 3": ()}


@pytest.mark.parametrize(
    ("lang", "files"),
    [
        (C, (GRADER_C, HEADER)),  # no folder of its own: the default files
        (CPP, (GRADER_CPP, HEADER)),  # its own
        (PY, ()),  # its own folder, empty: nothing (the default's C files are no Python)
        (get_language("pypy3"), ()),  # the default files, none of them a Python source
    ],
)
def test_each_language_gets_its_own_files_or_the_defaults_it_compiles(
    lang: Language, files: tuple[tuple[str, bytes], ...]
) -> None:
    assert included_for(INCLUDED, lang) == files


def test_nothing_included_leaves_the_submission_as_it_is() -> None:
    sources = [("b.py", b"2"), ("a.py", b"1")]
    assert with_included(PY, sources, (), None) == (sources, None)
    assert with_included(PY, sources, (), "b.py") == (sources, "b.py")


def test_an_included_file_replaces_the_submissions_file_of_that_name() -> None:
    own = [("grader.cpp", b"decoy"), ("solve.cpp", b"s")]
    merged, entry = with_included(CPP, own, (GRADER_CPP, HEADER), None)
    assert merged == [GRADER_CPP, HEADER, ("solve.cpp", b"s")]
    assert entry == "solve.cpp"  # the submission's own main source: the one left of it


def test_a_helper_sorted_first_does_not_become_the_program() -> None:
    merged, entry = with_included(PY, [("twice.py", b"t")], (("reading.py", b"r"),), None)
    assert (merged, entry) == ([("reading.py", b"r"), ("twice.py", b"t")], "twice.py")


@pytest.mark.parametrize("driver", ["__main__.py", "main.py", "Main.py"])
def test_an_included_driver_is_where_the_program_starts(driver: str) -> None:
    merged, entry = with_included(
        PY, [("main2.py", b"m"), ("sol.py", b"s")], ((driver, b"d"),), None
    )
    assert entry == driver and (driver, b"d") in merged


def test_an_entry_point_given_stays() -> None:
    _, entry = with_included(PY, [("a.py", b"a"), ("b.py", b"b")], (("__main__.py", b"d"),), "b.py")
    assert entry == "b.py"
