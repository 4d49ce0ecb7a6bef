"""submission.py: specs, compile cache, CE, running through the sandbox and in-process."""

from __future__ import annotations

import os
import pickle
import shutil
import uuid
from pathlib import Path

import pytest

from pipeline.grade.engine import grade_cases
from pipeline.grade.rows import RowContext
from pipeline.limits import Limits
from pipeline.problem import registry
from pipeline.problem.contract import IOMode
from pipeline.program.submission import SubmissionError, parse_spec, prepare
from tests._fake_problem import make_problem

PROBLEM = make_problem()
LIMITS = Limits.from_seconds(2.0, memory_mb=256)

C_SUM = (
    "#include <stdio.h>\n"
    'int main(void){long s=0,x;while(scanf("%ld",&x)==1)s+=x;printf("%ld\\n",s);return 0;}\n'
)
PY_SUM = "import sys\nprint(sum(int(t) for t in sys.stdin.read().split()))\n"


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_parse_spec_forms(tmp_path: Path) -> None:
    src = _write(tmp_path, "a.cpp", "int main(){}")
    spec = parse_spec(str(src))
    assert (spec.kind, spec.language, spec.label) == ("source", "cpp17", str(src))
    assert parse_spec(f"cpp98:{src}").language == "cpp98"
    assert parse_spec(str(_write(tmp_path, "b.c", ""))).language == "c11"
    assert parse_spec(str(_write(tmp_path, "c.py", ""))).language == "py3"
    cmd = parse_spec("cmd:python3 -c 'print(1)'")
    assert (cmd.kind, cmd.command) == ("cmd", "python3 -c 'print(1)'")
    sol = parse_spec("solver:spot@2")
    assert (sol.kind, sol.problem, sol.version) == ("solver", "spot", "2")
    assert parse_spec("solver:spot").version is None
    exe = tmp_path / "run.bin"
    exe.write_text("#!/bin/sh\necho 1\n")
    exe.chmod(0o755)
    assert parse_spec(str(exe)).kind == "executable"
    assert pickle.loads(pickle.dumps(spec)) == spec


@pytest.mark.parametrize(
    "raw",
    ["", "cmd:", "solver:", "solver:spot@", "java:x.java", "/no/such/file.cpp", "notes.txt"],
)
def test_bad_specs_are_one_line_errors(raw: str, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(SubmissionError) as err:
        parse_spec(raw)
    assert "\n" not in str(err.value)


def test_compile_once_per_content_hash(tmp_path: Path, cache: Path) -> None:
    src = _write(tmp_path, "sum.c", C_SUM)
    first = prepare(parse_spec(str(src)), PROBLEM, cache)
    assert first.compile_error is None and first.program is not None
    stamp = Path(first.program).stat().st_mtime_ns
    copy = _write(tmp_path, "same.c", C_SUM)
    second = prepare(parse_spec(str(copy)), PROBLEM, cache)
    assert second.sha == first.sha and second.program == first.program
    assert Path(second.program).stat().st_mtime_ns == stamp  # not rebuilt
    other = prepare(parse_spec(f"cpp17:{src}"), PROBLEM, cache)
    assert other.sha != first.sha  # the language is part of the hash


def test_compile_error_kept_truncated_and_cached(tmp_path: Path, cache: Path) -> None:
    bad = _write(tmp_path, "bad.cpp", "int main() { return undefined_name" + "+x" * 3000 + "; }\n")
    sub = prepare(parse_spec(str(bad)), PROBLEM, cache)
    assert sub.compile_error is not None
    assert "undefined_name" in sub.compile_error and "bad.cpp" in sub.compile_error
    assert len(sub.compile_error) <= 2100
    again = prepare(parse_spec(str(bad)), PROBLEM, cache)
    assert again.compile_error == sub.compile_error
    syntax = _write(tmp_path, "s.py", "def f(:\n")
    assert prepare(parse_spec(str(syntax)), PROBLEM, cache).compile_error


@pytest.mark.parametrize("name,text", [("sum.c", C_SUM), ("sum.py", PY_SUM)])
def test_run_source(name: str, text: str, tmp_path: Path, cache: Path) -> None:
    sub = prepare(parse_spec(str(_write(tmp_path, name, text))), PROBLEM, cache)
    result = sub.run("1 2 39\n", LIMITS)
    assert result.judge_error is None, result.judge_error
    assert (result.exit_code, result.output) == (0, b"42\n")
    assert result.wall_ms > 0


def test_run_cmd_and_executable(tmp_path: Path, cache: Path) -> None:
    sub = prepare(parse_spec("cmd:tr 1 7; exit 4"), PROBLEM, cache)
    result = sub.run("1 1\n", LIMITS)
    assert (result.exit_code, result.output) == (4, b"7 7\n")
    exe = tmp_path / "prog"
    exe.write_text("#!/bin/sh\nread a b\necho $((a*b))\n")
    exe.chmod(0o755)
    result = prepare(parse_spec(str(exe)), PROBLEM, cache).run("6 7\n", LIMITS)
    assert result.output == b"42\n"


def test_file_io_mode(tmp_path: Path, cache: Path) -> None:
    problem = make_problem(io=IOMode("sum.in", "sum.out"))
    by_file = (
        "d = open('sum.in').read().split()\n"
        "open('sum.out', 'w').write(str(sum(map(int, d))) + '\\n')\n"
        "print('noise')\n"
    )
    sub = prepare(parse_spec(str(_write(tmp_path, "f.py", by_file))), problem, cache)
    assert sub.run("2 3\n", LIMITS).output == b"5\n"  # the file wins over stdout
    by_stdio = prepare(parse_spec(str(_write(tmp_path, "g.py", PY_SUM))), problem, cache)
    assert by_stdio.run("2 3\n", LIMITS).output == b"5\n"  # no file written: stdout


def test_rebuild_when_binary_missing(tmp_path: Path, cache: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    sub = prepare(parse_spec(str(_write(tmp_path, "sum.c", C_SUM))), PROBLEM, cache)
    shipped = pickle.loads(pickle.dumps(sub))
    assert shipped.program is not None
    shutil.rmtree(shipped.program)  # as if on another node
    monkeypatch.setenv("GRIDJUDGE_CACHE", str(tmp_path / "node2"))
    assert shipped.run("4 5\n", LIMITS).output == b"9\n"
    assert str(tmp_path / "node2") in str(shipped.program)


def test_solver_in_process(cache: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(registry, "get_problem", lambda name: PROBLEM)
    sub = prepare(parse_spec("solver:sum"), PROBLEM, cache)
    assert sub.version == "1"
    cases = [
        {"case_id": "ok", "input": "1 2 3\n", "expected": "6\n"},
        {"case_id": "crash", "input": "\n", "expected": "0\n"},
    ]
    context = RowContext("r", PROBLEM.name, 1, "n")
    graded = grade_cases(PROBLEM, [sub], cases, LIMITS, context, validate=False)
    ok, crashed = graded.table.to_pylist()
    assert (ok["verdict"], ok["exit_code"], ok["output_head"]) == ("AC", 0, "6\n")
    assert crashed["verdict"] == "RE" and "nothing to add" in crashed["checker_msg"]
    assert sub.run("1 2 3\n", LIMITS).judge_error  # solvers run in the grading process only
    assert prepare(parse_spec("solver:sum@2"), PROBLEM, cache).sha != sub.sha
    with pytest.raises(SubmissionError):
        prepare(parse_spec("solver:sum@9"), PROBLEM, cache)
    with pytest.raises(SubmissionError):
        prepare(parse_spec("solver:spot"), PROBLEM, cache)


def test_compiler_cannot_read_host_files(tmp_path: Path, cache: Path) -> None:
    """The compiler runs sandboxed: an #include of a world-readable file outside the
    scratch dir (say, an answer file) is a CE that does not show its content."""
    if os.environ.get("GRIDJUDGE_SANDBOX") == "none":
        pytest.skip("the `none` backend does not isolate")
    # The content is a token drawn apart from the file's name, so that the name (which
    # the compiler may quote) can never contain it: a pid once did.
    token = uuid.uuid4().hex
    secret = Path(f"/tmp/gj_include_{uuid.uuid4().hex}.h")
    secret.write_text(f"#define ANSWER 42\n#error {token}\nTOP SECRET LINE\n")
    secret.chmod(0o644)
    try:
        src = _write(tmp_path, "peek.c", f'#include "{secret}"\nint main(void){{return ANSWER;}}\n')
        sub = prepare(parse_spec(str(src)), PROBLEM, cache)
    finally:
        secret.unlink()
    assert sub.compile_error is not None
    assert token not in sub.compile_error and "TOP SECRET" not in sub.compile_error
