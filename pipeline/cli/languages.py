"""`gridjudge languages`: each language, whether its toolchain is here, its version,
its commands and its start-up cost; `--self-test` proves every available one."""

from __future__ import annotations

from pathlib import Path

import typer

from pipeline.cli.common import user_errors
from pipeline.program.build import default_cache_dir
from pipeline.program.toolchains import (
    describe,
    languages,
    prebuild,
    self_test,
    startup_ms,
)
from pipeline.report.fit import Column, fitted_table
from pipeline.report.terminal import wide_console

COLUMNS = (
    Column("name"),
    Column("language", drop=1, wraps=True),
    Column("available", wraps=True),
    Column("version", drop=0, wraps=True),
    Column("compile", wraps=True),
    Column("run", wraps=True),
    Column("start-up ms", drop=2, justify="right"),
)


@user_errors
def languages_cmd(
    names: list[str] = typer.Argument(None, help="Languages to show (default: all)."),  # noqa: B008
    self_test_: bool = typer.Option(
        False, "--self-test", help="Run each available language's self-test; exit 1 on a failure."
    ),
    cache: Path = typer.Option(None, help="Compile cache (default: the usual one)."),  # noqa: B008
) -> None:
    """List the languages: available, toolchain version, compile and run commands, and the
    measured start-up of a hello world (ms)."""
    chosen = languages(names)
    cache_dir = cache or default_cache_dir()
    console = wide_console()
    rows = []
    infos = [describe(lang) for lang in chosen]
    prebuild(chosen, cache_dir, hello_only=not self_test_)
    for lang, info in zip(chosen, infos, strict=True):
        ms = startup_ms(lang, cache_dir) if info.available else None
        rows.append(
            [
                info.name,
                info.title,
                "yes" if info.available else f"no: apt-get install {info.package}",
                info.version,
                info.compile,
                info.run,
                f"{ms:.0f}" if ms is not None else "-",
            ]
        )
    console.print(fitted_table(COLUMNS, rows, console.width, title="gridjudge languages"))
    if not self_test_:
        return
    failed = 0
    for lang, info in zip(chosen, infos, strict=True):
        if not info.available:
            console.print(f"{lang.name}: skipped ({info.version})")
            continue
        for check in self_test(lang, cache_dir):
            failed += not check.ok
            mark = "ok  " if check.ok else "FAIL"
            console.print(f"{mark} {lang.name:8} {check.step:14} {check.detail}", highlight=False)
    console.print(f"self-test: {failed} failed" if failed else "self-test: all passed")
    if failed:
        raise typer.Exit(1)
