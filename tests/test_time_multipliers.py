"""Per-language time multipliers: off by default; a run's factor scales the CPU limit of
that language's submissions only, and a bad factor is a one-line error."""

from __future__ import annotations

from pathlib import Path

import pyarrow.dataset as ds
import pytest
from typer.testing import CliRunner

from pipeline.cli.app import app

EXAMPLES = Path(__file__).resolve().parents[1] / "datasets" / "examples"
BURN = "import time\n_t = time.process_time()\nwhile time.process_time() - _t < 0.3:\n    pass\n"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mult") / "gomoku"
    args = ["generate", "gomoku", "--count", "4", "--out", str(out), "--address", "local-serial"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def _verdicts(corpus: Path, out: Path, program: Path, *extra: str) -> set[str]:
    args = ["grade", str(corpus), "-s", str(program), "--out", str(out), "--time-limit", "0.1"]
    result = CliRunner().invoke(app, [*args, "--address", "local-serial", *extra])
    assert result.exit_code == 0, result.output
    return set(ds.dataset(out / "results").to_table().column("verdict").to_pylist())


def test_a_factor_scales_only_its_languages_limit(corpus: Path, tmp_path: Path) -> None:
    slow = tmp_path / "slow.py"  # the accepted program after 0.3 s of CPU
    slow.write_text(BURN + (EXAMPLES / "gomoku" / "correct.py").read_text())
    assert _verdicts(corpus, tmp_path / "plain", slow) == {"TLE"}
    assert _verdicts(corpus, tmp_path / "py", slow, "--time-multipliers", "py3=10") == {"AC"}
    other = _verdicts(corpus, tmp_path / "java", slow, "--time-multipliers", "java=10")
    assert other == {"TLE"}


def test_a_bad_factor_is_one_line(corpus: Path, tmp_path: Path) -> None:
    args = ["grade", str(corpus), "-s", "solver:gomoku", "--out", str(tmp_path / "o")]
    for bad in ("py3=0.5", "nosuch=2", "py3"):
        result = CliRunner().invoke(app, [*args, "--time-multipliers", bad])
        assert result.exit_code == 2, result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
