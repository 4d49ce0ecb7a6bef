"""A package's links stay inside it (issue 23, point 5): a data file, a data folder or a
validator that links out of the package (to a 0600 host file, say) is refused in one
line by `verify`, `import` and `grade`, before the judge (root) reads anything through
it; the target's content shows nowhere. A link inside the package stays allowed."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.store import read_table
from pipeline.package import problem as package_problem
from pipeline.package.spec import PackageError, read_package
from tests.cli_output import without_isolation_line

PACKAGES = Path(__file__).resolve().parent / "packages"
SECRET = "4 6\n"  # a valid input of the package: the validator would let it through
MARK = "host-only-7f3a"


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, without_isolation_line(result.output)


def _host_files(tmp_path: Path) -> Path:
    """A folder outside the package holding a 0600 file and a folder of test data."""
    host = tmp_path / "host"
    (host / "cases").mkdir(parents=True)
    secret = host / "secret.in"
    secret.write_text(SECRET)
    secret.chmod(0o600)
    (host / "cases" / "9.in").write_text(SECRET)
    (host / "cases" / "9.ans").write_text(f"{MARK}\n")
    (host / "steal.py").write_text(f"print({MARK!r})\n")
    return host


def _file_out(package: Path, host: Path) -> str:
    (package / "data/secret/3.in").symlink_to(host / "secret.in")
    (package / "data/secret/3.ans").write_text("5\n")
    return "data/secret/3.in"


def _relative_out(package: Path, host: Path) -> str:
    (package / "data/secret/3.in").write_text("1 1\n")
    rel = os.path.relpath(host / "cases/9.ans", package / "data/secret")
    (package / "data/secret/3.ans").symlink_to(rel)
    return "data/secret/3.ans"


def _folder_out(package: Path, host: Path) -> str:
    (package / "data/secret/stolen").symlink_to(host / "cases", target_is_directory=True)
    return "data/secret/stolen"


def _validator_out(package: Path, host: Path) -> str:
    (package / "input_validators/steal.py").symlink_to(host / "steal.py")
    return "input_validators/steal.py"


ATTACKS: list[Callable[[Path, Path], str]] = [
    _file_out, _relative_out, _folder_out, _validator_out,
]  # fmt: skip


def _package(tmp_path: Path) -> Path:
    return Path(shutil.copytree(PACKAGES / "average", tmp_path / "pkg", symlinks=True))


def _refused(code: int, output: str, link: str) -> None:
    assert code == 2 and output.count("\n") == 1, output
    assert f"{link}: a link out of the package" in output, output
    assert MARK not in output and SECRET.strip() not in output


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda a: a.__name__.strip("_"))
def test_a_link_out_of_the_package_is_refused_by_verify_and_import(
    tmp_path: Path, attack: Callable[[Path, Path], str]
) -> None:
    package = _package(tmp_path)
    link = attack(package, _host_files(tmp_path))
    with pytest.raises(PackageError, match=f"{link}: a link out of the package"):
        read_package(package)
    _refused(*_cli("verify", str(package), "--address", "local-serial"), link)
    out = tmp_path / "corpus"
    _refused(*_cli("import", str(package), "--problem", str(package), "--out", str(out)), link)
    assert not out.exists()
    # a built-in problem's import of the same folder reads its data through the links too
    _refused(*_cli("import", str(package), "--problem", "clocks", "--out", str(out)), link)
    assert not out.exists()


def test_grade_refuses_a_package_that_gained_a_link_out(tmp_path: Path) -> None:
    package = _package(tmp_path)
    corpus = tmp_path / "corpus"
    code, output = _cli("import", str(package), "--problem", str(package), "--out", str(corpus))
    assert code == 0, output
    link = _file_out(package, _host_files(tmp_path))
    package_problem._cached.cache_clear()  # a new grade reads the package again
    run = tmp_path / "run"
    sub = package / "submissions/accepted/close.py"
    code, output = _cli(
        "grade", str(corpus), "-s", str(sub), "--out", str(run), "--address", "local-serial"
    )
    _refused(code, output, link)
    assert not (run / "results").exists()


def test_links_inside_the_package_stay_allowed(tmp_path: Path) -> None:
    package = _package(tmp_path)
    assert (package / "data/secret/2.in").is_symlink()  # to ../sample/1.in
    (package / "data/secret/more").symlink_to("../sample", target_is_directory=True)  # not read
    (package / "input_validators/again.py").symlink_to(package / "input_validators/validate.py")
    read_package(package)
    corpus = tmp_path / "corpus"
    code, output = _cli("import", str(package), "--problem", str(package), "--out", str(corpus))
    assert code == 0, output
    cases = {r["case_id"] for r in read_table(corpus).to_pylist()}
    assert cases == {"sample/1", "secret/1", "secret/2"}
