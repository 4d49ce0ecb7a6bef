"""Problem packages (Kattis / ICPC format) graded like built-in problems: the packages in
tests/packages, imported and graded through the CLI (serial, and once on the embedded
local Ray); custom output validators in C++ and Python, a testlib checker, a scoring
package's groups, an input the input validator rejects, a checker that crashes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.grade.cases import Cases, prepare
from pipeline.package.spec import PackageError, read_package
from pipeline.package.submissions import read_submissions
from pipeline.problem.contract import ValidatorUnavailable
from pipeline.problem.registry import RegistryError, get_problem
from pipeline.program.languages import get_language, missing
from tests.cli_output import without_isolation_line

PACKAGES = Path(__file__).resolve().parent / "packages"


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, without_isolation_line(result.output)


def imported(package: Path, out: Path) -> Path:
    code, output = cli("import", str(package), "--problem", str(package), "--out", str(out))
    assert code == 0, output
    return out


def graded(
    corpus: Path, run: Path, *subs: Path, serial: bool = True
) -> dict[tuple[str, str], dict]:
    """(submission file name, case id) -> its results row."""
    specs = [a for s in subs for a in ("-s", str(s))]
    address = ["--address", "local-serial"] if serial else []
    code, output = cli("grade", str(corpus), *specs, "--out", str(run), *address)
    assert code == 0, output
    rows = pq.read_table(run / "results").to_pylist()
    return {(Path(r["submission"]).name, r["case_id"]): r for r in rows}


def copy(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(PACKAGES / name, tmp_path / name, symlinks=True))


@pytest.fixture(autouse=True)
def _no_result_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRIDJUDGE_RESULT_CACHE", "off")


def test_legacy_and_2023_problem_yaml_are_read() -> None:
    average = read_package(PACKAGES / "average")
    assert (average.title, average.limits.cpu_ms, average.limits.memory_mb) == (
        "Average of two", 1000.0, 256,
    )  # fmt: skip
    assert average.validator_flags == ("float_tolerance", "1e-6") and not average.custom
    groups = read_package(PACKAGES / "groups")
    assert groups.title == "Doubling" and groups.scoring and groups.time_limit_given
    assert groups.folders["secret/small"].aggregation == "min"
    assert groups.folders["secret/small"].score == 40
    assert groups.folders["secret/large"].score == 60
    assert read_package(PACKAGES / "pairsum_testlib").protocol == "testlib"


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        ("type: submit-answer\n", "problem type 'submit-answer' is not supported"),
        ("type: interactive\n", "type interactive needs a custom output validator"),
        ("validation: custom interactive\n", "expected one output validator, found 0"),
        (
            "type: multi-pass\nvalidation: custom\nlimits:\n  validation_passes: 1\n",
            "validation_passes must be an integer >= 2",
        ),
        ("limits:\n  memory: lots\n", "memory must be a number"),
        ("validation: custom\n", "expected one output validator, found 0"),
        ("validator_flags: float_tolerence 1\n", "unknown default validator flag"),
        ("[1, 2\n", "not valid YAML at line"),
        ("gridjudge:\n  input_file: ../clocks.in\n", "gridjudge.input_file must be a plain"),
        (
            "gridjudge:\n  stdin: no\n",
            "gridjudge: unknown setting `stdin`",
        ),
        (
            "gridjudge:\n  checkr: judge\n",
            "gridjudge: unknown setting `checkr` - did you mean `checker`",
        ),
    ],
)
def test_a_package_gridjudge_cannot_use_fails_in_one_line(
    tmp_path: Path, yaml_text: str, message: str
) -> None:
    package = copy("average", tmp_path)
    (package / "problem.yaml").write_text(yaml_text)
    with pytest.raises(PackageError, match=message):
        get_problem(str(package))
    out = str(tmp_path / "x")
    code, output = cli("import", str(package), "--problem", str(package), "--out", out)
    assert code == 2 and output.count("\n") == 1 and message in output, output


def test_the_time_multipliers_and_named_files(tmp_path: Path) -> None:
    """The multipliers' defaults follow the format version; gridjudge's own key names
    the files a program may read and write besides stdin and stdout."""
    assert (
        read_package(PACKAGES / "average").time_multiplier,
        read_package(PACKAGES / "average").time_safety_margin,
    ) == (5.0, 2.0)  # legacy
    groups = read_package(PACKAGES / "groups")  # 2023-07
    assert (groups.time_multiplier, groups.time_safety_margin, groups.time_resolution) == (
        2.0, 1.5, 1.0,
    )  # fmt: skip
    package = copy("average", tmp_path)
    (package / "problem.yaml").write_text(
        "problem_format_version: 2023-07-draft\nname: Average\nlimits:\n  time_multipliers:\n"
        "    ac_to_time_limit: 3\n  time_resolution: 0.5\n"
        "gridjudge:\n  input_file: avg.in\n  output_file: avg.out\n"
    )
    read = read_package(package)
    assert (read.time_multiplier, read.time_safety_margin, read.time_resolution) == (3, 1.5, 0.5)
    io = get_problem(str(package)).io
    assert (io.input_file, io.output_file) == ("avg.in", "avg.out")


def test_default_validator_with_float_tolerance_and_symlinked_cases(tmp_path: Path) -> None:
    package = PACKAGES / "average"
    corpus = imported(package, tmp_path / "corpus")
    subs = package / "submissions"
    rows = graded(
        corpus, tmp_path / "run", subs / "accepted/close.py", subs / "wrong_answer/far.py"
    )
    cases = {case for _, case in rows}
    assert cases == {"sample/1", "secret/1", "secret/2"}  # secret/2 is a symlink
    assert {r["verdict"] for (sub, _), r in rows.items() if sub == "close.py"} == {"AC"}
    assert {r["verdict"] for (sub, _), r in rows.items() if sub == "far.py"} == {"WA"}


def test_an_input_the_input_validator_rejects_stops_the_import(tmp_path: Path) -> None:
    package = copy("average", tmp_path)
    (package / "data/secret/3.in").write_text("-5 2\n")
    (package / "data/secret/3.ans").write_text("-1.5\n")
    problem = get_problem(str(package))
    assert problem.validate("-5 2\n") and not problem.validate("5 2\n")
    out = tmp_path / "c"
    code, output = cli("import", str(package), "--problem", str(package), "--out", str(out))
    assert code == 2 and output.count("\n") == 1, output
    assert "secret/3.in: input rejected: input validator validate.py exit code 43" in output
    assert not out.exists()  # no half-written corpus is left behind


def _needs(language: str) -> None:
    reason = missing(get_language(language))
    if reason is not None:
        pytest.skip(f"no {language} toolchain here: {reason}")


@pytest.mark.parametrize(("name", "language"), [("pairsum_cpp", "cpp"), ("pairsum_py", "python")])
def test_custom_output_validator(tmp_path: Path, name: str, language: str) -> None:
    _needs(language)
    package = PACKAGES / name
    problem = get_problem(str(package))
    # the answer file is no valid output: a custom validator is asked even for its text
    assert str(problem.check("5\n", "5\n", "5\n").verdict) == "WA"
    subs = package / "submissions"
    rows = graded(
        imported(package, tmp_path / "c"), tmp_path / "r",
        subs / "accepted/split.py", subs / "wrong_answer/off.py",
    )  # fmt: skip
    assert rows["split.py", "secret/1"]["verdict"] == "AC"
    wrong = rows["off.py", "secret/1"]
    assert wrong["verdict"] == "WA" and wrong["checker_msg"] == "sum is 13, not 12"  # judgemessage


def test_testlib_checker_exit_codes() -> None:
    problem = get_problem(str(PACKAGES / "pairsum_testlib"))
    got = {out: problem.check("5\n", "5\n", out) for out in ("2 3\n", "2 2\n", "two three\n")}
    assert [str(c.verdict) for c in got.values()] == ["AC", "WA", "PE"]
    assert got["2 2\n"].message == "wrong answer: sum is 4"
    fail = problem.check("5\n", "6\n", "2 3\n")  # exit 3: the checker says the judge is wrong
    assert str(fail.verdict) == "JE" and "FAIL" in fail.message


CRASHING = """import sys
if open(sys.argv[1]).read().strip() == "12":
    raise RuntimeError("validator bug")
sys.exit(42)
"""


def test_a_crashing_checker_is_a_judge_error_never_a_wrong_answer(tmp_path: Path) -> None:
    package = copy("pairsum_py", tmp_path)
    (package / "output_validators/check/validate.py").write_text(CRASHING)
    subs = package / "submissions"
    rows = graded(imported(package, tmp_path / "c"), tmp_path / "r", subs / "accepted/split.py")
    assert rows["split.py", "sample/1"]["verdict"] == "AC"
    crashed = rows["split.py", "secret/1"]
    assert crashed["verdict"] == "JE" and "exit code 1" in crashed["checker_msg"]
    assert "validator bug" in crashed["checker_msg"]
    code, output = cli("score", str(tmp_path / "r"))
    assert code == 0, output


def test_scoring_groups_score_a_partially_accepted_submission(tmp_path: Path) -> None:
    package = PACKAGES / "groups"
    subs = read_submissions(package)
    partial = next(s for s in subs if s.folder == "partially_accepted")
    assert partial.score == (70.0, 70.0) and partial.required == frozenset()
    accepted = next(s for s in subs if s.folder == "accepted")
    assert accepted.permitted == {"AC"}
    run = tmp_path / "run"
    graded(imported(package, tmp_path / "c"), run, accepted.path, partial.path)
    rows = pq.read_table(run / "gradebook.parquet").to_pylist()
    book = {Path(r["submission"]).name: r for r in rows}
    assert book["double.py"]["score"] == 100 and book["double.py"]["max_score"] == 100
    # small (min, 40 points) passed; large (sum, 60 points) one case of two
    partly = book["small_only.py"]
    assert partly["score"] == pytest.approx(70)
    assert partly["points_small"] == 40 and partly["points_sample"] == 0


def test_grade_needs_the_answers_of_a_package(tmp_path: Path) -> None:
    package = copy("average", tmp_path)
    (package / "data/secret/1.ans").unlink()
    corpus = imported(package, tmp_path / "c")
    code, output = cli(
        "grade", str(corpus), "-s", str(package / "submissions/accepted/close.py"),
        "--out", str(tmp_path / "r"), "--address", "local-serial",
    )  # fmt: skip
    assert code == 2 and output.count("\n") == 1 and "no reference solver" in output, output


def test_stress_and_generate_say_a_package_has_no_generator(tmp_path: Path) -> None:
    package = str(PACKAGES / "average")
    sub = str(PACKAGES / "average/submissions/accepted/close.py")
    for args in (
        ["stress", package, "--submission", sub],
        ["generate", package, "--count", "3", "--out", str(tmp_path / "g")],
    ):
        code, output = cli(*args)
        assert code == 2 and output.count("\n") == 1 and "has no generator" in output, output


@pytest.mark.ray
@pytest.mark.slow
def test_a_package_grades_on_the_embedded_local_ray(tmp_path: Path, ray_cluster: object) -> None:
    # grade joins the suite's shared embedded Ray (already running in this process): a
    # Ray of its own cost a start and a stop here and a restart of the shared one after
    _needs("cpp")
    package = PACKAGES / "pairsum_cpp"
    subs = package / "submissions"
    rows = graded(
        imported(package, tmp_path / "c"), tmp_path / "r",
        subs / "accepted/split.py", subs / "wrong_answer/off.py", serial=False,
    )  # fmt: skip
    verdicts = {key: r["verdict"] for key, r in rows.items()}
    assert verdicts == {
        ("split.py", "sample/1"): "AC", ("split.py", "secret/1"): "AC",
        ("off.py", "sample/1"): "WA", ("off.py", "secret/1"): "WA",
    }  # fmt: skip


def test_an_input_validator_that_cannot_run_is_a_judge_error_not_a_bad_input(
    tmp_path: Path,
) -> None:
    package = copy("average", tmp_path)
    (package / "input_validators/validate.py").write_text("def broken(:\n")
    problem = get_problem(str(package))
    with pytest.raises(ValidatorUnavailable, match="did not compile"):
        problem.validate("1 2\n")
    cases = Cases.of([{"case_id": "a", "family": "f", "input": "1 2\n", "expected": "1.5\n"}])
    _, _, rejected = prepare(problem, cases, validate=True)
    assert rejected.verdicts == ["JE"] and "did not compile" in rejected.messages[0]
    out = tmp_path / "c"
    code, output = cli("import", str(package), "--problem", str(package), "--out", str(out))
    assert code == 2 and output.count("\n") == 1 and "did not compile" in output, output
    assert not out.exists()


def test_a_package_is_named_by_its_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name a corpus records and a worker resolves again, from any working dir."""
    monkeypatch.chdir(PACKAGES)
    problem = get_problem("average")
    assert problem.name == str(PACKAGES / "average") and problem.default_solver is None
    assert get_problem(problem.name) is problem
    with pytest.raises(RegistryError, match=r"unknown problem .* or a problem package folder"):
        get_problem(str(tmp_path))  # a folder without problem.yaml
