# ruff: noqa: F811 (each test takes the imported `fork` fixture as an argument)
"""A package whose test data its generators/generators.yaml makes (the format BAPCtools'
`bt generate` reads): `tests/packages/generated` commits no data/ and uses each key
gridjudge reads. `gridjudge generate PACKAGE` writes its data/ (seeds as the format
derives them, generators and solution run in the sandbox, under spawn and the fork
server), a second run does no work, `verify` generates what is missing first and fails
an invalid_input case the input validators accept. Runs as any user: everything it
writes is under tmp_path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.package.generators import read_plan, seed_of
from tests.cli_output import without_isolation_line
from tests.package_runs import fork, own_caches  # noqa: F401 (fixtures)

# caches under tmp_path; `fork`: spawn and fork server
pytestmark = pytest.mark.usefixtures("own_caches")

PACKAGE = Path(__file__).resolve().parent / "packages" / "generated"
SERIAL = ("--address", "local-serial")
SUM = "/submissions/accepted/sum.py"


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def runner_flag(fork: bool) -> str:
    return "--fork-server" if fork else "--no-fork-server"


def package_copy(tmp_path: Path, edit: dict[str, object] | None = None) -> Path:
    """The package in tmp_path; `edit`: top-level keys of generators.yaml replaced."""
    root = tmp_path / "generated"
    shutil.copytree(PACKAGE, root)
    if edit:
        path = root / "generators" / "generators.yaml"
        content = yaml.safe_load(path.read_text())
        content.update(edit)
        path.write_text(yaml.safe_dump(content, sort_keys=False))
    return root


def made_by_gen(seed_or_values: list[int], small: bool = False) -> tuple[str, str]:
    """What generators/gen.py prints for these integer arguments, and its answer."""
    total = sum(abs(v) for v in seed_or_values)
    bound = 11 if small else 1001
    a, b = total % bound, (total // 7) % bound
    return f"{a} {b}\n", f"{a + b}\n"


def test_seeds_are_the_formats() -> None:
    """The values BAPCtools' own test problem `testseed` commits for its commands."""
    assert seed_of("", "stdout.py {seed}", None) == 162981470
    assert seed_of("", "stdout.py {seed} a  aa  b ", None) == 2133905738
    assert seed_of("bob", "stdout.py {seed:42}", None) == 593058468
    assert seed_of("", "stdout.py {seed} 1", 1) == 256329547
    assert seed_of("", "stdout.py {seed:1} -2", -2) == 207342926
    assert seed_of("", "stdout.py {seed:2} -2", -2) == 458079516


def test_the_plan_names_each_case_as_the_format_does() -> None:
    plan = read_plan(PACKAGE, SUM)
    paths = {c.path for c in plan.cases}
    assert paths == {
        "sample/1", "sample/2-manual",  # numbered across the file, width of their count
        "secret/seeded", "secret/seeded-other", "secret/salted", "secret/written", "secret/quoted",
        "secret/counted-1", "secret/counted-2", "secret/counted-3",
        "secret/listed--4", "secret/listed-12",  # a list: not padded
        "secret/ranged-09", "secret/ranged-10",  # a range: padded
        "secret/solved", "secret/small/3-tiny", "secret/small/4-random",
        "secret/small/5-more-1", "secret/small/6-more-2",  # each counted case numbered
        "secret/again/2-manual", "secret/again/3-tiny", "secret/again/4-random",  # included
        "secret/again/5-more-1", "secret/again/6-more-2",
        "invalid_input/negative", "invalid_input/bounded/big",
    }  # fmt: skip
    by_path = {c.path: c for c in plan.cases}
    assert by_path["secret/seeded"].seed == seed_of("pepper", "gen.py {seed}", None)
    assert by_path["secret/salted"].seed == seed_of("salt", "gen.py {seed}", None)
    assert by_path["secret/counted-2"].command == "gen.py {seed} 2"
    assert by_path["secret/counted-2"].seed == seed_of("pepper", "gen.py {seed} 2", 2)
    assert by_path["secret/written"].argv() == ["gen.py", "--file", "testcase", "21"]
    assert by_path["secret/quoted"].argv() == ["pair", "7", "8"]
    assert all(c.solution == SUM for c in plan.cases)  # the default where none is named
    assert plan.groups["secret/small"] == ("test_group.yaml", {"input_validator_args": ["--small"]})
    assert [n.split(": ", 1)[1] for n in plan.notes] == ["visualizer not run (gridjudge skips it)"]


def test_a_statement_only_sample_and_a_link(tmp_path: Path) -> None:
    """A sample may give only the statement's files (no .in: nothing to answer); `{link:
    EXT}` is the text of the case's other file."""
    sample = {"in.statement": "6", "in.download": {"link": "in.statement"}}
    root = package_copy(tmp_path, {"data": {"sample": {"data": {"six": sample}}}})
    (case,) = read_plan(root, SUM).cases
    assert case.files == (("in.statement", "6\n"), ("in.download", "6\n"))
    code, output = cli("generate", str(root), "--no-fork-server")
    assert code == 0, output
    assert (root / "data/sample/six.in.download").read_text() == "6\n"
    assert not (root / "data/sample/six.ans").exists()


def test_generate_writes_the_data_and_a_second_run_does_no_work(tmp_path: Path, fork: bool) -> None:
    root = package_copy(tmp_path)
    code, output = cli("generate", str(root), runner_flag(fork))
    assert code == 0, output
    assert "26 cases" in output and ": 0 program runs" not in output, output
    data = root / "data"
    assert (data / "sample/1.in").read_text() == "1 2\n"
    assert (data / "sample/2-manual.ans").read_text() == "9\n"  # copied
    assert (data / "secret/again/2-manual.in").read_text() == "4 5\n"
    assert (data / "secret/again/3-tiny.in").read_text() == "1 1\n"
    seed = seed_of("pepper", "gen.py {seed}", None)
    made = (data / "secret/seeded.in").read_text(), (data / "secret/seeded.ans").read_text()
    assert made == made_by_gen([seed])
    counted = seed_of("pepper", "gen.py {seed} 3", 3)
    assert (data / "secret/counted-3.in").read_text() == made_by_gen([counted, 3])[0]
    assert (data / "secret/listed--4.in").read_text() == made_by_gen([-4])[0]
    assert (data / "secret/ranged-09.in").read_text() == made_by_gen([9, 1])[0]
    assert (data / "secret/quoted.in").read_text() == made_by_gen([7, 8])[0]
    # the generator wrote testcase.in and .ans itself: its .ans is kept, no solution ran
    assert (data / "secret/written.in").read_text() == "21 21\n"
    assert (data / "secret/written.ans").read_text() == "42\n"
    assert (data / "secret/small/3-tiny.yaml").read_text() == "description: smallest\n"
    assert yaml.safe_load((data / "secret/small/test_group.yaml").read_text()) == {
        "input_validator_args": ["--small"]
    }
    assert not (data / "invalid_input/negative.ans").exists()
    before = {p: p.stat().st_mtime_ns for p in data.rglob("*")}
    code, output = cli("generate", str(root), runner_flag(fork))
    assert code == 0, output
    assert ": 0 program runs, 0 files written" in output, output
    assert {p: p.stat().st_mtime_ns for p in data.rglob("*")} == before


def test_on_ray_the_data_is_the_same_as_in_this_process(tmp_path: Path, fork: bool) -> None:
    """More cases than SERIAL_CASES fan out on the embedded Ray, in chunks, to the same
    bytes (36 cases: five chunks of CHUNK_CASES)."""
    content = yaml.safe_load((PACKAGE / "generators" / "generators.yaml").read_text())
    content["data"]["secret"]["data"]["many"] = {"generate": "gen.py {seed} {count}", "count": 10}
    # a salt of this test's own: its seeds, and so its cases' cache keys, are new to any
    # cache, the Ray workers' too (a Ray already running in this process keeps the
    # GRIDJUDGE_CACHE of the test that started it, which may hold the other mode's cases)
    data = {"random_salt": str(tmp_path), "data": content["data"]}
    serial, ray = package_copy(tmp_path / "serial", data), package_copy(tmp_path / "ray", data)
    code, output = cli("generate", str(serial), "--address", "local-serial", runner_flag(fork))
    assert code == 0, output
    shutil.rmtree(tmp_path / "cache")  # the Ray run makes every case again
    code, output = cli("generate", str(ray), runner_flag(fork))
    assert code == 0, output
    assert "36 cases" in output and ": 0 program runs" not in output, output

    def files(root: Path) -> dict[str, bytes]:
        return {
            p.relative_to(root).as_posix(): p.read_bytes()
            for p in (root / "data").rglob("*")
            if p.is_file()
        }

    assert files(ray) == files(serial)
    assert len(files(ray)) > 60


def test_solution_answers_and_an_empty_one_answers_nothing(tmp_path: Path, fork: bool) -> None:
    secret = {"solution": "/submissions/wrong_answer/difference.py", "data": {"one": "pair 9 2"}}
    sample = {"solution": None, "data": {"two": {"in": "3 4"}}}
    root = package_copy(tmp_path, {"data": {"sample": sample, "secret": secret}})
    code, output = cli("generate", str(root), runner_flag(fork))
    assert code == 0, output
    data = root / "data"
    line, _ = made_by_gen([9, 2])
    a, b = map(int, line.split())
    assert (data / "secret/one.ans").read_text() == f"{a - b}\n"
    assert not (data / "sample/two.ans").exists()


def test_verify_generates_what_is_missing_and_checks_it(tmp_path: Path, fork: bool) -> None:
    root = package_copy(tmp_path)
    code, output = cli("verify", str(root), *SERIAL, "--repeat", "1", runner_flag(fork))
    assert code == 0, output
    assert "26 missing cases generated" in output, output
    assert "each of 2 invalid inputs is rejected" in output, output
    assert "FAIL" not in output and "expectations hold" in output, output


def test_verify_adds_what_is_missing_and_rewrites_no_file(tmp_path: Path) -> None:
    root = package_copy(tmp_path)
    code, output = cli("generate", str(root), "--no-fork-server")
    assert code == 0, output
    kept = root / "data" / "sample" / "1.in"
    kept.write_text("2 3\n")  # the author's own, valid: verify keeps it
    (root / "data" / "secret" / "seeded.in").unlink()
    code, output = cli("verify", str(root), *SERIAL, "--repeat", "1", "--no-fork-server")
    assert "1 missing cases generated" in output, output
    assert kept.read_text() == "2 3\n"
    assert (root / "data" / "secret" / "seeded.in").is_file()


def test_verify_fails_an_invalid_input_the_validators_accept(tmp_path: Path) -> None:
    # 11 1 is invalid only under its folder's --small; 5 5 is valid everywhere
    invalid = {"data": {"fine": {"in": "5 5"}, "bounded": {
        "test_group.yaml": {"input_validator_args": ["--small"]},
        "data": {"big": {"in": "11 1"}},
    }}}  # fmt: skip
    content = yaml.safe_load((PACKAGE / "generators" / "generators.yaml").read_text())
    root = package_copy(tmp_path, {"data": {**content["data"], "invalid_input": invalid}})
    code, output = cli("verify", str(root), *SERIAL, "--repeat", "1", "--no-fork-server")
    assert code != 0, output
    failed = [line for line in output.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 1, output
    assert "invalid input data/invalid_input/fine.in" in failed[0], output


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ({"data": {"secret": {"data": {"../../escaped": {"in": "1 2"}}}}}, "not a name"),
        ({"data": {"secret": {"data": {"x": {"copy": "../../outside"}}}}}, "outside"),
        ({"data": {"secret": {"data": {"x": "../../outside.py"}}}}, "outside"),
        (
            {"solution": "/../outside.py", "data": {"secret": {"data": {"x": {"in": "1 2"}}}}},
            "outside",
        ),
        ({"generators": {"../x": ["gen.py"]}}, "not a name"),
        (
            {"generators": {"x": ["../../outside.py"]}, "data": {"secret": {"data": {"y": "x"}}}},
            "outside",
        ),
    ],
)
def test_nothing_outside_the_package_is_read_or_written(
    tmp_path: Path, edit: dict[str, object], said: str
) -> None:
    """A name or path of generators.yaml that leads out of the package is refused in one
    line: nothing from outside is copied in, run, or written."""
    (tmp_path / "outside.in").write_text("1 2\n")
    (tmp_path / "outside.py").write_text("print('1 2')\n")
    root = package_copy(tmp_path, edit)
    code, output = cli("generate", str(root), "--no-fork-server")
    lines = without_isolation_line(output).strip().splitlines()
    assert code == 2, output
    assert len(lines) == 1 and said in lines[0], output
    assert not (tmp_path / "escaped.in").exists() and not (root / "escaped.in").exists()
    assert not (root / "data" / "secret").exists(), output


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ({"data": {"secret": {"data": {"x": "nosuch.py 1"}}}}, "nosuch.py: no such program"),
        ({"data": {"secret": {"data": {"x": "gen.py"}}}}, "the generator failed: exit code 1"),
        ({"data": {"secret": {"data": {"x": {"generate": "gen.py", "count": 0}}}}}, "count 0"),
        ({"data": {"secret": {"data": {"x": {"yaml": {}}}}}}, "a case needs generate, copy or in"),
        ({"data": {"secret": {"data": {"x": "gen.py {seed} {seed:1}"}}}}, "{seed} may appear once"),
    ],
)
def test_a_bad_generators_yaml_is_one_line(
    tmp_path: Path, edit: dict[str, object], said: str
) -> None:
    root = package_copy(tmp_path, edit)
    code, output = cli("generate", str(root), "--no-fork-server")
    lines = without_isolation_line(output).strip().splitlines()
    assert code == 2, output
    assert len(lines) == 1 and said in lines[0], output
