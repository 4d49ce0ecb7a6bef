"""Messages for people: repeated lines folded, cut at a line or word boundary."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pipeline.text import ELLIPSIS, TRUNCATED, clip, compiler_message, fold_repeats


def test_runs_of_the_same_line_are_folded() -> None:
    text = "a.cpp:1: error: x\n" * 80 + "a.cpp:2: note: y\nz\nz"
    assert fold_repeats(text) == (
        "a.cpp:1: error: x (repeated 80 times)\na.cpp:2: note: y\nz (repeated 2 times)"
    )
    assert fold_repeats("one\ntwo\none") == "one\ntwo\none"  # only consecutive runs


def test_clip_cuts_at_a_line_end_then_a_space_never_inside_a_word() -> None:
    assert clip("short", 10) == "short"
    assert clip("first line\nsecond line", 15) == "first line" + ELLIPSIS
    assert clip("alpha beta gamma delta", 14) == "alpha beta" + ELLIPSIS
    assert clip("x" * 50, 10) == "x" * 10 + ELLIPSIS  # one long word: cut at the limit


@given(st.text(alphabet="ab \n", max_size=200), st.integers(min_value=4, max_value=100))
def test_a_clipped_text_is_a_prefix_ending_at_a_boundary(text: str, limit: int) -> None:
    out = clip(text, limit)
    if out == text:
        assert len(text) <= limit
        return
    head = out.removesuffix(ELLIPSIS)
    assert text.startswith(head) and len(head) <= limit
    rest = text[len(head) :]
    at_boundary = not head or rest[:1] in (" ", "\n") or head.endswith((" ", "\n"))
    assert at_boundary or len(head) == limit


def test_compiler_message_folds_then_cuts_at_a_line_end() -> None:
    text = "".join(
        f"main.cpp:{n}:1: error: expected ';' before token number {n}\n" for n in range(200)
    )
    out = compiler_message("x.cpp: error: same\n" * 500 + text, 2000)
    assert out.startswith("x.cpp: error: same (repeated 500 times)\n")
    assert out.endswith(TRUNCATED) and len(out) <= 2000 + len(TRUNCATED)
    last = out.removesuffix(TRUNCATED).splitlines()[-1]
    assert last in text.splitlines()  # a whole line


def test_printable_escapes_every_control_and_keeps_lines_only_when_asked() -> None:
    from pipeline.text import printable

    name = "a\nb\x1b[31mc\x07\u202ed\te\x9b"
    assert printable(name) == "a\\nb\\x1b[31mc\\x07\\u202ed\\te\\x9b"
    assert printable(name, lines=True) == "a\nb\\x1b[31mc\\x07\\u202ed\te\\x9b"
    assert printable("plain ünïcode 名前") == "plain ünïcode 名前"


def test_one_line_is_one_capped_escaped_line_whatever_the_message() -> None:
    from pipeline.text import MESSAGE_CHARS, one_line

    line = one_line("a.yaml: bad value\n\x1bc" + "x " * 10_000_000)
    assert "\n" not in line and "\x1b" not in line and "\\x1bc" in line
    assert len(line) <= MESSAGE_CHARS + len(ELLIPSIS)
