# ruff: noqa: F811 (each test takes the imported `fork` fixture as an argument)
"""`verify` runs what a package brings to check its own data (tests/packages/answers, a
2025-09 package): BAPCtools' answer validators on every answer, data/invalid_input,
invalid_answer and invalid_output against the validators that must reject them,
data/valid_output against the output validator that must accept it, and
the validator arguments as the format gives them (a mapping from a validator's name to
its arguments; a case's own NAME.yaml over its folder's). Each rule is attacked by a
copy of the package in which the validators let something through; the programs run
spawned and from the fork server."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.package.problem import judge_of, package_problem
from pipeline.package.spec import PackageError, read_package
from pipeline.verify.invalid import invalid_checks
from pipeline.verify.statements import statement_checks
from tests.cli_output import without_isolation_line
from tests.package_runs import fork, own_caches  # noqa: F401 (fixtures)

# caches under tmp_path; `fork`: spawn and fork server
pytestmark = pytest.mark.usefixtures("own_caches")

PACKAGE = Path(__file__).resolve().parent / "packages" / "answers"
SERIAL = ("--address", "local-serial", "--repeat", "1")


def verify(root: Path, fork: bool) -> tuple[int, list[str]]:
    flag = "--fork-server" if fork else "--no-fork-server"
    result = CliRunner().invoke(app, ["verify", str(root), *SERIAL, flag])
    return result.exit_code, result.output.splitlines()


def package_copy(tmp_path: Path, files: dict[str, str | None] | None = None) -> Path:
    """The package in tmp_path, `files` (path -> text; None: removed) changed."""
    root = Path(shutil.copytree(PACKAGE, tmp_path / "answers"))
    for name, text in (files or {}).items():
        if text is None:
            (root / name).unlink()
        else:
            (root / name).write_text(text)
    return root


def failed(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("FAIL")]


def test_the_package_verifies(fork: bool, tmp_path: Path) -> None:
    """Every check of its own data holds: each input validator got its own arguments
    (shape.py none, range.py its group's bound, secret/2 its case's), the answers are
    valid, each invalid case is rejected (padded.ans only by the output validator
    reading it strictly)."""
    code, lines = verify(package_copy(tmp_path), fork)
    assert code == 0, lines
    assert "PASS  inputs: every input is valid: 3 inputs, 2 input validators" in lines
    assert "PASS  answers: every answer is valid: 3 answers, 1 answer validator" in lines
    assert "PASS  invalid inputs: each of 2 invalid inputs is rejected" in lines
    assert "PASS  invalid answers: each of 2 invalid answers is rejected" in lines
    assert "PASS  invalid outputs: each of 1 invalid outputs is rejected" in lines
    assert "PASS  valid outputs: each of 2 valid outputs is accepted" in lines  # sample/1 too
    assert "PASS  statement languages: a name for each statement: en" in lines
    assert not [line for line in lines if line.startswith("WARN")], lines  # secret/2.yaml's keys
    assert (
        "SKIP  accepted/sum.rb.disabled: set aside by its name (.disabled, .template): not run "
        "(bt passes over it too)"
    ) in lines


def test_an_answer_the_answer_validator_rejects_fails_by_name(fork: bool, tmp_path: Path) -> None:
    root = package_copy(tmp_path, {"data/sample/1.ans": "9\n"})  # over 1 + 2
    code, lines = verify(root, fork)
    assert code == 1, lines
    assert (
        "FAIL  answer data/sample/1.ans: rejected: answer validator bounded.py exit code 43"
        in lines
    ), lines


def test_answer_validators_get_answer_validator_args_not_the_output_validators(
    fork: bool, tmp_path: Path
) -> None:
    """As BAPCtools gives them: a folder's output_validator_args do not reach the answer
    validator (bounded.py rejects any argument but --exact), its answer_validator_args
    do (--loose: rejected), and a case's own NAME.yaml replaces its folder's (secret/2:
    none)."""
    group = (
        "input_validator_args:\n  range: [--max, '5']\n"
        "output_validator_args: [--verbose]\nanswer_validator_args: [--exact]\n"
    )
    case = "input_validator_args:\n  range: [--max, '10']\nanswer_validator_args: []\n"
    files = {"data/secret/test_group.yaml": group, "data/secret/2.yaml": case}
    code, lines = verify(package_copy(tmp_path, files), fork)
    assert code == 0, lines
    assert "PASS  answers: every answer is valid: 3 answers, 1 answer validator" in lines
    files["data/secret/test_group.yaml"] = group.replace("--exact", "--loose")  # unknown
    code, lines = verify(package_copy(tmp_path / "loose", files), fork)
    assert code == 1, lines
    assert failed(lines) == [
        "FAIL  answer data/secret/1.ans: rejected: answer validator bounded.py exit code 43"
    ], lines


def test_an_invalid_answer_the_validators_accept_fails(fork: bool, tmp_path: Path) -> None:
    """A right answer in invalid_answer gets through every validator; an answer to an
    input the input validators reject is no invalid answer either."""
    root = package_copy(
        tmp_path,
        {
            "data/invalid_answer/right.in": "1 2\n",
            "data/invalid_answer/right.ans": "3\n",
            "data/invalid_answer/bad_input.in": "1 2 3\n",
            "data/invalid_answer/bad_input.ans": "-1\n",
        },
    )
    code, lines = verify(root, fork)
    assert code == 1, lines
    assert failed(lines) == [
        "FAIL  invalid answer data/invalid_answer/bad_input.in: its input must be valid: "
        "input validator range.py exit code 43",
        "FAIL  invalid answer data/invalid_answer/right.in: accepted by every answer "
        "validator and by the output validator: it must be rejected",
    ], lines


def test_an_invalid_output_the_output_validator_accepts_fails(fork: bool, tmp_path: Path) -> None:
    root = package_copy(
        tmp_path,
        {
            "data/invalid_output/right.in": "1 2\n",
            "data/invalid_output/right.ans": "3\n",
            "data/invalid_output/right.out": "3\n",
        },
    )
    code, lines = verify(root, fork)
    assert code == 1, lines
    assert failed(lines) == [
        "FAIL  invalid output data/invalid_output/right.in: its .out is accepted by the "
        "output validator: it must be rejected"
    ], lines


def test_a_valid_output_the_output_validator_rejects_fails(fork: bool, tmp_path: Path) -> None:
    """valid_output: each .out must be accepted (a wrong sum is not; a sample's .out
    too), and, as in invalid_output, its input must be valid (an input over the bound
    is not)."""
    root = package_copy(
        tmp_path,
        {
            "data/valid_output/wrong.in": "1 2\n",
            "data/valid_output/wrong.ans": "3\n",
            "data/valid_output/wrong.out": "4\n",
            "data/sample/1.out": "3 \n4\n",
            "data/invalid_output/bad_input.in": "1 2000\n",
            "data/invalid_output/bad_input.ans": "2001\n",
            "data/invalid_output/bad_input.out": "7\n",
        },
    )
    code, lines = verify(root, fork)
    assert code == 1, lines
    assert failed(lines) == [
        "FAIL  invalid output data/invalid_output/bad_input.in: its input must be valid: "
        "input validator range.py exit code 43",
        "FAIL  valid output data/sample/1.in: its .out is WA by the output validator: it "
        "must be accepted",
        "FAIL  valid output data/valid_output/wrong.in: its .out is WA by the output "
        "validator: it must be accepted",
    ], lines


def test_arguments_for_every_validator_and_no_case_file_reject_inputs(
    fork: bool, tmp_path: Path
) -> None:
    """The same arguments for every validator (shape.py rejects any: secret/1, not
    secret/2, whose own NAME.yaml names range.py alone), or secret/2 without its own
    NAME.yaml (6 is over its group's bound of 5): inputs rejected."""
    every = "input_validator_args: [--max, '5']\n"
    code, lines = verify(package_copy(tmp_path, {"data/secret/test_group.yaml": every}), fork)
    assert code == 1, lines
    assert failed(lines) == [
        "FAIL  input data/secret/1.in: rejected: input validator shape.py exit code 43"
    ], lines
    root = package_copy(tmp_path / "no_case_file", {"data/secret/2.yaml": None})
    code, lines = verify(root, fork)
    assert code == 1, lines
    assert failed(lines) == [
        "FAIL  input data/secret/2.in: rejected: input validator range.py exit code 43"
    ], lines


def test_a_cases_output_validator_args_replace_its_groups(tmp_path: Path) -> None:
    """Read only: the default validator's flags of the case with its own NAME.yaml."""
    root = tmp_path / "tolerant"
    (root / "data" / "secret").mkdir(parents=True)
    (root / "problem.yaml").write_text("problem_format_version: 2025-09\nname: T\n")
    (root / "data" / "secret" / "test_group.yaml").write_text(
        "output_validator_args: [float_tolerance, '0.1']\n"
    )
    for name, text in (("1", "1.0\n"), ("2", "2.0\n")):
        (root / "data" / "secret" / f"{name}.in").write_text(f"{name}\n")
        (root / "data" / "secret" / f"{name}.ans").write_text(text)
    (root / "data" / "secret" / "2.yaml").write_text(
        "output_validator_args: [float_tolerance, '0.5']\n"
    )
    judge = judge_of(package_problem(root))
    assert judge is not None
    assert judge.case_flags("1\n", "1.0\n")[0] == ("float_tolerance", "0.1")
    assert judge.case_flags("2\n", "2.0\n")[0] == ("float_tolerance", "0.5")
    assert judge.check("2\n", "2.0\n", "2.4\n").verdict == "AC"
    assert judge.check("1\n", "1.0\n", "1.4\n").verdict == "WA"


def test_a_legacy_input_validator_flags_mapping_names_one_validator(tmp_path: Path) -> None:
    """legacy `input_validator_flags: {name: V, flags: F}`: V gets F, the others none."""
    root = tmp_path / "legacy"
    (root / "data" / "secret").mkdir(parents=True)
    (root / "problem.yaml").write_text("name: L\n")
    (root / "data" / "secret" / "testdata.yaml").write_text(
        "input_validator_flags:\n  name: range\n  flags: --max 5\n"
    )
    given = read_package(root).folders["secret"].input_flags
    assert given.of(root / "input_validators" / "range.py") == ("--max", "5")
    assert given.of(root / "input_validators" / "range") == ("--max", "5")
    assert given.of(root / "input_validators" / "shape.py") == ()


@pytest.mark.parametrize(
    ("file", "text", "said"),
    [
        ("data/secret/2.yaml", "input_validator_args: 5\n", "must be a sequence of strings"),
        ("data/secret/2.yaml", "output_validator_args: {a: 1}\n", "must be a sequence"),
        ("data/secret/2.yaml", "input_validator_args:\n  range: [[1]]\n", "range must be a"),
        ("data/secret/2.yaml", "[1, 2]\n", "expected a mapping"),
        ("data/secret/test_group.yaml", "input_validator_args: {range: 5}\n", "must be a"),
        ("data/secret/test_group.yaml", "input_validator_args: {1: [a]}\n", "not a validator"),
        ("data/secret/2.yaml", "args: [--fast]\n", "command-line arguments of the submissions"),
        ("data/secret/test_group.yaml", "args: [--fast]\n", "not supported"),
    ],
)
def test_an_argument_of_the_wrong_type_is_one_line_naming_the_file(
    tmp_path: Path, file: str, text: str, said: str
) -> None:
    root = package_copy(tmp_path, {file: text})
    with pytest.raises(PackageError, match=said) as raised:
        package_problem(root)
    assert str(root / file) in str(raised.value)
    result = CliRunner().invoke(app, ["verify", str(root), *SERIAL])
    output = without_isolation_line(result.output)  # an ordinary user's run says it first
    assert result.exit_code == 2 and output.count("\n") == 1, output
    assert str(root / file) in output and said in output, output


def test_a_key_the_format_does_not_define_in_a_case_file_is_a_warning(tmp_path: Path) -> None:
    """The format asks for an error, BAPCtools warns: a WARN line naming the file and the
    key (and a known key of the wrong type), which --strict fails."""
    given = "input_validator_args:\n  range: [--max, '10']\nfull_feedbak: true\nhint: 5\n"
    root = package_copy(tmp_path, {"data/secret/2.yaml": given})
    code, lines = verify(root, False)
    warned = [line for line in lines if line.startswith("WARN")]
    assert code == 0 and warned == [
        "WARN  test case file: data/secret/2.yaml: unknown key 'full_feedbak'",
        "WARN  test case file: data/secret/2.yaml: hint must be a string, not 5",
    ], lines
    result = CliRunner().invoke(app, ["verify", str(root), *SERIAL, "--no-fork-server", "--strict"])
    assert result.exit_code == 1, result.output


def test_a_statement_without_a_name_and_a_name_without_a_statement_fail(tmp_path: Path) -> None:
    """2025-09: the languages of `name` are exactly those of the statements (bt's
    hellowholeworld: a Swedish statement unnamed, a German name without a statement)."""
    root = package_copy(tmp_path, {"statement/problem.sv.tex": "Summa\n"})
    yaml = root / "problem.yaml"
    yaml.write_text(yaml.read_text().replace("name: Sum", "name:\n  en: Sum\n  de: Summe\n#"))
    assert [(c.status, c.name, c.detail) for c in statement_checks(read_package(root))] == [
        (
            "FAIL",
            "statement languages",
            "statement/problem.sv.* has no name in problem.yaml; "
            "name in de has no statement/problem.de.*",
        )
    ]
    yaml.write_text(yaml.read_text().replace("de: Summe", "sv: Summa"))
    assert [c.status for c in statement_checks(read_package(root))] == ["PASS"]


def test_the_default_validator_must_reject_an_invalid_output(tmp_path: Path) -> None:
    """No program runs: gridjudge's default validator, with the folder's flags."""
    root = tmp_path / "default"
    (root / "data" / "secret").mkdir(parents=True)
    (root / "problem.yaml").write_text("problem_format_version: 2025-09\nname: D\n")
    (root / "data" / "secret" / "1.in").write_text("1\n")
    (root / "data" / "secret" / "1.ans").write_text("1.0\n")
    invalid = root / "data" / "invalid_output"
    invalid.mkdir()
    (invalid / "test_group.yaml").write_text("output_validator_args: [float_tolerance, '0.5']\n")
    for name, out in (("far", "2.0\n"), ("near", "1.4\n")):
        (invalid / f"{name}.in").write_text("1\n")
        (invalid / f"{name}.ans").write_text("1.0\n")
        (invalid / f"{name}.out").write_text(out)
    package, problem = read_package(root), package_problem(root)
    assert [(c.status, c.name) for c in invalid_checks(package, problem, fork=False)] == [
        ("FAIL", "invalid output data/invalid_output/near.in")  # within 0.5 of 1.0
    ]


def test_a_checktestdata_answer_validator_reads_the_answer_and_viva_is_skipped(
    tmp_path: Path,
) -> None:
    """`03` passes bounded.py (3 <= 1 + 2) but not the script's INT (no leading zero);
    a viva script is one SKIP line, not a package refused."""
    root = package_copy(
        tmp_path,
        {
            "answer_validators/number.ctd": "INT(0, 1000) NEWLINE EOF\n",
            "answer_validators/number.viva": "<viva script>\n",
            "data/sample/1.ans": "03\n",
        },
    )
    code, lines = verify(root, False)
    assert code == 1, lines
    assert [x.split(": 1:1")[0] for x in failed(lines)] == [
        "FAIL  answer data/sample/1.ans: rejected: answer validator number.ctd exit code 43"
    ], lines
    assert (
        "SKIP  answer validator: number.viva: viva validators are not supported; not run" in lines
    ), lines
