"""problem.yaml's `constants` (2025-09): read as the format allows them, substituted in
validators and generators (a copy built, the package untouched), commands and
test_group.yaml, never in test data or example submissions (as BAPCtools);
`tests/packages/constants` verified end to end, each of its programs, its generator's
command and its group's validator arguments using a constant."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.package.constants import read_constants, substitute, substituted
from tests.cli_output import without_isolation_line

PACKAGE = Path(__file__).resolve().parent / "packages" / "constants"


class Bad(Exception):
    pass


def test_scalars_and_variants_are_read_as_text() -> None:
    given = {"constants": {"k": {"value": 5000000, "tex": "5,000,000"}, "x": 1.5, "s": "hi"}}
    assert read_constants(given, "p.yaml", Bad) == {
        "k": "5000000", "k.value": "5000000", "k.tex": "5,000,000",
        "x": "1.5", "x.value": "1.5", "s": "hi", "s.value": "hi",
    }  # fmt: skip
    assert read_constants({}, "p.yaml", Bad) == {}


@pytest.mark.parametrize(
    ("constants", "message"),
    [
        ([1], "constants must be a mapping"),
        ({"1k": 5}, "a name is letters"),
        ({"k-2": 5}, "a name is letters"),
        ({"k": {"tex": "5"}}, "needs `value`"),
        ({"k": {"value": 5, "a b": "x"}}, "not a plain word"),
        ({"k": True}, "an integer, a float or a string"),
        ({"k": {"value": [1]}}, "an integer, a float or a string"),
    ],
)
def test_what_the_format_does_not_allow_is_one_error(constants: object, message: str) -> None:
    with pytest.raises(Bad, match=message):
        read_constants({"constants": constants}, "p.yaml", Bad)


def test_a_sequence_is_replaced_only_when_it_names_a_constant() -> None:
    constants = {"k": "5", "k.value": "5", "k.word": "five"}
    text = "{{k}} {{k.value}} {{k.word}} {{k.other}} {{m}} {k} {{ k }}"
    assert substitute(text, constants) == "5 5 five {{k.other}} {{m}} {k} {{ k }}"
    assert substitute(text, {}) == text


def test_a_program_is_built_from_a_copy_the_package_kept_as_it_is(tmp_path: Path) -> None:
    constants = {"k": "7", "k.value": "7"}
    folder = tmp_path / "prog"
    (folder / "sub").mkdir(parents=True)
    (folder / "main.py").write_text("print({{k}})\n")
    (folder / "sub" / "data.bin").write_bytes(b"\xff{{k}}\x00")  # not text: as it is
    (folder / "run").write_text("#!/bin/sh\necho {{k}}\n")
    (folder / "run").chmod(0o755)
    cache = tmp_path / "cache"
    copy = substituted(folder, constants, cache)
    assert copy != folder and copy.name == "prog" and cache in copy.parents
    assert (copy / "main.py").read_text() == "print(7)\n"
    assert (copy / "sub" / "data.bin").read_bytes() == b"\xff{{k}}\x00"
    assert (copy / "run").read_text() == "#!/bin/sh\necho 7\n"
    assert (copy / "run").stat().st_mode & 0o777 == 0o755
    assert (folder / "main.py").read_text() == "print({{k}})\n"  # the package's own
    assert substituted(folder, constants, cache) == copy  # made once
    assert substituted(folder, {"k": "8"}, cache) != copy  # other constants, other copy
    plain = tmp_path / "plain.py"
    plain.write_text("print(1)\n")
    assert substituted(plain, constants, cache) == plain  # nothing to substitute
    one = tmp_path / "one.py"
    one.write_text("print({{k}})\n")
    assert substituted(one, constants, cache).read_text() == "print(7)\n"


def test_a_package_using_constants_everywhere_verifies(tmp_path: Path) -> None:
    root = tmp_path / "constants"
    shutil.copytree(PACKAGE, root)
    result = CliRunner().invoke(app, ["verify", str(root), "--address", "local-serial"])
    output = without_isolation_line(result.output)
    assert result.exit_code == 0, output
    assert "PASS  accepted/add.py: AC 2" in output  # its text kept: it adds 5 itself
    assert "PASS  wrong_answer/word.py: WA 2" in output
    assert "each of 1 invalid inputs is rejected" in output  # data is never substituted
    assert (root / "data" / "secret" / "doubled.in").read_text() == "10\n"  # double.py 5
    assert (root / "data" / "secret" / "doubled.ans").read_text() == "15\n"  # by add.py
    assert (root / "data" / "invalid_input" / "literal.in").read_text() == "{{SHIFT}}\n"
    assert "{{SHIFT}}" in (root / "submissions" / "accepted" / "add.py").read_text()
