# ruff: noqa: F811 (each test takes the imported `fork` fixture as an argument)
"""A 2025-09 `submissions.yaml` says how a submission is built as well as what it must
get: `language` (a code of the format's languages table) over the extension, and
`entrypoint` (the file or class that starts a submission of several sources) over the
language's rule. Attacked with submissions that are only right when built as the file
says; run spawned and from the fork server."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.package.spec import PackageError
from pipeline.package.submissions import read_submissions
from pipeline.program.build import entry_source
from tests.cli_output import without_isolation_line
from tests.package_runs import fork  # noqa: F401 (the fixture)
from tests.test_verify_answers import failed, package_copy, verify
from tests.test_verify_answers import own_caches as own_caches  # the fixture (autouse)

WRONG = "import sys\n\na, b = map(int, sys.stdin.read().split())\nprint(a - b)\n"
RIGHT = "import sys\n\na, b = map(int, sys.stdin.read().split())\nprint(a + b)\n"


def with_submissions(tmp_path: Path, rules: dict[str, object]) -> Path:
    """The answers package with two submissions right only as `rules` build them: a
    folder whose first source (the rule's pick) is wrong, a `.py3` file (the table's
    Python 3 extension, not one gridjudge tells by)."""
    root = package_copy(
        tmp_path,
        {"submissions/accepted/sum.py3": RIGHT},
    )
    folder = root / "submissions" / "accepted" / "multi"
    folder.mkdir()
    (folder / "a.py").write_text(WRONG)
    (folder / "solve.py").write_text(RIGHT)
    (root / "submissions" / "submissions.yaml").write_text(yaml.safe_dump(rules))
    return root


def test_language_and_entrypoint_build_the_submission(fork: bool, tmp_path: Path) -> None:
    rules = {
        "accepted/multi": {"entrypoint": "solve.py"},
        "accepted/sum.py3": {"language": "python3"},
    }
    code, lines = verify(with_submissions(tmp_path, rules), fork)
    assert code == 0, lines
    assert "PASS  accepted/multi: AC 3" in lines, lines
    assert "PASS  accepted/sum.py3: AC 3" in lines, lines


def test_without_them_the_submissions_are_built_otherwise(fork: bool, tmp_path: Path) -> None:
    """The same package without the build keys: a.py starts the folder, and no
    language is told by `.py3`."""
    code, lines = verify(with_submissions(tmp_path, {}), fork)
    assert code == 1, lines
    assert sorted(line.split(":")[0] for line in failed(lines)) == [
        "FAIL  accepted/multi",
        "FAIL  accepted/sum.py3",
    ], lines


def test_a_language_or_entrypoint_gridjudge_cannot_use_fails_the_submission(
    tmp_path: Path,
) -> None:
    rules = {
        "accepted/multi": {"entrypoint": "nope.py"},
        "accepted/sum.py3": {"language": "python2"},
    }
    code, lines = verify(with_submissions(tmp_path, rules), False)
    assert code == 1, lines
    assert sorted(line.split(":")[0] for line in failed(lines)) == [
        "FAIL  accepted/multi",
        "FAIL  accepted/sum.py3",
    ], lines
    multi, py3 = failed(lines)
    assert "entrypoint 'nope.py' names none of its sources (a.py, solve.py)" in multi
    assert "unknown language 'python2'" in py3


@pytest.mark.parametrize("key", ["language", "entrypoint"])
def test_a_build_key_of_the_wrong_type_is_one_line(tmp_path: Path, key: str) -> None:
    root = with_submissions(tmp_path, {"accepted/multi": {key: ["solve.py"]}})
    file = root / "submissions" / "submissions.yaml"
    with pytest.raises(PackageError, match=f"{key} must be a string"):
        read_submissions(root)
    result = CliRunner().invoke(app, ["verify", str(root), "--address", "local-serial"])
    output = without_isolation_line(result.output)  # an ordinary user's run says it first
    assert result.exit_code == 2 and output.count("\n") == 1, output
    assert str(file) in output, output


def test_a_build_key_alone_keeps_the_folders_expectations(tmp_path: Path) -> None:
    """`language` or `entrypoint` alone says how to build, not what to expect."""
    root = with_submissions(tmp_path, {"accepted/multi": {"entrypoint": "solve.py"}})
    multi = next(s for s in read_submissions(root) if s.path.name == "multi")
    assert (multi.entrypoint, multi.listed) == ("solve.py", False)


def test_an_entry_point_names_a_file_or_a_class() -> None:
    assert entry_source(["a.py", "solve.py"], "solve.py") == "solve.py"
    assert entry_source(["Main.java", "Other.java"], "Other") == "Other.java"
    assert entry_source(["Main.java", "Other.java"], "com.example.Other") == "Other.java"
    assert entry_source(["lib.kt", "main.kt"], "MainKt") == "main.kt"
    with pytest.raises(ValueError, match="names none of its sources"):
        entry_source(["a.py"], "b.py")
