"""Case names as real archives spell them (issue 38): dots, dashes, underscores and
unicode before the `.in`. A case's answer is the file with the whole name before `.in`
and `.ans` after it, in every reader of case files: the corpus importer, a package's
data (verify) and so grade. `1.5.in` was once answered by `1.ans`: verify said AC and
grade gave a correct program WA."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.store import read_table
from pipeline.package import problem as package_problem
from pipeline.package.case_files import answer_of, case_name
from pipeline.package.spec import read_package

PACKAGES = Path(__file__).resolve().parent / "packages"
# names real archives use; `1` beside `1.5`, `a` and `a.b` beside `a.b.c`: a reader
# that cuts the name at a dot finds another case's answer
NAMES = ["1", "1.5", "01-small", "sample.1", "test_001", "ü-grid", "a", "a.b", "a.b.c", "x.in"]


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


# the observed case: every name here has a neighbour a cut at its last dot would find
NEIGHBOURS = ["1", "1.5", "a", "a.b", "a.b.c"]


def _package(tmp_path: Path, names: list[str]) -> Path:
    """The `average` package with one secret case per name, each with its own answer."""
    root = Path(shutil.copytree(PACKAGES / "average", tmp_path / "average"))
    secret = root / "data" / "secret"
    shutil.rmtree(secret)
    secret.mkdir()
    for i, name in enumerate(names):
        (secret / f"{name}.in").write_text(f"{i} {2 * i + 1}\n")
        (secret / f"{name}.ans").write_text(f"{(3 * i + 1) / 2}\n")
    return root


@pytest.fixture(autouse=True)
def _no_result_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRIDJUDGE_RESULT_CACHE", "off")


@pytest.mark.parametrize("name", NAMES)
def test_a_case_file_is_named_by_its_whole_stem(name: str) -> None:
    path = Path("data") / "secret" / f"{name}.in"
    assert case_name(path) == name
    assert answer_of(path) == path.with_name(f"{name}.ans")


def test_the_package_reader_and_the_importer_pair_each_case_with_its_answer(
    tmp_path: Path,
) -> None:
    package = _package(tmp_path, NAMES)
    secret = package / "data" / "secret"
    pairs = {
        i.name: a
        for family, i, a in package_problem.test_files(read_package(package))
        if family == "secret"
    }
    assert pairs == {f"{n}.in": secret / f"{n}.ans" for n in NAMES}
    code, output = _cli(
        "import", str(package), "--problem", str(package), "--out", str(tmp_path / "c")
    )
    assert code == 0, output
    rows = read_table(tmp_path / "c").to_pylist()
    got = {r["case_id"]: r["expected"] for r in rows if r["family"] == "secret"}
    assert got == {f"secret/{n}": (secret / f"{n}.ans").read_text() for n in NAMES}


def test_a_correct_program_is_accepted_on_every_case_by_grade_as_by_verify(
    tmp_path: Path,
) -> None:
    package = _package(tmp_path, NEIGHBOURS)
    corpus, run = tmp_path / "corpus", tmp_path / "run"
    code, output = _cli("import", str(package), "--problem", str(package), "--out", str(corpus))
    assert code == 0, output
    accepted = package / "submissions" / "accepted" / "close.py"
    code, output = _cli("grade", str(corpus), "-s", str(accepted), "--out", str(run),
                        "--address", "local-serial")  # fmt: skip
    assert code == 0, output
    verdicts = {r["case_id"]: r["verdict"] for r in pq.read_table(run / "results").to_pylist()}
    assert verdicts == {f"secret/{n}": "AC" for n in NEIGHBOURS} | {"sample/1": "AC"}
    code, output = _cli("verify", str(package), "--address", "local-serial")
    assert code == 0, output
