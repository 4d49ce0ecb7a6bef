"""Every YAML file a user or a package brings is read by one bounded reader
(pipeline.yamlfile.read_yaml): an alias bomb, a recursive alias, nesting past the bound
or a document past the size bound is one line naming the file, before any value is
built, whichever file it is (issue 38: a bomb in problem.yaml's `name` took `verify` 86 s
and 5.9 GB, then PASS; one in a testdata.yaml made an error line of 312 MB)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import GridjudgeError
from pipeline.jobs.config import ConfigError, load_config
from pipeline.package.spec import PackageError, read_package
from pipeline.package.submissions import read_submissions
from pipeline.scoring.policy import ScoringError, load_policy
from pipeline.yamlfile import read_yaml

# yamlfile's bounds (test_the_bounds_are_the_readers checks they are)
MAX_ALIASED, MAX_BYTES, MAX_DEPTH = 10_000, 1 << 20, 100
PACKAGES = Path(__file__).resolve().parent / "packages"
ONE_LINE = 300  # what a refusal naming a file takes at most here


def bomb(width: int, depth: int) -> str:
    """A flow list of `depth` anchored lists, each `width` aliases of the one before:
    width**depth strings once expanded, in a few hundred bytes."""
    parts = ["&a0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, depth):
        parts.append(f"&a{level} [" + ", ".join([f"*a{level - 1}"] * width) + "]")
    return "[" + ", ".join(parts) + "]"


# the issue's bomb: 9**9 strings; and one just past the bound, cheap to expand (the
# readers' test must fail on code that expands it, without taking the machine)
ISSUE_BOMB = bomb(9, 9)
SMALL_BOMB = bomb(9, 5)
assert MAX_ALIASED < 9**5


class Refused(GridjudgeError):
    pass


def test_the_bounds_are_the_readers() -> None:
    from pipeline import yamlfile

    assert (yamlfile.MAX_ALIASED, yamlfile.MAX_BYTES, yamlfile.MAX_DEPTH) == (
        MAX_ALIASED,
        MAX_BYTES,
        MAX_DEPTH,
    )


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (f"name: {ISSUE_BOMB}\n", "aliases repeat more than"),
        ("a: &x [1, *x]\n", "an alias inside the value it names"),
        ("a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", "nested deeper than"),
        ("a: " + "[" * 200_000 + "\n", "nested deeper than"),  # stops as it meets it
        ("a:\n" + "".join(" " * n + "- \n" for n in range(1, 400)), "nested deeper than"),
        ("a: " + "x" * MAX_BYTES + "\n", "too large"),
    ],
    ids=["issue-bomb", "recursive", "deep", "deep-unclosed", "deep-block", "large"],
)
def test_a_hostile_document_is_one_line_naming_the_file(
    tmp_path: Path, text: str, why: str
) -> None:
    path = tmp_path / "problem.yaml"
    path.write_text(text)
    with pytest.raises(Refused) as caught:
        read_yaml(path, Refused)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and why in message
    assert "\n" not in message and len(message) < ONE_LINE


def test_anchors_aliases_and_merge_keys_within_the_bounds_still_read(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(
        "base: &base {time_limit: 1.0, memory: 256}\n"
        "jobs:\n  a: {<<: *base, memory: 512}\n  b: *base\n"
        "deep: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"  # with the top level
    )
    data = read_yaml(path, Refused)
    assert data["jobs"] == {
        "a": {"time_limit": 1.0, "memory": 512},
        "b": {"time_limit": 1.0, "memory": 256},
    }


def _problem_yaml(root: Path) -> tuple[Path, Callable[[], Any]]:
    root = _copy(root, "average")
    text = (root / "problem.yaml").read_text().replace("name: Average of two", "name: BOMB")
    (root / "problem.yaml").write_text(text)
    return root / "problem.yaml", lambda: read_package(root)


def _testdata_yaml(root: Path) -> tuple[Path, Callable[[], Any]]:
    root = _copy(root, "groups")  # 2023-07: testdata.yaml per folder
    path = root / "data" / "secret" / "small" / "testdata.yaml"
    path.write_text(path.read_text() + "output_validator_args: BOMB\n")
    return path, lambda: read_package(root)


def _test_group_yaml(root: Path) -> tuple[Path, Callable[[], Any]]:
    root = _copy(root, "groups")
    problem = root / "problem.yaml"
    problem.write_text(problem.read_text().replace("2023-07-draft", "2025-09"))
    path = root / "data" / "secret" / "test_group.yaml"
    path.write_text("output_validator_args: BOMB\n")
    return path, lambda: read_package(root)


def _submissions_yaml(root: Path) -> tuple[Path, Callable[[], Any]]:
    root = _copy(root, "groups")
    path = root / "submissions" / "submissions.yaml"
    path.write_text("'accepted/*': {permitted: BOMB}\n")
    return path, lambda: read_submissions(root)


def _config(root: Path) -> tuple[Path, Callable[[], Any]]:
    path = root / "run.yaml"
    path.write_text("out: BOMB\ncorpora: {}\njobs: {}\n")
    return path, lambda: load_config(path)


def _policy(root: Path) -> tuple[Path, Callable[[], Any]]:
    path = root / "scoring.yaml"
    path.write_text("groups: [{name: g, families: BOMB, points: 1}]\n")
    return path, lambda: load_policy(path)


def _copy(root: Path, name: str) -> Path:
    import shutil

    return Path(shutil.copytree(PACKAGES / name, root / name))


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (_problem_yaml, PackageError),
        (_testdata_yaml, PackageError),
        (_test_group_yaml, PackageError),
        (_submissions_yaml, PackageError),
        (_config, ConfigError),
        (_policy, ScoringError),
    ],
    ids=[
        "problem.yaml",
        "testdata.yaml",
        "test_group.yaml",
        "submissions.yaml",
        "config",
        "policy",
    ],
)
def test_every_reader_refuses_an_alias_bomb_naming_its_file(
    tmp_path: Path, make: Callable[[Path], tuple[Path, Callable[[], Any]]], error: type
) -> None:
    path, read = make(tmp_path)
    path.write_text(path.read_text().replace("BOMB", SMALL_BOMB))
    with pytest.raises(error) as caught:
        read()
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "aliases repeat more than" in message
    assert len(message) < ONE_LINE


def errors(stderr: str) -> list[str]:
    """stderr's lines but the isolation line (printed first below full isolation, as for
    an ordinary user without a writable cgroup)."""
    return [line for line in stderr.splitlines() if not line.startswith("isolation: ")]


def gridjudge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_verify_refuses_a_bomb_in_the_title_in_one_line(tmp_path: Path) -> None:
    """The issue's `verify` case end to end (a bomb past the bound, cheap to expand: the
    code before this fix said PASS)."""
    path, _ = _problem_yaml(tmp_path)
    path.write_text(path.read_text().replace("BOMB", SMALL_BOMB))
    done = gridjudge("verify", str(path.parent))
    assert done.returncode == 2, done.stdout + done.stderr
    (line,) = errors(done.stderr)
    assert line.startswith(f"error: {path}: ") and "aliases repeat more than" in line
    assert done.stdout == ""


def test_import_refuses_a_bomb_in_a_folders_validator_args(tmp_path: Path) -> None:
    path, _ = _testdata_yaml(tmp_path)
    path.write_text(path.read_text().replace("BOMB", SMALL_BOMB))
    package, out = tmp_path / "groups", tmp_path / "corpus"
    done = gridjudge("import", str(package), "--problem", str(package), "--out", str(out))
    assert done.returncode == 2, done.stdout + done.stderr
    (line,) = errors(done.stderr)
    assert line.startswith(f"error: {path}: ") and "aliases repeat more than" in line
    assert not out.exists()
