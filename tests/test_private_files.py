"""Judge files are the judge's alone (issue 23, point 4): whatever the umask, every file
and folder gridjudge writes (corpus, run folder, results, gradebook, feedback, report,
result cache, imported corpus, exported package) has no group or other permission bits,
so a corpus kept under a world-readable folder such as /opt is unreadable to a sandboxed
submission, which runs as another user."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline import sandbox as sandbox_module
from pipeline.cli.app import app
from pipeline.limits import Limits
from pipeline.problem.registry import get_problem
from pipeline.program.submission import parse_spec, prepare
from pipeline.sandbox import make

CLOCKS = Path(__file__).resolve().parent / "submissions" / "clocks"
# reads each path named on its input and says whether it could
READER = """
import sys
for path in sys.stdin.read().split():
    try:
        with open(path, "rb") as fh:
            print("read", len(fh.read()), path)
    except OSError as exc:
        print("denied", exc.errno, path)
"""


def _cli(*args: str) -> None:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def opt() -> Iterator[Path]:
    """A fresh 0755 folder under /opt (a world-readable place a corpus may be kept),
    else under the system's temporary folder, made 0755 too."""
    base = "/opt" if os.access("/opt", os.W_OK) else None
    folder = Path(tempfile.mkdtemp(prefix="gridjudge-test-", dir=base))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def written(opt: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """generate, grade (with the result cache under `opt`), import and export, all with
    umask 0: without explicit modes every file would be 0666 and every folder 0777."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("GRIDJUDGE_RESULT_CACHE", str(opt / "cache"))
        env.setenv("GRIDJUDGE_CACHE", str(tmp_path_factory.mktemp("build-cache")))
        old = os.umask(0)
        try:
            corpus = opt / "data" / "clocks"  # data/ made on the way
            _cli("generate", "clocks", "--count", "8", "--seed", "3", "--out", str(corpus),
                 "--address", "local-serial")  # fmt: skip
            _cli("grade", str(corpus), "-s", str(CLOCKS / "ac_search.py"),
                 "-s", str(CLOCKS / "wa_zero_when_solved.cpp"),
                 "--out", str(opt / "runs" / "r1"), "--address", "local-serial")  # fmt: skip
            _cli("export", "clocks", "--out", str(opt / "pkg" / "clocks"), "--count", "8")
            _cli("import", str(opt / "pkg" / "clocks"), "--problem", "clocks",
                 "--out", str(opt / "imported"))  # fmt: skip
        finally:
            os.umask(old)
    return opt


def test_every_file_and_folder_written_is_private(written: Path) -> None:
    paths = [p for p in written.rglob("*") if not p.is_symlink()]
    kinds = {p.relative_to(written).parts[0] for p in paths}
    assert kinds == {"data", "runs", "cache", "pkg", "imported"}
    names = {p.name for p in paths}
    assert {"_corpus.json", "run.json", "summary.parquet", "gradebook.csv", "report.html"} <= names
    assert {"results.sqlite", "problem.yaml"} <= names
    assert len(list((written / "runs" / "r1" / "feedback").glob("*.md"))) == 2
    loose = [
        f"{p.relative_to(written)} {stat.filemode(p.stat().st_mode)}"
        for p in paths
        if p.stat().st_mode & 0o077
    ]
    assert not loose


@pytest.mark.needs_root(reason="programs run as another user only for root")
def test_a_sandboxed_program_cannot_read_judge_files(written: Path) -> None:
    targets = [
        *sorted((written / "data" / "clocks").glob("part-*.parquet")),
        *sorted((written / "runs" / "r1" / "results").glob("part-*.parquet")),
        *sorted((written / "runs" / "r1" / "feedback").glob("*.md")),
        written / "cache" / "results.sqlite",
        next((written / "pkg" / "clocks" / "data" / "secret").rglob("*.ans")),
    ]
    assert all(t.is_file() for t in targets)
    problem = get_problem("clocks")
    source = written.parent / f"{written.name}-reader.py"
    try:
        source.write_text(READER)
        sub = prepare(parse_spec(str(source)), problem)
        sandbox_module.use(make("rlimit"))
        try:
            result = sub.run("\n".join(map(str, targets)), Limits.from_seconds(5.0))
        finally:
            sandbox_module.use(None)
    finally:
        source.unlink()
    said = result.output.decode().splitlines()
    assert len(said) == len(targets), (said, result.stderr_head)
    assert all(line.startswith("denied ") for line in said), said
