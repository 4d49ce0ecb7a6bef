"""Names and messages are data (issue 38): a family, a case or a submission whose name
holds control characters or rich markup is graded, scored and written with them escaped
(terminal, feedback Markdown, report HTML, gradebook.csv), never ending a run in an
internal error (a family with a newline did, after grading: no gradebook, no report);
every error line gridjudge prints is capped and escaped in the one place it is printed;
a link loop on a path the user gave is one line naming it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.generate import generate_corpus
from pipeline.corpus.store import CorpusWriter, read_table
from pipeline.package.scoring import scoring_policy
from pipeline.package.spec import read_package
from pipeline.problem.registry import get_problem
from pipeline.scoring.policy import default_policy, policy_from
from tests.fork_server_probe import require_fork_server
from tests.test_yaml_bounds import errors

PACKAGES = Path(__file__).resolve().parent / "packages"
BENCH = Path(__file__).resolve().parents[1] / "bench"
# a newline, a colour and a terminal title (ESC ] ... BEL), a bidi override, rich markup
FAMILY = "fam\nily\x1b[31m[/x]"
CASE = "case\x1b]0;pwned\x07\u202e1"
SUBMISSION = "wa\x1b[2J[bold]x"  # a file name: no "/" or newline, the rest as above
BATCHED = "ok\x1b[1m"  # the one that passes: its batches are not split up
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f\u202e]")  # what no file or line may hold
# how each case's process starts: a fork server, spawned, K cases per process
RUNNERS = {
    "fork-server": ["--fork-server"],
    "spawn": ["--no-fork-server"],
    "batch": ["--no-fork-server", "--batch", "4"],
}


# wide enough that a table cell holds a whole submission path, however long the test's
# temporary folder is (an ordinary user's, a pytest-xdist worker's): the names are read
# whole from the output
COLUMNS = "400"


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": COLUMNS})
    return result.exit_code, result.output


def _corpus(root: Path, family: str) -> Path:
    """Spot cases under hostile case names, every other one in `family` (a corpus holds
    what its folder names were; the importers read any name a file system allows)."""
    plain = root / "plain"
    generate_corpus(get_problem("spot"), 6, 5, plain)
    rows = read_table(plain).to_pylist()
    for number, row in enumerate(rows):
        row["family"] = family if number % 2 else "plain"
        row["case_id"] = f"{CASE}{number}"
    with CorpusWriter(root / "hostile", "spot") as writer:
        for row in rows:
            writer.add(
                *(row[k] for k in ("case_id", "family", "input", "expected", "seed", "params"))
            )
    return root / "hostile"


def _grade(root: Path, family: str, runner: str) -> tuple[Path, str]:
    """A hostile-named submission failing every case and one passing every case graded on
    _corpus(family) by `runner`: the run folder and what grade printed."""
    if runner == "fork-server":
        require_fork_server()
    wrong, right = root / f"{SUBMISSION}.py", root / f"{BATCHED}.cpp"
    wrong.write_text("import sys\nsys.stdin.read()\nprint('no')\n")
    right.write_text((BENCH / "spot.cpp").read_text())
    out = root / "run"
    code, output = _cli(
        "grade", str(_corpus(root, family)), "-s", str(wrong), "-s", f"cpp17:{right}",
        "--out", str(out), "--address", "local-serial", *RUNNERS[runner],
    )  # fmt: skip
    assert code == 0, output
    rows = pq.read_table(out / "results").to_pylist()
    verdicts = {(Path(r["submission"]).suffix, r["verdict"]) for r in rows}
    assert verdicts == {(".py", "WA"), (".cpp", "AC")} and len(rows) == 12
    _ran_as(rows, runner)
    assert {r["family"] for r in rows} == {family, "plain"}  # the data keeps its names
    return out, output


def _written(out: Path, output: str) -> dict[str, str]:
    return {
        "terminal": output,
        "feedback": "".join(p.read_text() for p in (out / "feedback").iterdir()),
        "report.html": (out / "report.html").read_text(),
        "gradebook.csv": (out / "gradebook.csv").read_text(),
    }


@pytest.mark.parametrize("runner", sorted(RUNNERS))
def test_a_family_named_with_controls_is_graded_and_scored(tmp_path: Path, runner: str) -> None:
    """The family with a newline (and markup, colour) ended grade in an internal error
    after grading; now its group is named plainly and every file is written."""
    out, output = _grade(tmp_path, FAMILY, runner)
    texts = _written(out, output)
    assert [where for where, text in texts.items() if RAW.search(text)] == []
    assert "fam\\nily\\x1b[31m[/x]" in texts["report.html"]  # per family
    for command in (["report", str(out), "--families"], ["score", str(out)]):
        code, output = _cli(*command)
        assert code == 0 and not RAW.search(output), output
    assert "fam\\nily\\x1b[31m[/x]" in _cli("report", str(out), "--families")[1]
    _compared(out, tmp_path / "compare.xml")


@pytest.mark.parametrize("runner", sorted(RUNNERS))
def test_case_and_submission_names_are_written_escaped(tmp_path: Path, runner: str) -> None:
    """Raw ESC bytes of a case or submission name reached feedback/*.md, the report, the
    gradebook and the terminal."""
    out, output = _grade(tmp_path, "other", runner)
    texts = _written(out, output)
    assert [where for where, text in texts.items() if RAW.search(text)] == []
    assert "\\x1b]0;pwned\\x07\\u202e" in texts["feedback"]  # failing cases, escaped
    assert "\\x1b]0;pwned" in texts["gradebook.csv"]  # the first failing case
    assert "\\x1b[2J" in texts["gradebook.csv"] and "\\x1b[2J" in texts["report.html"]
    assert "[bold]x" in texts["terminal"]  # shown as text, not taken as markup
    code, output = _cli("score", str(out))
    assert code == 0 and not RAW.search(output) and "[bold]x" in output, output
    _compared(out, tmp_path / "compare.xml")


def _compared(out: Path, junit: Path) -> None:
    """`compare` of the two submissions (every case flips): its tables and JUnit XML."""
    rows = pq.read_table(out / "results", columns=["submission"]).to_pylist()
    labels = {r["submission"] for r in rows}
    (right,), (wrong,) = ([s for s in labels if s.endswith(end)] for end in (".cpp", ".py"))
    code, output = _cli(
        "compare", str(out), "--submission-a", right, "--submission-b", wrong,
        "--junit", str(junit),
    )  # fmt: skip
    assert code == 1 and "verdict flips" in output, output  # the gate: AC -> WA
    assert not RAW.search(output) and "\\x1b]0;pwned" in output, output
    text = junit.read_text()
    assert not RAW.search(text) and "\\x1b]0;pwned" in text
    ElementTree.fromstring(text.encode())  # XML 1.0 cannot hold a raw ESC


def _ran_as(rows: list[dict[str, Any]], runner: str) -> None:
    if runner == "batch":  # the passing one's cases ran 4 to a process
        assert {r["batch_size"] for r in rows if r["verdict"] == "AC"} == {4, 2}
    else:
        assert {r["runner"] for r in rows} == {runner}


def gridjudge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, timeout=600
    )


def test_an_error_quoting_a_huge_hostile_value_is_one_short_escaped_line(tmp_path: Path) -> None:
    """A package's problem type of 300 kB opening with a terminal reset: the refusal
    quotes it, and is printed as one line, capped, its controls escaped."""
    package = Path(shutil.copytree(PACKAGES / "average", tmp_path / "average"))
    value = "\x1bc\x1b[2J" + "x" * 300_000
    (package / "problem.yaml").write_text(f'name: A\ntype: "{value}"\n'.replace("\x1b", "\\e"))
    done = gridjudge(
        "import", str(package), "--problem", str(package), "--out", str(tmp_path / "c")
    )
    assert done.returncode == 2, done.stderr[:500]
    (line,) = errors(done.stderr)
    assert line.startswith("error: ") and "problem type '\\x1bc\\x1b[2Jxxx" in line
    assert len(line) < 1100 and "\x1b" not in done.stderr


def test_a_link_loop_on_a_path_given_is_one_line_naming_it(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    judge = tmp_path / "judge" / "fam"
    judge.mkdir(parents=True)
    corpus = tmp_path / "spot"
    generate_corpus(get_problem("spot"), 1, 1, corpus)
    case = read_table(corpus).to_pylist()[0]
    (judge / "1.in").write_text(case["input"])
    out = loop / "corpus"
    done = gridjudge("import", str(judge.parent), "--problem", "spot", "--out", str(out))
    assert done.returncode == 2, done.stderr
    assert errors(done.stderr) == [f"error: {out}: Too many levels of symbolic links"]


def test_links_up_a_packages_data_tree_are_not_walked(tmp_path: Path) -> None:
    """Two links to the parent folder in one group: the settings walk followed them,
    each path deeper, until a path of 40 links failed (ELOOP): exponential in the links."""
    package = Path(shutil.copytree(PACKAGES / "groups", tmp_path / "groups"))
    for name in ("up1", "up2"):
        (package / "data" / "secret" / "small" / name).symlink_to("..")
    assert sorted(read_package(package).folders) == [
        "sample",
        "secret",
        "secret/large",
        "secret/small",
    ]
    out = tmp_path / "corpus"
    done = gridjudge("import", str(package), "--problem", str(package), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "(sample=1, secret/large=2, secret/small=2)" in done.stdout


def test_verify_writes_hostile_submission_names_escaped(tmp_path: Path) -> None:
    """A package's submission named with controls: verify's lines and its JUnit XML."""
    package = Path(shutil.copytree(PACKAGES / "average", tmp_path / "average"))
    accepted = package / "submissions" / "accepted"
    (accepted / "close.py").rename(accepted / f"{SUBMISSION}.py")
    junit = tmp_path / "verify.xml"
    done = gridjudge("verify", str(package), "--junit", str(junit))
    assert done.returncode == 0, done.stdout + done.stderr
    assert not RAW.search(done.stdout) and "accepted/wa\\x1b[2J[bold]x.py" in done.stdout
    text = junit.read_text()
    assert not RAW.search(text) and "wa\\x1b[2J[bold]x.py" in text
    ElementTree.fromstring(text.encode())


def test_a_scoring_packages_groups_take_folders_of_any_name(tmp_path: Path) -> None:
    """Folder names that are glob syntax, that meet once made plain, or that are named
    as the sample group: each folder its own group, matching it alone."""
    package = Path(shutil.copytree(PACKAGES / "groups", tmp_path / "groups"))
    secret = package / "data" / "secret"
    (secret / "large").rename(secret / "l[a]rge")
    for name in ("sm all", "sample"):  # groups without a score of their own
        shutil.copytree(secret / "small", secret / name)
        (secret / name / "testdata.yaml").unlink()
    policy = policy_from(scoring_policy(str(package)), "test")
    families = ["sample", "secret/l[a]rge", "secret/sm all", "secret/small", "secret/sample"]
    assigned = policy.assign(families)
    assert len(set(assigned.values())) == len(families)  # one group each
    assert assigned["secret/l[a]rge"] == "l_a_rge" and assigned["secret/small"] == "small"
    assert assigned["secret/sample"] != "sample"


def test_default_groups_are_plain_unique_and_literal() -> None:
    families = ["a\nb", "a_b", "x[1]", "*", "secret/g1", "-x"]
    policy = default_policy(families)
    assigned = policy.assign(families)
    assert assigned["a_b"] == "a_b" and assigned["secret/g1"] == "secret/g1"  # plain: kept
    assert len(set(assigned.values())) == len(families)
    assert policy.group_of("x1") is None and policy.group_of("anything") is None
