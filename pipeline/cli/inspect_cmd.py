"""`gridjudge inspect`: a corpus's manifest, checked against its parts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import user_errors
from pipeline.corpus.store import verify


@user_errors
def inspect(
    corpus: Annotated[Path, typer.Argument(help="Corpus folder.")],
) -> None:
    """Read a corpus back in full and check it against its manifest (count, hash)."""
    manifest = verify(corpus)
    typer.echo(
        f"{corpus}: {manifest.count} cases of {manifest.problem}, "
        f"schema v{manifest.schema_version}, sha256 {manifest.content_sha256[:16]}…"
    )
    for family, count in manifest.families.items():
        typer.echo(f"  {family:<24} {count:>9}")
    typer.echo("ok: parts match the manifest")
