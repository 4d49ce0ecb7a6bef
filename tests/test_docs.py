"""The docs tell the truth: every `$ gridjudge ...` example of README.md and docs/ is run
here and compared with the output shown (CHECKED, run in order in one folder, as a
reader would), or listed in UNCHECKED with the reason its output cannot be compared
(timings, tables of timings, a machine's users). Also the lists the docs keep by hand:
grading.md's language prefixes and extensions, and testing.md's list of what .ci/run
installs."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.program.languages import all_languages
from pipeline.program.languages.registry import for_extension
from tests.cli_output import without_isolation_line

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
SERIAL = "--address local-serial"  # same corpus on any cluster; no Ray to start here

# (command as shown, how it is run here: None = as shown), in the order a reader runs them
CHECKED: list[tuple[str, str | None]] = [
    ("printf '9 9 12\\n6 6 6\\n6 3 6\\n' | gridjudge solve clocks", None),
    ("printf '9 9 12\\n6 6 6\\n6 3 7\\n' | gridjudge validate clocks", None),
    (g := "gridjudge generate spot --count 2400 --seed 7 --out out/spot", f"{g} {SERIAL}"),
    ("ls -A out/spot", None),
    ("gridjudge inspect out/spot | head -3", None),
    (g := "gridjudge generate spot --count 600 --seed 1 --out out/spot600", f"{g} {SERIAL}"),
    (
        g := "gridjudge generate clocks --count 500 --seed 1 --out out/c --address 192.0.2.2:6391",
        g.replace("--address 192.0.2.2:6391", SERIAL),
    ),
    ("gridjudge stress spot --submission datasets/examples/spot/wa_counts_empty_board.cpp", None),
    (
        "gridjudge stress mine --submission datasets/examples/mine/wa_forgets_lone_numbers.cpp "
        "--out out/mine-cex.in",
        None,
    ),
    (
        "mkdir -p out/judge && cp out/mine-cex.in out/judge/0001.in "
        "&& cp out/mine-cex.ans out/judge/0001.ans",
        None,
    ),
    ("gridjudge import out/judge --problem mine --out out/imported", None),
    ("gridjudge export gomoku --out gomoku --count 44", None),
    (g := "gridjudge export gomoku --out /tmp/pkg/gomoku", g.replace("/tmp/pkg", "pkg")),
]
UNCHECKED = {
    "gridjudge generate clocks --count 8 --out /opt/judge": "writes under /opt; "
    "tests/test_private_files.py checks the modes it shows",
    "ls -ld /opt/judge": "the machine's owners and dates",
    "make demo": "timings and Ray; tests/test_demo.py runs the demo",
    "source .venv/bin/activate": "shell set-up",
    "echo $?": "the exit code of the example before, which is not run here",
    "export RAY_AUTH_MODE=disabled": "shell set-up for a separate Ray head node",
    "ray start": "a separate Ray head node",
    "gridjudge grade": "a table of CPU times and the machine's speed",
    "gridjudge report": "a table of CPU times",
    "gridjudge compare": "timing ratios of two runs on a noisy machine",
    "gridjudge verify": "margins measured in CPU time",
    "gridjudge run": "timings of each step",
    "gridjudge score": "a class folder the reader makes",
    "gridjudge problems": "a table as wide as the terminal; tests/test_cli_tables.py",
    "gridjudge stress clocks --submission datasets/examples/clocks/correct.cpp": "timings",
    "gridjudge stress clocks --max-cases 1": "the sandbox as seen on the machine it ran on",
    "gridjudge validate path/to/hello": "a placeholder package",
    "gridjudge import path/to/hello": "a placeholder package",
    "python -c": "pandas / json one-liners over run folders of timed runs",
    "mkdir -p out && cat > out/job.yaml": "writes a config for `gridjudge run`",
    ".venv/bin/python bench/": "a benchmark",
    "gridjudge doctor": "the isolation the machine it ran on offers; tests/test_doctor.py",
    "gridjudge generate spot --out spot-corpus": "the corpus of the strength example below",
    "gridjudge strength": "minutes of grading 200 mutants; tests/test_strength_cli.py runs "
    "it on a small corpus",
    "duckdb -c": "the DuckDB command-line tool, which gridjudge does not install",
}
# progress lines (on stderr, every few seconds: as many as the machine's speed makes)
PROGRESS = re.compile(r"^\S[^:]*: \d+/\d+ \(\d+%\) |^stress \S+: \d+ cases \(.*\) in [\d.]+ s$")
CLUSTER = re.compile(
    r" on (embedded local Ray, \d+ CPUs|Ray cluster at \S+, \d+ CPUs|serial \(in-process\))"
)


def examples() -> dict[str, tuple[str, list[str]]]:
    """Each `$ command` of a ```console block: (file name, the output lines shown)."""
    found: dict[str, tuple[str, list[str]]] = {}
    for path in DOCS:
        if path.name == "cli.md":  # generated help text, tests/test_cli_help.py
            continue
        for block in re.findall(r"```console\n(.*?)```", path.read_text(), re.S):
            command = None
            for line in block.splitlines():
                if line.startswith("$ "):
                    command = line[2:]
                    found.setdefault(command, (path.name, []))
                elif command is not None and found[command][0] == path.name:
                    found[command][1].append(line)
    return found


def _normal(line: str) -> str:
    return CLUSTER.sub(" on <cluster>", line.rstrip())


def _matches(shown: list[str], got: list[str]) -> bool:
    """The lines shown, in order; `...` stands for any lines. Without `...` the output
    must be exactly the lines shown."""
    shown = [_normal(s) for s in shown]
    while shown and not shown[-1]:
        shown.pop()
    got = [_normal(g) for g in got if not PROGRESS.match(g)]
    while got and not got[-1]:
        got.pop()
    if "..." not in shown:
        return shown == got
    position = 0
    for line in shown:
        if line == "...":
            continue
        try:
            position = got.index(line, position) + 1
        except ValueError:
            return False
    return True


def test_every_example_is_checked_or_says_why_not() -> None:
    checked = {shown for shown, _ in CHECKED}
    unaccounted = [
        f"{name}: $ {command}"
        for command, (name, _) in examples().items()
        if command not in checked and not any(command.startswith(p) for p in UNCHECKED)
    ]
    assert not unaccounted, "add to CHECKED or UNCHECKED:\n" + "\n".join(unaccounted)
    missing = checked - set(examples())
    assert not missing, f"CHECKED commands no longer in the docs: {missing}"


@pytest.mark.slow
def test_the_examples_print_what_the_docs_show(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "gridjudge"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m pipeline.cli "$@"\n')
    shim.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    (work / "datasets").symlink_to(REPO / "datasets")
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "PYTHONPATH": str(REPO),
        "GRIDJUDGE_CACHE": str(tmp_path / "cache"),
    }
    shown = examples()
    wrong = []
    for command, run_as in CHECKED:
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", run_as or command],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        # (shown where isolation is full: the line a machine with less adds is not in them)
        got = (done.stdout + without_isolation_line(done.stderr)).splitlines()
        name, lines = shown[command]
        if run_as and "/tmp/pkg" in command:
            lines = [line.replace("/tmp/pkg", "pkg") for line in lines]
        if not _matches(lines, got):
            wrong.append(
                f"{name}: $ {command}\nshown:\n" + "\n".join(lines) + "\ngot:\n" + "\n".join(got)
            )
    assert not wrong, "\n\n".join(wrong)


def test_grading_md_lists_every_language_prefix_and_extension() -> None:
    text = " ".join((REPO / "docs" / "grading.md").read_text().split())
    prefixes = re.search(r"`LANG:PATH`: the language named, one of `([^`]+)`", text)
    assert prefixes is not None
    assert prefixes.group(1).split() == list(all_languages())
    extensions = re.search(r"taken from the extension: (.*?); or an executable", text)
    assert extensions is not None
    listed: dict[str, str] = {}
    for exts, name in re.findall(r"((?:`\.\w+` )+)(\w+)", extensions.group(1)):
        for ext in re.findall(r"`(\.\w+)`", exts):
            listed[ext] = name
    every = {ext for lang in all_languages().values() for ext in lang.extensions}
    assert set(listed) == every
    for ext, name in listed.items():
        language = for_extension(ext)
        assert language is not None and language.name == name, ext


def test_testing_doc_lists_what_ci_installs() -> None:
    script = (REPO / ".ci" / "run").read_text().replace("\\\n", " ")
    command = re.search(r"apt-get install ([^>\n]+)", script)
    assert command is not None
    installed = [w for w in command.group(1).split() if not w.startswith("-")]
    readme = " ".join((REPO / "docs" / "testing.md").read_text().split())
    listed = re.search(r"installs with `apt-get` `([^`]+)`", readme)
    assert listed is not None
    assert listed.group(1).split() == installed


CITED = re.compile(r"docs/([A-Za-z_-]+\.md)(?:#([A-Za-z0-9_-]+))?")


def anchors(page: Path) -> set[str]:
    """The anchors a page offers: explicit ids and headings' slugs, as GitHub makes them."""
    text = page.read_text()
    ids = set(re.findall(r'<a id="([^"]+)"></a>', text))
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        ids.add(slug)
    return ids


def test_every_document_the_code_cites_is_in_the_repository() -> None:
    # a comment citing a planning document a clone does not have cannot be followed
    root = Path(__file__).resolve().parent.parent
    sources = [p for d in ("pipeline", "solvers", "bench") for p in (root / d).rglob("*")
               if p.suffix in (".py", ".c", ".h")]  # fmt: skip
    missing = []
    for source in sources:
        text = source.read_text(errors="replace")
        if re.search(r"DESIGN(\.md)? ?§", text):
            missing.append(f"{source.name}: DESIGN §")
        for page, anchor in CITED.findall(text):
            path = root / "docs" / page
            if not path.is_file() or (anchor and anchor not in anchors(path)):
                missing.append(f"{source.name}: docs/{page}#{anchor}")
    assert not missing, missing
    assert (root / "docs" / "decisions.md").is_file()
