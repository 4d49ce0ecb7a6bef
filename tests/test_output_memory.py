"""Output checking in bounded memory (issue 23, point 8): a 64 MB output of two-character
tokens is compared without a Python object per token. The bound is on memory, not time:
the growth of the peak resident size of a fresh process while it decides the verdict
(tracemalloc would trace each of the 20 million token objects, at a minute per check)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pipeline.problem.checkers import CHUNK_CHARS, CheckResult, exact_text_check, token_check
from pipeline.schemas import Verdict

TOKEN_CHECK_MB, OTHER_MB = 64, 16  # the size for the common checker
# Builds the expected answer (str) and the output (bytes, as a run gives it) without
# temporaries, then decides the verdict as the engine does: the peak resident size grows
# by what the check allocates beyond them.
MEASURE = """
import json, resource, sys
from pipeline.grade.verdict import decide
from pipeline.limits import Limits
from pipeline.package.default_validator import Options, compare
from pipeline.problem.checkers import exact_text_check, token_check
from pipeline.outcome import ExecutionResult

name, expected_sep, output_sep, mb = sys.argv[1:5]
checks = {
    "token_check": token_check,
    "exact_text_check": exact_text_check,
    "default_validator": lambda i, e, a: compare(e, a, Options()),
    "space_change_sensitive": lambda i, e, a: compare(e, a, Options(space_change_sensitive=True)),
}
tokens = int(mb) * 1024 * 1024 // 3
expected = "ab" + expected_sep
expected *= tokens
output = b"ab" + output_sep.encode()
output *= tokens
result = ExecutionResult(exit_code=0, output=output)
limits = Limits(cpu_ms=1000, memory_mb=256, output_kb=128 * 1024)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
verdict = decide(limits, result, lambda actual: checks[name]("", expected, actual))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps([verdict.verdict.value, verdict.message, (after - before) * 1024, len(output)]))
"""


@pytest.mark.parametrize(
    ("name", "expected_sep", "output_sep", "want"),
    [
        ("token_check", " ", "\n", "AC"),
        ("exact_text_check", " ", "\n", "PE"),  # same tokens, one per line, not one line
        ("default_validator", " ", "\n", "AC"),
        ("space_change_sensitive", "\n", "\n", "AC"),  # compared piece by piece
    ],
)
def test_a_64_mb_output_of_tiny_tokens_is_checked_in_bounded_memory(
    name: str, expected_sep: str, output_sep: str, want: str
) -> None:
    mb = TOKEN_CHECK_MB if name == "token_check" else OTHER_MB
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, name, expected_sep, output_sep, str(mb)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    verdict, message, growth, size = json.loads(run.stdout)
    assert verdict == want, message
    # the decoded output (one copy) and a chunk of tokens at a time; a list of every
    # token of one side alone is ~20 x the output
    assert growth < 3 * size, f"{name}: peak grew {growth >> 20} MB, output {size >> 20} MB"


TOKENS = 5 * CHUNK_CHARS  # many chunks


def test_the_first_difference_past_many_chunks_is_named_as_before() -> None:
    expected = "ab " * TOKENS
    assert token_check("", expected, "ab\n" * (TOKENS - 1) + "ac") == CheckResult(
        Verdict.WA, f"token {TOKENS}: expected 'ab', got 'ac'"
    )
    assert token_check("", expected, "ab " * (TOKENS - 1)) == CheckResult(
        Verdict.WA, f"expected {TOKENS} tokens, got {TOKENS - 1}"
    )
    lines = "ab\n" * TOKENS
    assert exact_text_check("", lines, lines + "\n\n  \n") == CheckResult(Verdict.AC)
    assert exact_text_check("", lines, lines + "x") == CheckResult(
        Verdict.WA, f"expected {TOKENS} lines, got {TOKENS + 1}"
    )
    assert exact_text_check("", lines, lines.replace("\n", " \n")[:-1] + "b") == CheckResult(
        Verdict.WA, f"line {TOKENS}: expected 'ab', got 'ab b'"
    )
