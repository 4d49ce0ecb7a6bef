"""`gridjudge strength` on a corpus of a built-in problem (spot): wrong programs in two
languages and a correct one, end to end through the CLI (the matrix read by DuckDB, the
minimal corpus graded again by `grade`), one-line errors for bad input, and the matrix
the same after a run killed mid-way is resumed. Runs without Ray (`local-serial`)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.generate import generate_corpus
from pipeline.grade.settings import GradeSettings
from pipeline.problem.registry import get_problem
from pipeline.results import store as run_folder
from pipeline.strength.matrix import GradeRun, corpus_cases
from pipeline.strength.run import StrengthOptions, run_strength
from tests.cli_output import without_isolation_line

SPOT = Path(__file__).resolve().parent / "submissions" / "spot"
WRONG = [SPOT / "wa_counts_empty_board.py", SPOT / "wa_no_rotations.cpp"]
CORRECT = SPOT / "ac_rotations.c"
EXAMPLE = Path(__file__).resolve().parents[1] / "datasets" / "examples" / "spot"
SERIAL = ("--address", "local-serial")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("c") / "spot"
    generate_corpus(get_problem("spot"), 24, 5, out)
    return out


def strength(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["strength", *args, "--address", "local-serial"])
    return result.exit_code, without_isolation_line(result.output)


@pytest.fixture(scope="module")
def graded(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Two wrong programs and a correct one, and spot's wrong example (added by default),
    graded once for the tests that read the run."""
    out = tmp_path_factory.mktemp("graded") / "s"
    wrong = [a for path in [*WRONG, CORRECT] for a in ("--wrong", str(path))]
    code, output = strength(str(corpus), *wrong, "--out", str(out))
    assert code == 0, output
    return out, output


def test_wrong_programs_are_killed_a_correct_one_survives_and_the_minimal_corpus_holds(
    corpus: Path, graded: tuple[Path, str], tmp_path: Path
) -> None:
    out, output = graded
    assert "programs: 4 (1 example, 3 wrong)" in output
    assert "survivors (1): ac_rotations" in output
    matrix = str(out / "matrix.parquet")
    pairs = duckdb.sql(f"select count(*) from '{matrix}'").fetchall()
    assert pairs == [(4 * 24,)]
    killed = {
        row[0]
        for row in duckdb.sql(f"select distinct program from '{matrix}' where killed").fetchall()
    }
    example = "examples/wa_counts_empty_board.cpp"
    assert killed == {"wa_counts_empty_board", "wa_no_rotations", example}
    programs = pd.read_parquet(out / "programs.parquet").set_index("program")
    order = corpus_cases(corpus).ids
    for label in killed:  # the first kill is the first case in corpus order that kills
        kills = duckdb.sql(
            f"select case_id from '{matrix}' where program = '{label}' and killed"
        ).fetchall()
        assert programs.loc[label, "first_kill"] == min((k for (k,) in kills), key=order.index)
        assert programs.loc[label, "kills"] == len(kills)
    # the picture, first in the run's report: one cell per (family, program), the
    # survivor's column unshaded; then grade's own report of the three programs
    page = (out / "report.html").read_text()
    start = page.index('<section id="strength">')
    section = page[start : page.index("</section>", start)]
    families = len(pd.read_parquet(out / "families.parquet"))
    assert section.count("<rect ") == families * 4
    assert section.count('fill="#eef"><title>ac_rotations (wrong)') == families
    assert "<li>ac_rotations</li>" in section
    assert start < page.index("<h2>Gradebook</h2>")
    # the minimal corpus, graded again by `grade`, rejects exactly the killed programs
    figures = json.loads((out / "strength.json").read_text())
    assert 1 <= figures["minimal_cases"] <= 2
    again = tmp_path / "again"
    argv = ["grade", str(out / "minimal"), "--out", str(again), "--address", "local-serial"]
    for path in [*WRONG, CORRECT]:
        argv += ["-s", str(path)]
    argv += ["-s", str(EXAMPLE / "wa_counts_empty_board.cpp")]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    rows = run_folder.load_results(again, columns=["submission", "verdict"]).to_pylist()
    rejected = {Path(r["submission"]) for r in rows if r["verdict"] != "AC"}
    names = {f"examples/{p.name}" if p.parent == EXAMPLE else p.stem for p in rejected}
    assert names == killed


def test_the_report_shows_the_strength_section_in_a_browser(graded: tuple[Path, str]) -> None:
    pytest.importorskip("websocket", reason="websocket-client is a dev extra")
    from tests.browser import open_page, page_troubles

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.skip("chromium is not installed (Debian package `chromium`)")
    out, _ = graded
    figures = json.loads((out / "strength.json").read_text())
    families = len(pd.read_parquet(out / "families.parquet"))
    page = open_page(binary, out / "report.html")
    try:
        shown = page.evaluate(
            "(() => { const m = document.querySelector('#kill-matrix').getBoundingClientRect();"
            " return [m.width > 200 && m.height > 20,"
            " document.querySelectorAll('#kill-matrix rect').length,"
            " Array.from(document.querySelectorAll('#survivors li')).map(li => li.textContent),"
            " document.querySelector('#strength-figures').innerText,"
            " document.querySelectorAll('#gradebook tbody tr').length]; })()"
        )
        errors, requests = page_troubles(page)
    finally:
        page.close()
    visible, cells, survivors, table, gradebook_rows = shown
    assert visible and cells == families * 4
    assert survivors == ["ac_rotations"]
    assert f"minimal corpus\t{figures['minimal_cases']} cases" in table
    assert gradebook_rows == 4  # grade's report of the population follows
    assert errors == [] and len(requests) == 1, (errors, requests)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{missing}"], "neither a corpus folder nor a problem package"),
        (["{corpus}", "--wrong", "{missing}"], "no such file or folder"),
        (["{corpus}", "--wrong", str(WRONG[0]), "--mutants", "3"], "--mutants needs --mutate"),
        (["{corpus}", "--no-examples"], "no program to grade"),
        (["{corpus}", "--mutate", "{missing}", "--mutants", "2"], "no such file"),
    ],
)
def test_bad_input_is_one_line(corpus: Path, tmp_path: Path, args: list[str], message: str) -> None:
    argv = [a.format(corpus=corpus, missing=tmp_path / "nope") for a in args]
    code, output = strength(*argv, "--out", str(tmp_path / "s"))
    lines = output.strip().splitlines()
    assert code == 2, output
    assert lines[-1].startswith("error: ") and message in lines[-1], output
    assert not any(line.startswith("Traceback") for line in lines)


def test_an_out_folder_holding_something_else_is_refused(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "s"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    code, output = strength(str(corpus), "--wrong", str(WRONG[0]), "--out", str(out))
    assert code == 2 and "'notes.txt', not a strength run's" in output
    assert (out / "notes.txt").read_text() == "mine"


class Killed(KeyboardInterrupt):
    pass


def _options(corpus: Path, out: Path, resume: bool) -> StrengthOptions:
    grading = GradeRun(out / "run", "local-serial", resume, GradeSettings(), False, None, 4)
    return StrengthOptions(corpus, out, [*WRONG, CORRECT], grading=grading)


def test_the_matrix_is_the_same_after_a_killed_run_is_resumed(corpus: Path, tmp_path: Path) -> None:
    whole = run_strength(_options(corpus, tmp_path / "whole", resume=False))

    def kill_after_two_parts(n: int, counts: Counter[str]) -> None:
        parts = len(list((tmp_path / "cut" / "run" / "results").glob("*.parquet")))
        if parts >= 2:
            raise Killed

    with pytest.raises(Killed):
        run_strength(_options(corpus, tmp_path / "cut", resume=False), kill_after_two_parts)
    before = run_folder.load_results(tmp_path / "cut" / "run").to_pandas()
    assert 0 < len(before) < whole.pairs
    cut = str(tmp_path / "cut")
    refused, output = strength(str(corpus), "--wrong", str(WRONG[0]), "--out", cut)
    assert refused == 2 and "pass --resume" in output
    resumed = run_strength(_options(corpus, tmp_path / "cut", resume=True))
    columns = ["program", "kind", "case_id", "family", "verdict", "killed"]
    key = ["program", "case_id"]  # the rows in the order the runs wrote them
    a = pd.read_parquet(tmp_path / "whole" / "matrix.parquet").sort_values(key, ignore_index=True)
    b = pd.read_parquet(tmp_path / "cut" / "matrix.parquet").sort_values(key, ignore_index=True)
    assert len(b) == whole.pairs == resumed.pairs
    pd.testing.assert_frame_equal(a[columns], b[columns])
    # the pairs graded before the kill kept their rows: not graded again
    kept = b.merge(before.rename(columns={"submission": "program"}), on=["program", "case_id"])
    assert len(kept) == len(before)
    assert (kept["cpu_ms_x"] == kept["cpu_ms_y"]).all()
    assert resumed.graded.skipped == len(before)


def test_two_programs_of_one_name_are_refused_before_any_mutant_is_made(
    corpus: Path, tmp_path: Path
) -> None:
    twin = tmp_path / "twin" / "wa_counts_empty_board.cpp"  # the stem of WRONG[0]
    twin.parent.mkdir()
    twin.write_text("int main() { return 0; }\n")
    out = tmp_path / "s"
    code, output = strength(
        str(corpus), "--wrong", str(WRONG[0]), "--wrong", str(twin), "--mutants", "5",
        "--mutate", str(CORRECT), "--out", str(out),
    )  # fmt: skip
    assert code == 2 and "'wa_counts_empty_board' is given twice" in output, output
    assert not (out / "mutants").exists()


def test_a_survivor_is_stressed_and_the_case_that_kills_it_is_a_corpus(tmp_path: Path) -> None:
    # three cases of one family, where counting the empty board never matters
    small = tmp_path / "n2"
    generate_corpus(get_problem("spot"), 3, 0, small, families=["n2"])
    out = tmp_path / "s"
    code, output = strength(
        str(small), "--wrong", str(WRONG[0]), "--wrong", str(WRONG[1]),
        "--stress-survivors", "60", "--no-examples", "--out", str(out),
    )  # fmt: skip
    assert code == 0, output
    assert "survivors (1): wa_counts_empty_board" in output
    searched = pd.read_parquet(out / "survivors.parquet")
    assert list(searched["program"]) == ["wa_counts_empty_board"]
    assert searched["verdict"][0] == "WA"
    # the regression corpus, graded by `grade`, kills the survivor
    again = tmp_path / "again"
    result = CliRunner().invoke(
        app,
        ["grade", str(out / "regression"), "-s", str(WRONG[0]), "--out", str(again), *SERIAL],
    )
    assert result.exit_code == 0, result.output
    rows = run_folder.load_results(again, columns=["case_id", "verdict"]).to_pylist()
    assert rows == [{"case_id": "strength/wa_counts_empty_board", "verdict": "WA"}]


def test_a_program_stopped_by_max_tle_is_killed_only_by_the_cases_that_ran(
    corpus: Path, tmp_path: Path
) -> None:
    loops = tmp_path / "loops.py"
    loops.write_text("while True:\n    pass\n")
    out = tmp_path / "s"
    code, output = strength(
        str(corpus), "--wrong", str(loops), "--wrong", str(WRONG[1]),
        "--max-tle", "1", "--time-limit", "0.2", "--out", str(out),
    )  # fmt: skip
    assert code == 0, output
    matrix = pd.read_parquet(out / "matrix.parquet")
    mine = matrix[matrix["program"] == "loops"]
    assert set(mine["verdict"]) == {"TLE"} and len(mine) == 24
    ran = mine[mine["ran"]]
    assert len(ran) == 1 and ran["killed"].all()
    assert not mine[~mine["ran"]]["killed"].any()
    programs = pd.read_parquet(out / "programs.parquet").set_index("program")
    assert programs.loc["loops", "kills"] == 1
    assert programs.loc["loops", "first_kill"] == ran["case_id"].iloc[0]
