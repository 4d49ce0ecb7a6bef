"""Every command's --help fits an 80-column terminal without cutting a name or a word, and
`gridjudge --help` loads none of the heavy libraries."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import COMMANDS, app, first_sentence, load_command

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner(env={"COLUMNS": "80"})
NAMES = [entry.name for entry in COMMANDS]


def _tokens(text: str) -> set[str]:
    return set(text.split())


@pytest.mark.parametrize("name", NAMES)
def test_command_help_fits_80_columns_with_every_name_and_word_whole(name: str) -> None:
    result = runner.invoke(app, [name, "--help"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    shown = _tokens(result.output)
    command = load_command(next(e for e in COMMANDS if e.name == name))
    for param in command.params:
        for option in [*param.opts, *param.secondary_opts]:
            if option.startswith("-"):
                assert option in result.output, f"{name}: {option} missing or cut"
        words = _tokens(getattr(param, "help", None) or "")
        assert words <= shown, f"{name} {param.name}: cut or missing {words - shown}"
    doc_words = _tokens(command.help or "")
    assert doc_words <= shown, f"{name}: docstring words cut {doc_words - shown}"


def test_top_level_help_lists_every_command_with_its_first_sentence() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    flat = " ".join(result.output.split())
    for entry in COMMANDS:
        command = load_command(entry)
        assert f" {entry.name} " in flat
        assert first_sentence(command.help or "") in flat, entry.name
    for section in ("Problems and corpora:", "Grading:", "Results:"):
        assert section in result.output


def test_first_sentence_joins_the_docstring_lines() -> None:
    assert first_sentence("Run it: now.\nThen more.") == "Run it: now"
    assert first_sentence("One line\nwrapped, no period") == "One line wrapped, no period"


HEAVY = ("scipy", "pandas", "pyarrow", "numpy", "ray")
_PROBE = """
import json, sys
from typer.testing import CliRunner
from pipeline.cli.app import app
result = CliRunner().invoke(app, sys.argv[1:])
assert result.exit_code == 0, result.output
print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r})))
"""


@pytest.mark.parametrize(
    ("args", "absent"),
    [
        (["--help"], HEAVY),
        (["compare", "--help"], ("scipy", "pandas", "ray")),
        (["solve", "--help"], ("scipy", "pandas", "ray")),
    ],
)
def test_help_does_not_import_heavy_libraries(args: list[str], absent: tuple[str, ...]) -> None:
    probe = _PROBE.format(heavy=set(HEAVY))
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], capture_output=True, text=True, check=True
    )
    loaded = {name.split(".")[0] for name in json.loads(done.stdout)}
    assert not loaded & set(absent), f"{args}: imported {sorted(loaded & set(absent))}"


def test_an_unknown_command_is_a_usage_error() -> None:
    result = runner.invoke(app, ["gradee"])
    assert result.exit_code == 2
    assert "No such command" in result.output


GENERATE_ARGS = ("--name", "gridjudge", "--title", "gridjudge commands")


def test_docs_cli_md_is_the_generated_reference() -> None:
    """docs/cli.md below its marker is what its own regeneration command prints, and has
    no HTML entities (help text is plain, not rich markup)."""
    doc = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    marker = "<!-- generated below -->\n"
    assert marker in doc
    done = subprocess.run(
        [sys.executable, "-m", "typer", "pipeline.cli.app", "utils", "docs", *GENERATE_ARGS],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    assert doc.split(marker, 1)[1] == done.stdout, "docs/cli.md is stale: regenerate it"
    assert not re.search(r"&(#x?[0-9a-f]+|[a-z]+);", doc)
