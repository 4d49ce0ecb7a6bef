"""tetris: golden answers, versions against each other and against an independent
cell-level game search, validator messages, join/split, generators."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.problem.checkers import normalize
from pipeline.problem.contract import InvalidInput, self_test
from solvers.tetris import PROBLEM
from solvers.tetris.generate import HARD_SHAPES, generate
from solvers.tetris.io import TetrisCase, format_case, join, parse, split, split_input, validate
from solvers.tetris.solve import first_player_wins_plain, grundy, solve_grundy, solve_plain

GOLDEN = Path(__file__).resolve().parents[2] / ".." / "shared" / "golden" / "tetris"


def _golden_families() -> list[str]:
    return sorted(p.name for p in GOLDEN.iterdir()) if GOLDEN.is_dir() else ["<absent>"]


def _case(rows: list[str]) -> TetrisCase:
    return TetrisCase(len(rows), len(rows[0]), tuple(rows))


def _oracle(case: TetrisCase) -> bool:
    """Plays on the cell grid itself (no bitboard, no corner sets)."""
    free = frozenset(
        (r, c) for r, row in enumerate(case.rows) for c, ch in enumerate(row) if ch == "0"
    )

    @cache
    def wins(cells: frozenset[tuple[int, int]]) -> bool:
        for r, c in cells:
            square = {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)}
            if square <= cells and not wins(cells - square):
                return True
        return False

    return wins(free)


def _random_case(rng: random.Random, max_cells: int) -> TetrisCase:
    n = rng.randint(1, 7)
    m = rng.randint(1, max(1, max_cells // n))
    p = rng.random()
    return _case(["".join("0" if rng.random() < p else "1" for _ in range(m)) for _ in range(n)])


@pytest.mark.parametrize("family", _golden_families())
def test_golden_every_accepting_version(family: str) -> None:
    if not GOLDEN.is_dir():
        pytest.skip(f"golden corpus not found at {GOLDEN} (../shared is absent)")
    checked = 0
    for path in sorted((GOLDEN / family).glob("*.in")):
        text = path.read_text()
        assert validate(text) == [], path
        parsed = parse(text)
        expected = normalize(path.with_suffix(".ans").read_text())
        for version, solver in PROBLEM.solvers.items():
            if PROBLEM.version_accepts(version, parsed):
                assert normalize(PROBLEM.format(solver(parsed))) == expected, (path, version)
                checked += 1
    assert checked > 0


def test_self_test_passes() -> None:
    assert self_test(PROBLEM, seed=11, per_family=3) == []


def test_versions_agree_with_cell_oracle_on_small_boards() -> None:
    rng = random.Random(99)
    cases = [_random_case(rng, 20) for _ in range(3000)]
    want = [_oracle(c) for c in cases]
    assert solve_grundy(cases) == want
    assert solve_plain(cases) == want
    assert 0.2 < sum(want) / len(want) < 0.8  # both answers are well represented


def test_versions_agree_on_hard_forty_zero_boards() -> None:
    rng = random.Random(4)
    texts = [generate(rng, rng.choice(["hard40", "dense40", "n49"])) for _ in range(60)]
    cases = [c for t in texts for c in parse(t)]
    assert solve_grundy(cases) == solve_plain(cases)


def test_transpose_and_one_wide() -> None:
    rng = random.Random(8)
    for _ in range(300):
        case = _random_case(rng, 49)
        flipped = _case(["".join(col) for col in zip(*case.rows, strict=True)])
        assert solve_grundy([case]) == solve_grundy([flipped])
    assert solve_grundy([_case(["0" * 40]), _case(["0"] * 40)]) == [False, False]


def test_known_boards() -> None:
    assert PROBLEM.solve("4 4\n0000\n0000\n0000\n0000\n") == "Yes\n"
    assert PROBLEM.solve("2 2\n00\n00\n2 3\n000\n000\n3 3\n000\n000\n000\n") == "Yes\nYes\nYes\n"
    # two separate 2x2 blocks: two moves, second player makes the last one
    assert PROBLEM.solve("2 5\n00100\n00100\n") == "No\n"
    # Grundy values of the corner sets: one corner 1, two independent corners 0
    assert grundy(0b1) == 1 and grundy(0b1001) == 0
    assert first_player_wins_plain(0) is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty input"),
        ("2\n", "case 1: `N M` incomplete"),
        ("2 x\n", "case 1: M: expected a positive integer, got 'x'"),
        ("2 ²\n", "case 1: M: expected a positive integer, got '²'"),
        ("0 3\n", "case 1: N = 0, M = 3"),
        ("5 10\n", "case 1: N = 5, M = 10: need N, M >= 1 and N*M < 50"),
        ("2 2\n00\n", "case 1: 2 rows expected, input ends after 1"),
        ("2 2\n00\n000\n", "case 1: row 2 has 3 characters, not 2"),
        ("1 1\n0\n2 2\n02\n00\n", "case 2: row 1 holds '2' (only 0 and 1)"),
        ("7 7\n" + "0000000\n" * 7, "case 1: 49 zeros (at most 40)"),
    ],
)
def test_malformed_input_named(text: str, message: str) -> None:
    errors = validate(text)
    assert len(errors) == 1 and errors[0].startswith(message), errors
    with pytest.raises(InvalidInput):
        parse(text)


def test_validator_keeps_going_after_a_content_error() -> None:
    text = "7 7\n" + "0000000\n" * 7 + "1 1\n0\n2 2\n0\n"
    assert validate(text) == [
        "case 1: 49 zeros (at most 40)",
        "case 3: 2 rows expected, input ends after 1",
    ]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="0123 \n1x²é", max_size=40))
def test_validate_never_raises_and_parse_agrees(text: str) -> None:
    errors = validate(text)
    if errors:
        with pytest.raises(InvalidInput):
            parse(text)
    else:
        assert len(parse(text)) >= 1


def test_join_split_same_answers_as_one_by_one() -> None:
    rng = random.Random(6)
    cases = [generate(rng, rng.choice(PROBLEM.families)) for _ in range(200)]
    singles = [PROBLEM.solve(t) for t in cases]
    joined = join(cases)
    assert validate(joined) == []
    assert split(PROBLEM.solve(joined), 200) == singles
    assert split_input(joined) == cases


def test_split_pads_and_keeps_surplus() -> None:
    assert split("Yes\nNo\n", 3) == ["Yes\n", "No\n", ""]
    assert split("Yes No Yes\n", 2) == ["Yes\n", "No Yes\n"]
    assert split("", 1) == [""]


@pytest.mark.parametrize("family", PROBLEM.families)
def test_generators_valid_and_deterministic(family: str) -> None:
    for seed in range(20):
        text = generate(random.Random(seed), family)
        assert text == generate(random.Random(seed), family)
        assert validate(text) == [], (family, seed)


def test_generator_shapes() -> None:
    rng = random.Random(2)
    for _ in range(30):
        hard = parse(generate(rng, "hard40"))[0]
        assert (hard.n, hard.m) in HARD_SHAPES and hard.zeros == 40
        dense = parse(generate(rng, "dense40"))[0]
        assert 40 <= dense.n * dense.m <= 49 and dense.zeros == 40
        n49 = parse(generate(rng, "n49"))[0]
        assert n49.n * n49.m == 49
        wide = parse(generate(rng, "one_wide"))[0]
        assert 1 in (wide.n, wide.m)
        zero = parse(generate(rng, "all_zero"))[0]
        assert zero.zeros == zero.n * zero.m
    assert parse(generate(rng, "random", n=4, m=10, zeros=40))[0].zeros == 40
    assert format_case(_case(["01", "10"])) == "2 2\n01\n10\n"
