"""The `gridjudge` command: registers one command per module."""

from __future__ import annotations

import os
import sys

import typer

from pipeline.cli import (
    compare,
    demo,
    doctor,
    export,
    generate,
    grade,
    import_cmd,
    inspect_cmd,
    languages,
    problems,
    report_cmd,
    run,
    score,
    solve,
    stress,
    validate,
    verify,
)

app = typer.Typer(
    name="gridjudge",
    help="Grade programs on large grid-puzzle test corpora, locally or on a Ray cluster.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.command("problems")(problems.problems)
app.command("languages")(languages.languages_cmd)
app.command("generate")(generate.generate)
app.command("grade")(grade.grade)
app.command("import")(import_cmd.import_corpus)
app.command("export")(export.export)
app.command("inspect")(inspect_cmd.inspect)
app.command("report")(report_cmd.report)
app.command("score")(score.score)
app.command("run")(run.run)
app.command("demo")(demo.demo)
app.command("solve")(solve.solve)
app.command("validate")(validate.validate)
app.command("stress")(stress.stress)
app.command("compare")(compare.compare)
app.command("verify")(verify.verify)
app.command("doctor")(doctor.doctor)


def main() -> None:
    """Console entry point: an unexpected exception is one line, not a traceback
    (set GRIDJUDGE_DEBUG=1 to see it)."""
    try:
        app()
    except Exception as exc:
        if os.environ.get("GRIDJUDGE_DEBUG"):
            raise
        print(
            f"internal error: {type(exc).__name__}: {' '.join(str(exc).split())[:300]} "
            "(GRIDJUDGE_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        sys.exit(70)
