"""The `gridjudge` command: one command per module, each module imported only when its
command runs or shows its help, so `gridjudge --help` and the light commands never load
pandas, scipy or Ray (docs/performance.md, bench/startup.py)."""

from __future__ import annotations

import ast
import difflib
import importlib
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import typer
from typer.core import TyperCommand, TyperGroup


class Entry(NamedTuple):
    name: str
    module: str
    function: str
    section: str


COMMANDS = [
    Entry("problems", "problems", "problems", "Problems and corpora"),
    Entry("languages", "languages", "languages_cmd", "Problems and corpora"),
    Entry("solve", "solve", "solve", "Problems and corpora"),
    Entry("validate", "validate", "validate", "Problems and corpora"),
    Entry("generate", "generate", "generate", "Problems and corpora"),
    Entry("import", "import_cmd", "import_corpus", "Problems and corpora"),
    Entry("inspect", "inspect_cmd", "inspect", "Problems and corpora"),
    Entry("export", "export", "export", "Problems and corpora"),
    Entry("grade", "grade", "grade", "Grading"),
    Entry("run", "run", "run", "Grading"),
    Entry("demo", "demo", "demo", "Grading"),
    Entry("stress", "stress", "stress", "Grading"),
    Entry("strength", "strength", "strength", "Grading"),
    Entry("verify", "verify", "verify", "Grading"),
    Entry("report", "report_cmd", "report", "Results"),
    Entry("score", "score", "score", "Results"),
    Entry("compare", "compare", "compare", "Results"),
    Entry("doctor", "doctor", "doctor", "The machine"),
]
_BY_NAME = {entry.name: entry for entry in COMMANDS}
# Help sections of the commands with many options, by option name (grade's options are
# defined with its code; their grouping for reading is kept here). An option not listed
# goes under "Options".
PANELS: dict[str, dict[str, tuple[str, ...]]] = {
    "grade": {
        "Submissions": (
            "--submission",
            "--submissions",
            "--skip-unknown",
            "--submissions-list",
            "--only-submission",
        ),
        "Run folder": ("--out", "--resume", "--scoring", "--feedback"),
        "Limits": ("--time-limit", "--memory-limit", "--time-multipliers", "--max-tle"),
        "How cases run": (
            "--batch",
            "--repeat",
            "--fork-server",
            "--revalidate",
            "--trust-corpus",
            "--max-input-mb",
        ),
        "Cluster": ("--address", "--chunk-size", "--max-in-flight"),
        "Result cache (docs/cache.md)": ("--cache", "--cache-max-mb"),
        "Selecting pairs (docs/cache.md)": ("--only", "--since", "--family", "--case"),
    },
}
DEFAULT_SECTION = "Options"


def summary_of(entry: Entry) -> str:
    """The first sentence of the command's docstring, read from its source file without
    importing the module (importing it is what --help must not pay for)."""
    source = (Path(__file__).parent / f"{entry.module}.py").read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == entry.function:
            return first_sentence(ast.get_docstring(node) or "")
    return ""


def first_sentence(text: str) -> str:
    """`text` up to its first period followed by a space, on one line."""
    return " ".join(text.split()).split(". ", 1)[0].rstrip(".")


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most `width` characters, broken only at spaces (never inside a word,
    an option name such as --fail-on, or a path)."""
    return textwrap.wrap(text, max(width, 20), break_on_hyphens=False, break_long_words=False)


# typer.Context: recent typer vendors click, and handles only its own Context and formatter
class HelpLayout(typer.Context.formatter_class):  # type: ignore[misc,valid-type]
    """click's help layout with paragraphs joined and rewrapped at spaces only."""

    def write_text(self, text: str) -> None:
        indent = " " * self.current_indent
        paragraphs = [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]
        for number, paragraph in enumerate(paragraphs):
            if number:
                self.write("\n")
            for line in wrap(paragraph, self.width - self.current_indent):
                self.write(f"{indent}{line}\n")

    def write_dl(
        self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        rows = list(rows)
        term_width = min(max((len(term) for term, _ in rows), default=0), col_max)
        help_indent = self.current_indent + term_width + col_spacing
        for term, text in rows:
            lines = wrap(" ".join(text.split()), self.width - help_indent) if text else []
            self.write(" " * self.current_indent + term)
            if lines and len(term) <= term_width:  # help starts beside the name
                self.write(" " * (help_indent - self.current_indent - len(term)) + lines.pop(0))
            self.write("\n")  # a longer name: its help starts on the next line
            for line in lines:
                self.write(" " * help_indent + line + "\n")


class LayoutContext(typer.Context):
    formatter_class = HelpLayout


class SectionedCommand(TyperCommand):
    """A command whose options are listed under their `rich_help_panel` heading, in click's
    plain layout: it wraps help at word boundaries and never cuts an option name."""

    context_class = LayoutContext

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments: list[tuple[str, str]] = []
        sections: dict[str, list[tuple[str, str]]] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append(record)
            else:
                panel = getattr(param, "rich_help_panel", None) or DEFAULT_SECTION
                sections.setdefault(panel, []).append(record)
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        for title, records in sections.items():
            with formatter.section(title):
                formatter.write_dl(records)


class LazyGroup(TyperGroup):
    """The command group: a command's module is imported when that command is resolved."""

    context_class = LayoutContext

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._loaded: dict[str, Any] = {}

    def list_commands(self, ctx: Any) -> list[str]:
        return [entry.name for entry in COMMANDS]

    def get_command(self, ctx: Any, cmd_name: str) -> Any | None:
        entry = _BY_NAME.get(cmd_name)
        if entry is None:
            return None
        if cmd_name not in self._loaded:
            self._loaded[cmd_name] = load_command(entry)
        return self._loaded[cmd_name]

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in _BY_NAME:
            near = difflib.get_close_matches(name, list(_BY_NAME), n=1)
            ctx.fail(f"No such command {name!r}." + (f" Did you mean {near[0]!r}?" if near else ""))
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        sections: dict[str, list[tuple[str, str]]] = {}
        for entry in COMMANDS:
            sections.setdefault(entry.section, []).append((entry.name, summary_of(entry)))
        for title, rows in sections.items():
            with formatter.section(title):
                formatter.write_dl(rows)


def load_command(entry: Entry) -> Any:
    """The click command of one entry, built by typer from its function."""
    module = importlib.import_module(f"pipeline.cli.{entry.module}")
    single = _typer(None)
    single.command(entry.name, cls=SectionedCommand, short_help=summary_of(entry))(
        getattr(module, entry.function)
    )
    command = typer.main.get_command(single)
    command.name = entry.name
    panels = PANELS.get(entry.name, {})
    panel_of = {o: title for title, opts in panels.items() for o in opts}
    order = {title: number for number, title in enumerate(panels)}
    for param in command.params:
        title = next((panel_of[o] for o in param.opts if o in panel_of), None)
        if title is not None:
            param.rich_help_panel = title  # type: ignore[attr-defined]
    # options in the order of their sections (positional arguments keep theirs, first)
    command.params.sort(
        key=lambda p: (
            -1
            if p.param_type_name == "argument"
            else order.get(getattr(p, "rich_help_panel", None) or "", len(order))
        )
    )
    return command


def _typer(cls: type[TyperGroup] | None) -> typer.Typer:
    # rich_markup_mode=None: click's plain help, which fits any terminal width
    return typer.Typer(
        cls=cls,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
        add_completion=False,
        no_args_is_help=True,
    )


app = _typer(LazyGroup)


@app.callback()
def gridjudge() -> None:
    """Grade programs on large grid-puzzle test corpora, locally or on a Ray cluster."""


def main() -> None:
    """Console entry point: an unexpected exception is one line, not a traceback
    (set GRIDJUDGE_DEBUG=1 to see it). A Ray cluster the command joined is left as the
    process ends (distribute/ending.py)."""
    from pipeline.distribute.ending import end_joined_ray_with_process, joined_ray_left

    end_joined_ray_with_process()
    try:
        app(prog_name="gridjudge")
    except SystemExit as end:
        if joined_ray_left():
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(end.code if isinstance(end.code, int) else int(end.code is not None))
        raise
    except Exception as exc:
        if os.environ.get("GRIDJUDGE_DEBUG"):
            raise
        from pipeline.text import one_line

        print(
            f"internal error: {type(exc).__name__}: {one_line(str(exc), 300)} "
            "(GRIDJUDGE_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        sys.exit(70)
