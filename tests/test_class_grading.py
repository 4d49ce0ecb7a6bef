"""Grading a class: a folder of 30 submissions (correct, wrong, slow, a compile error, one
file under two ids, C++ and Python, a multi-file folder) on a clocks corpus; the
gradebook against scores computed here from results parquet under each aggregation;
`gridjudge score` rescoring without running anything; feedback files; one-line errors."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import yaml
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.generate import generate_corpus
from pipeline.corpus.store import read_table
from pipeline.problem.registry import get_problem
from pipeline.scoring.policy import ScoringError, default_policy, policy_from
from tests.cli_output import without_isolation_line

CLOCKS = Path(__file__).parent / "submissions" / "clocks"
IDS = [f"s{i}" for i in range(1, 31)]
BREAK = """
import sys as _s
_v = [int(t) for t in open(0).read().split()[:9]]
if sum(i * v // 3 for i, v in enumerate(_v)) % {m} == {r}:
    print({out})
    _s.exit({code})
_s.stdin = __import__("io").StringIO(" ".join(map(str, _v)))
"""
MULTI = {
    "solve.h": "#pragma once\n#include <string>\nstd::string solve(int c[9]);\n",
    "main.cpp": '#include <iostream>\n#include "solve.h"\nint main() { int c[9]; '
    "for (int &x : c) { std::cin >> x; x = x / 3 % 4; } std::cout << solve(c) << '\\n'; }\n",
    "solve.cpp": '#include "solve.h"\nstatic const char *M[9] = {"ABDE", "ABC", "BCEF", '
    '"ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};\nstd::string solve(int c[9]) {\n'
    "  for (int code = 0; code < (1 << 18); code++) {\n    int t[9] = {0};\n"
    "    for (int m = 0; m < 9; m++) for (const char *p = M[m]; *p; p++) "
    "t[*p - 'A'] += (code >> (2 * m)) & 3;\n    bool ok = true;\n"
    "    for (int i = 0; i < 9; i++) ok = ok && (c[i] + t[i]) % 4 == 0;\n"
    "    if (!ok) continue;\n    std::string out;\n"
    "    for (int m = 0; m < 9; m++) for (int k = 0; k < ((code >> (2 * m)) & 3); k++) "
    "{ if (!out.empty()) out += ' '; out += std::to_string(m + 1); }\n    return out;\n"
    '  }\n  return "";\n}\n',
}
MIXED = {
    "groups": [
        {"name": "corner", "families": ["all12", "one_move"], "points": 20, "aggregate": "all"},
        {"name": "random", "families": ["random"], "points": 30, "aggregate": "fraction"},
        {"name": "rest", "families": ["*"], "points": 50, "aggregate": {"threshold": 10}},
    ]
}


def _policy(aggregate: Any) -> dict[str, Any]:
    return {
        "groups": [
            {"name": "few", "families": ["*_move", "all12"], "points": 40, "aggregate": aggregate},
            {"name": "many", "families": ["*"], "points": 60, "aggregate": aggregate},
        ]
    }


def _write_submissions(folder: Path) -> dict[str, str]:
    """The 30 submissions; returns what each is meant to be."""
    folder.mkdir()
    ac_py = (CLOCKS / "ac_search.py").read_text()
    kinds = {}
    for n in range(1, 9):  # correct Python, each a distinct file
        (folder / f"s{n}.py").write_text(f"# student {n}\n{ac_py}")
        kinds[f"s{n}"] = "AC"
    shutil.copy(CLOCKS / "ac_search.cpp", folder / "s9.cpp")
    kinds["s9"] = "AC"
    for n in (10, 11):  # one file under two ids
        shutil.copy(CLOCKS / "wa_zero_when_solved.cpp", folder / f"s{n}.cpp")
        kinds[f"s{n}"] = "dup"
    (folder / "s12.cpp").write_text("int main( {\n")
    kinds["s12"] = "CE"
    shutil.copy(CLOCKS / "tle_sequence_search.py", folder / "s13.py")
    kinds["s13"] = "slow"
    (folder / "s14").mkdir()
    for name, text in MULTI.items():
        (folder / "s14" / name).write_text(text)
    kinds["s14"] = "AC"
    for n in range(15, 31):  # wrong (WA or RE) on a different share of the cases each
        m, r = 3 + n % 5, n % 3
        out, code = ('"1 2 3"', 0) if n % 3 else ('""', 3)
        text = BREAK.format(m=m, r=r, out=out, code=code) + ac_py
        (folder / f"s{n}.py").write_text(text)
        kinds[f"s{n}"] = "partial"
    return kinds


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, [*args])
    return result.exit_code, without_isolation_line(result.output)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("class")
    corpus = root / "clocks"
    generate_corpus(get_problem("clocks"), 48, 5, corpus)
    kinds = _write_submissions(root / "subs")
    policy = root / "mixed.yaml"
    policy.write_text(yaml.safe_dump(MIXED))
    run = root / "run"
    code, output = _cli(
        "grade", str(corpus), "--submissions", str(root / "subs"), "--scoring", str(policy),
        "--out", str(run), "--address", "local-serial", "--time-limit", "0.3",
    )  # fmt: skip
    assert code == 0, output
    return {"root": root, "corpus": corpus, "run": run, "kinds": kinds}


def _results(run: Path) -> list[dict[str, Any]]:
    cols = ["submission", "case_id", "family", "verdict", "attempt"]
    rows = pq.read_table(run / "results", columns=cols).to_pylist()
    last: dict[tuple[str, str], dict[str, Any]] = {}
    for row in sorted(rows, key=lambda r: r["attempt"]):
        last[(row["submission"], row["case_id"])] = row
    return list(last.values())


def _expected(run: Path, policy: dict[str, Any]) -> dict[str, float]:
    """Scores computed here, straight from the results rows and the policy's text."""
    from fnmatch import fnmatchcase

    scores: dict[str, float] = {}
    rows = [r for r in _results(run) if r["verdict"] != "IE"]
    for sub in {r["submission"] for r in rows}:
        total = 0.0
        for i, g in enumerate(policy["groups"]):

            def first_group(family: str) -> int:
                return next(
                    j
                    for j, h in enumerate(policy["groups"])
                    if any(fnmatchcase(family, p) for p in h["families"])
                )

            mine = [r for r in rows if r["submission"] == sub and first_group(r["family"]) == i]
            ok = sum(r["verdict"] == "AC" for r in mine)
            agg = g["aggregate"]
            if agg == "all":
                total += g["points"] if mine and ok == len(mine) else 0
            elif agg == "fraction":
                total += g["points"] * ok / len(mine) if mine else 0
            else:
                total += g["points"] if ok >= agg["threshold"] else 0
        scores[sub] = total
    return scores


def _book(run: Path) -> list[dict[str, Any]]:
    return pq.read_table(run / "gradebook.parquet").to_pylist()


def test_thirty_rows_in_natural_order_with_the_kinds_we_wrote(graded: dict[str, Any]) -> None:
    book = _book(graded["run"])
    assert [r["submission"] for r in book] == IDS  # s2 before s10
    csv_ids = [line.split(",")[0] for line in (graded["run"] / "gradebook.csv").read_text().split()]
    assert csv_ids[1:] == IDS
    by_id = {r["submission"]: r for r in book}
    kinds = graded["kinds"]
    for sid, kind in kinds.items():
        row = by_id[sid]
        assert row["max_score"] == 100
        if kind == "AC":
            assert row["score"] == 100 and row["n_AC"] == 48, sid
        if kind == "CE":
            assert row["compile"] == "CE" and row["n_CE"] == 48 and row["score"] == 0
    same = {k: v for k, v in by_id["s10"].items() if k not in ("submission", "cpu_ms_total")}
    assert same == {k: by_id["s11"][k] for k in same}  # one file under two ids: two rows
    shas = {
        r["submission"]: r["submission_sha"]
        for r in pq.read_table(graded["run"] / "results").to_pylist()
    }
    assert shas["s10"] == shas["s11"] and shas["s10"] != shas["s9"]
    assert by_id["s10"]["n_WA"] > 0 and by_id["s13"]["n_TLE"] > 0
    partial = [by_id[s]["score"] for s, k in kinds.items() if k == "partial"]
    assert all(0 < by_id[s]["n_AC"] < 48 for s, k in kinds.items() if k == "partial")
    assert len(set(partial)) > 3
    assert any(by_id[s]["n_RE"] for s, k in kinds.items() if k == "partial")


def test_scores_match_an_independent_computation_under_each_aggregation(
    graded: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    run, root = graded["run"], graded["root"]
    assert {r["submission"]: r["score"] for r in _book(run)} == pytest.approx(_expected(run, MIXED))
    runs: list[Any] = []
    import pipeline.sandbox as sandbox
    from pipeline.program.submission import PreparedSubmission

    monkeypatch.setattr(sandbox, "get_sandbox", lambda *a, **k: runs.append(a))
    monkeypatch.setattr(PreparedSubmission, "run", lambda *a, **k: runs.append(a))
    parts = {p: p.stat().st_mtime_ns for p in (run / "results").glob("*.parquet")}
    seen = []
    for aggregate in ("all", "fraction", {"threshold": 4}):
        path = root / f"policy-{len(seen)}.yaml"
        path.write_text(yaml.safe_dump(_policy(aggregate)))
        code, output = _cli("score", str(run), "--scoring", str(path))
        assert code == 0, output
        got = {r["submission"]: r["score"] for r in _book(run)}
        assert got == pytest.approx(_expected(run, _policy(aggregate)))
        seen.append(got)
    assert seen[0] != seen[1] != seen[2]  # the policy changes the scores
    assert runs == []  # and no submission ran
    assert parts == {p: p.stat().st_mtime_ns for p in (run / "results").glob("*.parquet")}
    assert yaml.safe_load((run / "scoring.yaml").read_text())["groups"][0]["aggregate"] == {
        "threshold": 4
    }


def test_feedback_files_hide_inputs_unless_told(graded: dict[str, Any]) -> None:
    run = graded["run"]
    files = sorted(p.stem for p in (run / "feedback").glob("*.md"))
    assert sorted(files) == sorted(IDS)
    text = (run / "feedback" / "s10.md").read_text()
    assert "# s10" in text and "WA: wrong answer" in text
    assert "expected" not in text  # the checker's message names the expected token
    failing = next(r for r in _results(run) if r["submission"] == "s10" and r["verdict"] == "WA")
    cases = read_table(graded["corpus"]).to_pylist()
    shown = next(c["input"] for c in cases if c["case_id"] == failing["case_id"]).splitlines()[0]
    assert shown not in text
    code, output = _cli("score", str(run), "--feedback", "show-inputs")
    assert code == 0, output
    text = (run / "feedback" / "s10.md").read_text()
    assert shown in text and "expected" in text


def test_a_compile_error_is_shown_once_in_its_feedback(graded: dict[str, Any]) -> None:
    text = (graded["run"] / "feedback" / "s12.md").read_text()
    assert "did not compile" in text and "The compiler said:" in text
    assert text.count("error:") >= 1
    message = text.split("```")[1]
    assert "main.cpp" in message or "s12" in message or "expected" in message
    assert text.count(message) == 1  # not once per failing case
    assert "- `" not in text  # no per-case list: every case is the same CE


def test_report_lists_every_submission(graded: dict[str, Any]) -> None:
    page = (graded["run"] / "report.html").read_text()
    for i, sid in enumerate(IDS):
        assert f'<a href="#sub-{i}">{sid}</a>' in page and f'id="sub-{i}"' in page
    assert '{"' not in page.split("<h2>Run</h2>")[1]  # metadata as tables, no JSON dumps


def _one(**fields: Any) -> dict[str, Any]:
    return {"groups": [{"name": "a", "families": ["*"], "points": 1} | fields]}


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ({"groups": [{"name": "a", "families": ["random"], "points": 1}]}, "matches no group"),
        ({"groups": [{"name": "a", "families": ["*"], "points": 1, "pts": 2}]}, "pts"),
        (
            {"groups": [{"name": "a", "families": ["*"], "points": 1, "aggregate": "max"}]},
            "aggregate",
        ),
        (
            {
                "groups": [
                    {"name": "a", "families": ["*"], "points": 1, "aggregate": {"threshold": 99}}
                ]
            },
            "fewer than its threshold",
        ),
    ],
)
def test_a_bad_policy_is_one_line_before_any_work(
    tmp_path: Path, policy: dict[str, Any], message: str
) -> None:
    corpus = tmp_path / "c"
    generate_corpus(get_problem("clocks"), 16, 1, corpus)
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(policy))
    out = tmp_path / "run"
    code, output = _cli(
        "grade", str(corpus), "-s", "solver:clocks", "--scoring", str(path), "--out", str(out),
        "--address", "local-serial",
    )  # fmt: skip
    lines = output.strip().splitlines()
    assert code == 2 and len(lines) == 1 and message in lines[0], output
    assert not out.exists()


def test_a_submissions_list_mixes_with_s(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    generate_corpus(get_problem("clocks"), 8, 1, corpus)
    shutil.copy(CLOCKS / "ac_search.py", tmp_path / "a.txt")
    (tmp_path / "list.csv").write_text("id,path,language\nalice,a.txt,py3\nbob2,a.txt,\n")
    code, output = _cli(
        "grade", str(corpus), "--submissions-list", str(tmp_path / "list.csv"),
        "-s", "solver:clocks", "--out", str(tmp_path / "run"), "--address", "local-serial",
    )  # fmt: skip
    assert code == 1 or code == 2, output  # bob2's .txt has no language
    assert "cannot tell the language" in output
    (tmp_path / "list.csv").write_text("id,path,language\nbob10,a.txt,py3\nbob2,a.txt,py3\n")
    code, output = _cli(
        "grade", str(corpus), "--submissions-list", str(tmp_path / "list.csv"),
        "-s", "solver:clocks", "--out", str(tmp_path / "run"), "--address", "local-serial",
    )  # fmt: skip
    assert code == 0, output
    book = _book(tmp_path / "run")
    assert [r["submission"] for r in book] == ["bob2", "bob10", "solver:clocks"]
    assert all(r["score"] == 100 for r in book)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"p/main.py": "print(1)\n", "p/main.rb": ""}, "must hold sources of one language"),
        ({"bad id.py": ""}, "submission id 'bad id'"),
        ({"a.py": "", "a.cpp": ""}, "'a' is given twice"),
    ],
)
def test_a_submissions_folder_that_cannot_be_used_is_one_line(
    tmp_path: Path, files: dict[str, str], message: str
) -> None:
    for name, text in files.items():
        (tmp_path / "subs" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "subs" / name).write_text(text)
    out = tmp_path / "run"
    code, output = _cli(
        "grade", str(tmp_path), "--submissions", str(tmp_path / "subs"), "--out", str(out),
    )  # fmt: skip
    lines = output.strip().splitlines()
    assert code == 2 and len(lines) == 1 and message in lines[0], output
    assert not out.exists()


def test_families_named_by_data_folders_get_a_default_policy() -> None:
    # an imported Kattis package's families are its folders: secret/group1, sample
    policy = default_policy(["sample", "secret/group1", "secret/group2"])
    assert [g.name for g in policy.groups] == ["sample", "secret/group1", "secret/group2"]
    assert policy.assign(["secret/group2"]) == {"secret/group2": "secret/group2"}
    with pytest.raises(ScoringError, match="must be letters"):
        policy_from({"groups": [{"name": "/abs", "families": ["*"], "points": 1}]}, "x")


def test_a_misspelled_policy_key_is_named_with_the_nearest_one() -> None:
    group = {"name": "all", "familes": ["*"], "point": 1}
    with pytest.raises(ScoringError) as info:
        policy_from({"groups": [group]}, "p.yaml")
    assert str(info.value) == (
        "p.yaml: groups.0: unknown setting `familes` - did you mean `families`?; "
        "groups.0: unknown setting `point` - did you mean `points`?"
    )
    with pytest.raises(ScoringError, match="unknown setting `group` - did you mean `groups`"):
        policy_from({"group": [group]}, "p.yaml")


def _messy(root: Path) -> Path:
    subs = root / "subs"
    (subs / "notes").mkdir(parents=True)
    (subs / "notes" / "todo.txt").write_text("grade it\n")
    (subs / "README.md").write_text("# the class\n")
    (subs / "bad name.py").write_text("print(1)\n")
    shutil.copy(CLOCKS / "ac_search.py", subs / "alice.py")
    # what running alice.py in place leaves: not an entry, not a problem
    (subs / "__pycache__").mkdir()
    (subs / "__pycache__" / "alice.cpython-311.pyc").write_bytes(b"\x00")
    return subs


def test_a_messy_submissions_folder_names_every_problem_in_one_line(tmp_path: Path) -> None:
    subs = _messy(tmp_path)
    out = tmp_path / "run"
    code, output = _cli("grade", str(tmp_path), "--submissions", str(subs), "--out", str(out))
    lines = output.strip().splitlines()
    assert code == 2 and len(lines) == 1, output
    line = lines[0]
    assert "3 entries cannot be graded" in line
    assert "README.md (not a source: no language uses .md files)" in line
    assert "notes/ (a folder without source files of a known language)" in line
    assert "bad name.py (submission id 'bad name' must be" in line
    assert "LANG:PATH" not in line and "--skip-unknown" in line and "__pycache__" not in line
    assert not out.exists()


def test_skip_unknown_leaves_out_what_is_not_a_source(tmp_path: Path) -> None:
    subs = _messy(tmp_path)
    corpus = tmp_path / "c"
    generate_corpus(get_problem("clocks"), 6, 1, corpus)
    args = ["grade", str(corpus), "--submissions", str(subs), "--skip-unknown"]
    code, output = _cli(*args, "--out", str(tmp_path / "r1"), "--address", "local-serial")
    assert code == 2 and "1 entry cannot be graded: bad name.py" in output, output
    (subs / "bad name.py").unlink()
    code, output = _cli(*args, "--out", str(tmp_path / "r2"), "--address", "local-serial")
    assert code == 0, output
    assert f"skipped {subs / 'README.md'}: not a source" in output
    assert f"skipped {subs / 'notes'}: a folder without source files" in output
    assert [r["submission"] for r in _book(tmp_path / "r2")] == ["alice"]
