"""The default output validator of problem packages (pure code): each flag, and the
flags it refuses."""

from __future__ import annotations

import pytest

from pipeline.package.default_validator import Options, compare, parse_flags


def verdict(expected: str, actual: str, *flags: str) -> str:
    return str(compare(expected, actual, parse_flags(flags)).verdict)


@pytest.mark.parametrize(
    ("expected", "actual", "flags", "want"),
    [
        ("Yes 3", "yes   3\n", (), "AC"),  # case and whitespace are ignored by default
        ("Yes 3", "yes 3", ("case_sensitive",), "WA"),
        ("Yes 3", "Yes 3", ("case_sensitive",), "AC"),
        ("1 2\n", "1  2\n", ("space_change_sensitive",), "WA"),
        ("1 2\n", "1 2", ("space_change_sensitive",), "WA"),
        ("1 2\n", "1 2\n", ("space_change_sensitive",), "AC"),
        ("1 2\n", "1\n2\n", (), "AC"),
        ("1.5", "1.5000001", (), "WA"),  # no tolerance: tokens compare as text
        ("1.5", "1.5000001", ("float_tolerance", "1e-6"), "AC"),
        ("1.5", "1.50001", ("float_tolerance", "1e-6"), "WA"),
        ("1000", "1000.5", ("float_relative_tolerance", "1e-3"), "AC"),
        ("1000", "1000.5", ("float_absolute_tolerance", "1e-3"), "WA"),
        ("0.001", "0.0015", ("float_absolute_tolerance", "1e-3"), "AC"),
        ("0.001", "0.0015", ("float_relative_tolerance", "1e-3"), "WA"),
        ("2", "2.0000000001", ("float_tolerance", "1e-6"), "AC"),  # integers are numbers
        ("1.5", "abc", ("float_tolerance", "1e-6"), "WA"),  # a number is expected
        ("word", "WORD", ("float_tolerance", "1e-6"), "AC"),  # not a number: as text
        ("1.5 2", "1.5", ("float_tolerance", "1e-6"), "WA"),
        ("1.5", "1.5 2", ("float_tolerance", "1e-6"), "WA"),
        ("1_000", "1000", ("float_tolerance", "1"), "WA"),  # Python's 1_000 is no number
    ],
)
def test_flags(expected: str, actual: str, flags: tuple[str, ...], want: str) -> None:
    assert verdict(expected, actual, *flags) == want


def test_float_tolerance_sets_both_tolerances() -> None:
    assert parse_flags(["float_tolerance", "0.5"]) == Options(absolute=0.5, relative=0.5)


def test_the_message_names_the_first_difference() -> None:
    result = compare("1 2 3", "1 5 3", Options())
    assert "token 2" in result.message and "'2'" in result.message and "'5'" in result.message
    assert "ends early" in compare("1 2", "1", Options()).message
    assert "extra output" in compare("1", "1 2", Options()).message


@pytest.mark.parametrize(
    "flags", [["case_insensitive"], ["float_tolerance"], ["float_tolerance", "x"]]
)
def test_unknown_flags_and_missing_values_are_refused(flags: list[str]) -> None:
    with pytest.raises(ValueError):
        parse_flags(flags)
