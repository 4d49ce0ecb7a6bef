"""The format versions of problem.yaml (legacy, 2023-07, 2025-09), each key read as its
version defines it: the test data folder settings file and its keys, zero and
fractional points, the inferred maximum scores of 2023-07 and later, the multipliers."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.package.scoring import scoring_policy
from pipeline.package.spec import PackageError, read_package

DOUBLE = "n = int(input())\nprint(2 * n)\n"


def package(root: Path, problem_yaml: str, folders: dict[str, dict[str, str]]) -> Path:
    """folders: data folder -> file name -> text (cases n.in / n.ans made for each `*.in`)."""
    for folder, files in folders.items():
        path = root / "data" / folder
        path.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (path / name).write_text(text)
            if name.endswith(".in"):
                (path / name.replace(".in", ".ans")).write_text(f"{2 * int(text)}\n")
    (root / "problem.yaml").write_text(problem_yaml)
    return root


def points(root: Path) -> dict[str, tuple[float, str]]:
    policy = scoring_policy(str(root))
    assert policy is not None
    return {g["name"]: (g["points"], g.get("aggregate", "fraction")) for g in policy["groups"]}


def test_legacy_zero_and_fractional_points(tmp_path: Path) -> None:
    """problemtools' own example gives the samples accept_score 0; a range and an
    accept_score may be fractional; 2023-07's `scoring:` means nothing to legacy."""
    root = package(
        tmp_path / "p",
        "type: scoring\n",
        {
            "sample": {"1.in": "1\n", "testdata.yaml": "accept_score: 0\n"},
            "secret/a": {"1.in": "2\n", "2.in": "3\n", "testdata.yaml": "accept_score: 0.5\n"},
            "secret/b": {
                "1.in": "4\n",
                "testdata.yaml": "grader_flags: min\nrange: 0 2.5\nscoring:\n  score: 90\n",
            },
        },
    )
    read = read_package(root)
    assert read.version == "legacy" and read.folders["sample"].accept_score == 0
    assert points(root) == {"sample": (0.0, "fraction"), "a": (1.0, "sum"), "b": (2.5, "min")}


def test_2023_07_reads_scoring_and_infers_the_rest(tmp_path: Path) -> None:
    """secret is worth 100; a group without a score and each case directly in secret
    share what the groups with one leave; legacy keys are ignored."""
    root = package(
        tmp_path / "p",
        "problem_format_version: 2023-07-draft\ntype: scoring\n",
        {
            "secret": {"1.in": "1\n", "2.in": "2\n"},
            "secret/a": {"1.in": "3\n", "testdata.yaml": "scoring:\n  score: 30\n"},
            "secret/b": {"1.in": "4\n", "testdata.yaml": "range: 0 50\ngrader_flags: min\n"},
            "secret/c": {"1.in": "5\n", "testdata.yaml": "scoring:\n  aggregation: min\n"},
        },
    )
    share = (100 - 30) / 4  # b, c and the two direct cases
    assert points(root) == {
        "sample": (0.0, "fraction"),
        "secret": (2 * share, "sum"),
        "a": (30.0, "sum"),
        "b": (share, "sum"),
        "c": (share, "min"),
    }


def test_2025_09_reads_test_group_yaml(tmp_path: Path) -> None:
    root = package(
        tmp_path / "p",
        "problem_format_version: 2025-09\ntype: scoring\n",
        {
            "secret/a": {
                "1.in": "1\n",
                "test_group.yaml": "max_score: 40\nscore_aggregation: pass-fail\n"
                "output_validator_args: [float_tolerance, '0.5']\n",
            },
            "secret/b": {"1.in": "2\n", "testdata.yaml": "scoring:\n  score: 5\n"},  # 2023-07's
        },
    )
    read = read_package(root)
    assert read.folders["secret/a"].output_flags == ("float_tolerance", "0.5")
    assert points(root) == {"sample": (0.0, "fraction"), "a": (40.0, "all"), "b": (60.0, "sum")}


def test_multipliers_are_read_by_version(tmp_path: Path) -> None:
    limits = "limits:\n  time_multiplier: 3\n  time_multipliers:\n    ac_to_time_limit: 4\n"
    folders = {"secret": {"1.in": "1\n"}}
    legacy = read_package(package(tmp_path / "l", limits, folders))
    modern = read_package(
        package(tmp_path / "m", "problem_format_version: 2023-07\n" + limits, folders)
    )
    assert (legacy.time_multiplier, modern.time_multiplier) == (3.0, 4.0)


@pytest.mark.parametrize(
    ("problem_yaml", "folder_yaml", "message"),
    [
        ("problem_format_version: 2019\n", "", "problem_format_version '2019' is not one of"),
        ("type: scoring\n", "accept_score: -1\n", "accept_score must be a non-negative"),
        ("type: scoring\n", "range: 5 1\n", "range must be two numbers"),
        ("problem_format_version: 2023-07-draft\n", "scoring:\n  score: unbounded\n", "unbounded"),
        ("problem_format_version: 2025-09\n", "", "sum to 120, over 100"),
        ("problem_format_version: 2025-09\n", "score_aggregation: max\n", "aggregation must be"),
    ],
)
def test_bad_values_are_one_line(
    tmp_path: Path, problem_yaml: str, folder_yaml: str, message: str
) -> None:
    name = "test_group.yaml" if "2025" in problem_yaml else "testdata.yaml"
    big = "max_score: 120\n" if "2025" in problem_yaml and not folder_yaml else folder_yaml
    root = package(tmp_path / "p", problem_yaml, {"secret/a": {"1.in": "1\n", name: big}})
    with pytest.raises(PackageError, match=message):
        read_package(root)
    result = CliRunner().invoke(
        app, ["import", str(root), "--problem", str(root), "--out", str(tmp_path / "c")]
    )
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output


def test_a_2025_09_package_verifies(tmp_path: Path) -> None:
    """Its output validator flags come from test_group.yaml: 0.5 off passes only there."""
    root = package(
        tmp_path / "p",
        "problem_format_version: 2025-09\nlimits:\n  time_limit: 2\n",
        {
            "sample": {"1.in": "1\n"},
            "secret": {
                "1.in": "2\n",
                "test_group.yaml": "output_validator_args: [float_absolute_tolerance, '1']\n",
            },
        },
    )
    (root / "submissions" / "accepted").mkdir(parents=True)
    (root / "submissions" / "accepted" / "exact.py").write_text(DOUBLE)
    (root / "submissions" / "wrong_answer").mkdir(parents=True)
    (root / "submissions" / "wrong_answer" / "off.py").write_text(
        "n = int(input())\nprint(2 * n + 0.5)\n"
    )
    result = CliRunner().invoke(
        app, ["verify", str(root), "--address", "local-serial", "--repeat", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "PASS  wrong_answer/off.py: AC 1 WA 1" in result.output
