"""Feedback that hides what it must (issue 23, point 6): with `--feedback hide-inputs` a
submission's feedback file carries neither the inputs, nor the expected answers, nor the
program's output or stderr; with `show-inputs` it does, escaped: no markup a program
prints survives into feedback/*.md, report.html or the gradebook part of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.generate import generate_corpus
from pipeline.corpus.store import read_table
from pipeline.problem.registry import get_problem

MARK = "LEAK"
SCRIPT = "<script>alert(1)</script>"
TRICKS = "[a](javascript:x)**b**`c`"  # printed right after SCRIPT: one token
PROGRAMS = {
    # prints its input on stderr, marked, then crashes: RE with the input as last line
    "echo_stderr.py": "import sys\nd = sys.stdin.read()\n"
    f"sys.stderr.write('{MARK}:' + ' / '.join(d.split(chr(10))) + chr(10))\nsys.exit(3)\n",
    # raw HTML and Markdown as its answer: WA naming it and the expected token
    "markup.py": f"print({SCRIPT + TRICKS!r})\n",
}


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, [*args])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("feedback")
    corpus = root / "clocks"
    generate_corpus(get_problem("clocks"), 4, 3, corpus)
    subs = root / "subs"
    subs.mkdir()
    for name, text in PROGRAMS.items():
        (subs / name).write_text(text)
    out = root / "run"
    code, output = _cli(
        "grade", str(corpus), "--submissions", str(subs), "--out", str(out),
        "--address", "local-serial",
    )  # fmt: skip
    assert code == 0, output
    rows = pq.read_table(out / "results").to_pylist()
    cases = read_table(corpus).to_pylist()
    return {"out": out, "rows": rows, "cases": cases}


def _feedback(out: Path, sid: str) -> str:
    return (out / "feedback" / f"{sid}.md").read_text()


def _input_lines(cases: list[dict[str, Any]]) -> list[str]:
    return [line for c in cases for line in c["input"].splitlines() if line.strip()]


def test_the_attacks_fail_as_intended(run: dict[str, Any]) -> None:
    verdicts = {(r["submission"], r["verdict"]) for r in run["rows"]}
    assert verdicts == {("echo_stderr", "RE"), ("markup", "WA")}
    re_msgs = [r["checker_msg"] for r in run["rows"] if r["verdict"] == "RE"]
    assert all(MARK in m for m in re_msgs)  # the grader's own record keeps the stderr line
    wa_msgs = [r["checker_msg"] for r in run["rows"] if r["verdict"] == "WA"]
    assert all("expected" in m for m in wa_msgs) and any(SCRIPT + TRICKS in m for m in wa_msgs)


def test_hidden_inputs_reveal_no_input_answer_output_or_stderr(run: dict[str, Any]) -> None:
    out = run["out"]
    crash, markup = _feedback(out, "echo_stderr"), _feedback(out, "markup")
    for text in (crash, markup):
        assert MARK not in text and "expected" not in text and "<" not in text
        assert "alert" not in text and "javascript" not in text and "**b**" not in text
        for line in _input_lines(run["cases"]):
            assert line not in text
        for answer in {c["expected"].strip() for c in run["cases"]} - {""}:
            assert f"'{answer}" not in text and f"{answer}'" not in text
    assert "RE: exit code 3" in crash and "WA: wrong answer" in markup
    page = (out / "report.html").read_text()
    assert SCRIPT not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_shown_inputs_appear_escaped(run: dict[str, Any]) -> None:
    out = run["out"]
    code, output = _cli("score", str(out), "--feedback", "show-inputs")
    assert code == 0, output
    crash, markup = _feedback(out, "echo_stderr"), _feedback(out, "markup")
    for line in _input_lines(run["cases"]):
        assert line in crash  # in the case's input block
    assert f"{MARK}:" in crash  # the checker message, with the program's stderr line
    escaped = (
        "&lt;script&gt;alert\\(1\\)&lt;/script&gt;\\[a\\]\\(javascript:x\\)\\*\\*b\\*\\*\\`c\\`"
    )
    assert escaped in markup and "expected" in markup
    assert "<script" not in markup and "](javascript" not in markup and "**b**" not in markup
