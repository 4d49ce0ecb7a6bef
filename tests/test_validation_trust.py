"""Validation is a property of the corpus: `gridjudge generate` validates every input and
records the validator in the manifest; grade validates only corpora nobody vouches for
(imports, hand-written ones, another validator), or every corpus with --revalidate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.corpus.generate import generate_corpus
from pipeline.corpus.store import CorpusWriter, read_manifest, read_table, validator_fingerprint
from pipeline.grade.plan import GradeOptions, GradeSettings, plan_grade
from pipeline.problem.registry import get_problem
from pipeline.results import store as report

BAD = "hello world\n"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("g") / "spot"
    generate_corpus(get_problem("spot"), 6, 4, out, families=["n2"])
    return out


def _lying_corpus(generated: Path, out: Path, validated_with: str) -> Path:
    """The generated cases plus one invalid case, under the given manifest claim."""
    with CorpusWriter(out, "spot", validated_with=validated_with) as writer:
        for row in read_table(generated).to_pylist():
            writer.add(row["case_id"], row["family"], row["input"], row["expected"])
        writer.add("bad", "broken", BAD, "Draw\n")
    return out


def test_generate_records_the_validator_and_grade_trusts_it(generated: Path) -> None:
    spot = get_problem("spot")
    assert read_manifest(generated).validated_with == validator_fingerprint(spot)
    plan = plan_grade(GradeOptions([generated], ["solver:spot"], generated.parent / "r1"))
    assert plan.corpora[0].validate is False
    forced = GradeOptions(
        [generated],
        ["solver:spot"],
        generated.parent / "r2",
        settings=GradeSettings(revalidate=True),
    )
    assert plan_grade(forced).corpora[0].validate is True


def test_fingerprint_names_version_problem_and_validator_source() -> None:
    spot, gomoku = get_problem("spot"), get_problem("gomoku")
    assert validator_fingerprint(spot) == validator_fingerprint(spot)
    assert validator_fingerprint(spot) != validator_fingerprint(gomoku)
    assert validator_fingerprint(spot).startswith("gridjudge ")


@pytest.mark.parametrize("claim", ["", "gridjudge 0.0.1 spot 0123456789abcdef"])
def test_unvouched_corpora_are_validated_bad_case_ie(
    generated: Path, tmp_path: Path, claim: str
) -> None:
    corpus = _lying_corpus(generated, tmp_path / "c", claim)
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        ["grade", str(corpus), "-s", "solver:spot", "--out", str(out), "--address", "local-serial"],
    )
    assert result.exit_code == 0, result.output
    rows = {r["case_id"]: r for r in report.load_results(out).to_pylist()}
    assert rows["bad"]["verdict"] == "IE"
    assert rows["bad"]["checker_msg"] == get_problem("spot").validate(BAD)[0]
    assert json.loads((out / "run.json").read_text())["corpora"][0]["validated_at_grade"]


def test_revalidate_catches_a_corpus_that_lies(generated: Path, tmp_path: Path) -> None:
    corpus = _lying_corpus(generated, tmp_path / "c", validator_fingerprint(get_problem("spot")))
    trusting, forced = tmp_path / "trusting", tmp_path / "forced"
    base = ["grade", str(corpus), "-s", "solver:spot", "--address", "local-serial", "--out"]
    assert CliRunner().invoke(app, [*base, str(trusting)]).exit_code == 0
    assert CliRunner().invoke(app, [*base, str(forced), "--revalidate"]).exit_code == 0
    trusted = {r["case_id"]: r for r in report.load_results(trusting).to_pylist()}
    checked = {r["case_id"]: r for r in report.load_results(forced).to_pylist()}
    assert trusted["bad"]["verdict"] != "IE"  # not validated: the solver's failure shows
    assert checked["bad"]["verdict"] == "IE"
    assert {r["verdict"] for k, r in checked.items() if k != "bad"} == {"AC"}
    assert json.loads((forced / "run.json").read_text())["revalidate"] is True
