"""Every language version, graded on the golden corpus: a correct and a wrong program for
gomoku (stdin/stdout) and for clocks (clocks.in -> clocks.out) get AC and WA, and a
compile error is CE with the compiler's message. Builds go to the usual compile cache,
so the self-test and a second run reuse them."""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pipeline.grade.verdict import judge
from pipeline.limits import Limits
from pipeline.problem.registry import get_problem
from pipeline.program.languages import Language, all_languages, missing
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare

PROGRAMS = Path(__file__).resolve().parent / "submissions" / "languages"
# generous: these tests are about building and running each language, not its speed
LIMITS = Limits.from_seconds(20.0, memory_mb=256)
# gomoku: some cases of each family (the wrong program misses the diagonal ones)
GOMOKU_CASES = ("sample/0001", "designed_diag/0001", "designed_anti/0002", "designed_row/0001")
GOMOKU_CASES += ("rule_details/0003", "none/0001")
CLOCKS_CASES = ("sample/0001", "all12/0001", "many_moves/0001")
WRONG_SWITCH = re.compile(r"(\bWRONG\b[^=\n]*=\s*)(false|False|0)\b", re.IGNORECASE)
TRUE = {"false": "true", "False": "True", "0": "1"}

pytestmark = pytest.mark.slow
Built = dict[tuple[str, str, str], PreparedSubmission]


def usable(lang: Language) -> Language:
    """The language, or a skip (a failure under CI=true) when its toolchain is missing."""
    reason = missing(lang)
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must have every toolchain: {reason}")
        pytest.skip(reason)
    return lang


def program(lang: Language, problem: str) -> Path:
    """The program of this language's family for `problem` (Java: Gomoku.java)."""
    ext = lang.extensions[0]
    for name in (problem, problem.capitalize()):
        if (PROGRAMS / f"{name}{ext}").is_file():
            return PROGRAMS / f"{name}{ext}"
    raise AssertionError(f"no {problem} program for {lang.name} in {PROGRAMS}")


def wrong_copy(source: Path, folder: Path) -> Path:
    """The same program with its WRONG switch turned on (same file name)."""
    text = source.read_text()
    turned, n = WRONG_SWITCH.subn(lambda m: m.group(1) + TRUE[m.group(2)], text, count=1)
    assert n == 1, f"{source.name} has no WRONG switch"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / source.name
    target.write_text(turned)
    return target


def _build(lang: Language, source: Path, problem_name: str) -> PreparedSubmission:
    return prepare(parse_spec(f"{lang.name}:{source}"), get_problem(problem_name))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """(language, problem, right|wrong|broken) -> the prepared program of every available
    language, built two at a time up front (compilers are mostly single-threaded)."""
    jobs = {}
    for lang in all_languages().values():
        if missing(lang) is not None:
            continue
        folder = tmp_path_factory.mktemp(lang.name)
        for problem in ("gomoku", "clocks"):
            source = program(lang, problem)
            jobs[(lang.name, problem, "right")] = (lang, source, problem)
            jobs[(lang.name, problem, "wrong")] = (
                lang,
                wrong_copy(source, folder / problem),
                problem,
            )
        broken = folder / f"broken{lang.extensions[0]}"
        broken.write_text(lang.self_test.compile_error)
        jobs[(lang.name, "gomoku", "broken")] = (lang, broken, "gomoku")
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = pool.map(lambda job: _build(*job), jobs.values())
        return dict(zip(jobs, done, strict=True))


def verdicts(
    sub: PreparedSubmission, problem_name: str, cases: tuple[str, ...], golden: Path
) -> dict[str, str]:
    problem = get_problem(problem_name)
    assert sub.compile_error is None, sub.compile_error

    def one(case: str) -> str:
        base = golden / problem_name / case
        text, expected = base.with_suffix(".in").read_text(), base.with_suffix(".ans").read_text()
        result = sub.run(text, LIMITS)
        check = judge(problem, text, expected, result, LIMITS)
        return f"{check.verdict}" + ("" if check.verdict == "AC" else f": {check.message}")

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(cases, pool.map(one, cases), strict=True))


NAMES = list(all_languages())


@pytest.mark.parametrize("name", NAMES)
def test_gomoku_right_and_wrong(name: str, golden_dir: Path, built: Built) -> None:
    usable(all_languages()[name])
    right = verdicts(built[(name, "gomoku", "right")], "gomoku", GOMOKU_CASES, golden_dir)
    assert set(right.values()) == {"AC"}, right
    wrong = verdicts(built[(name, "gomoku", "wrong")], "gomoku", GOMOKU_CASES, golden_dir)
    kinds = {v.split(":")[0] for v in wrong.values()}
    assert kinds == {"AC", "WA"}, wrong  # right on some boards, wrong on the diagonal ones
    assert wrong["designed_diag/0001"].startswith("WA"), wrong


@pytest.mark.parametrize("name", NAMES)
def test_clocks_file_io_right_and_wrong(name: str, golden_dir: Path, built: Built) -> None:
    usable(all_languages()[name])
    right = verdicts(built[(name, "clocks", "right")], "clocks", CLOCKS_CASES, golden_dir)
    assert set(right.values()) == {"AC"}, right
    wrong = verdicts(built[(name, "clocks", "wrong")], "clocks", CLOCKS_CASES, golden_dir)
    assert wrong["many_moves/0001"].startswith("WA"), wrong  # descending order
    assert wrong["all12/0001"] == "AC", wrong  # nothing to reverse


@pytest.mark.parametrize("name", NAMES)
def test_compile_error_is_ce_with_the_compilers_message(name: str, built: Built) -> None:
    lang = usable(all_languages()[name])
    sub = built[(name, "gomoku", "broken")]
    assert sub.compile_error is not None
    assert lang.self_test.error_word.lower() in sub.compile_error.lower(), sub.compile_error
    assert "broken" in sub.compile_error, sub.compile_error  # the user's file name
