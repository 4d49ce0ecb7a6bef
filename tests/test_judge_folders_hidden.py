"""The folders a grade works with (the corpus, the run folder) are hidden from the
submissions' view wherever they live, even when their files are readable by anyone (a
corpus copied in with mode 0644 under /opt): a program that knows the corpus's path
cannot list or read it. Real CLI, real sandbox."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.sandbox import make

READER = r"""
#include <dirent.h>
#include <stdio.h>
#include <string.h>
/* exit 3 when anything of the corpus could be listed or read: the grade says RE */
int main(void) {
    DIR *d = opendir("%(corpus)s");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            return 3;
        }
        closedir(d);
    }
    FILE *f = fopen("%(corpus)s/_corpus.json", "r");
    if (f) return 3;
    puts("0");
    return 0;
}
"""


@pytest.fixture
def under_opt() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="gj-hidden-", dir="/opt"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.needs_root(reason="a folder under /opt, which the view shows and only root writes")
def test_a_readable_corpus_under_opt_is_not_in_the_view(under_opt: Path, tmp_path: Path) -> None:
    if not getattr(make("rlimit"), "namespaces", False):
        pytest.skip("no namespaces here: the view that hides folders needs them")
    corpus = under_opt / "corpus"
    runner = CliRunner()
    made = runner.invoke(app, ["generate", "clocks", "--count", "3", "--out", str(corpus),
                               "--address", "local-serial"])  # fmt: skip
    assert made.exit_code == 0, made.output
    for path in [corpus, *corpus.rglob("*")]:  # as a user's copy would be: anyone may read
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    source = tmp_path / "reader.c"
    source.write_text(READER % {"corpus": corpus})
    run = under_opt / "run"
    graded = runner.invoke(app, ["grade", str(corpus), "-s", str(source), "--out", str(run),
                                 "--address", "local-serial"])  # fmt: skip
    assert graded.exit_code == 0, graded.output
    verdicts = pq.read_table(run / "results").column("verdict").to_pylist()
    assert verdicts == ["WA"] * 3  # it printed its guess: nothing of the corpus was there
