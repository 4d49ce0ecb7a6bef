"""spot: golden corpus, the seed program, brute-force agreement, validator, multi-case I/O."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solvers.spot.solve as spot_solve
from pipeline.problem.contract import InvalidInput, self_test
from pipeline.problem.registry import get_problem
from solvers.spot import PROBLEM
from solvers.spot.generate import FAMILIES, generate
from solvers.spot.io import Game, format_input, join, parse, split, split_input, validate

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"


def _golden_cases(golden_dir: Path) -> list[tuple[Path, str, str]]:
    root = golden_dir / "spot"
    if not root.is_dir():
        pytest.skip(f"no spot golden corpus at {root}")
    return [
        (p, p.read_text(), p.with_suffix(".ans").read_text()) for p in sorted(root.rglob("*.in"))
    ]


def _board_after(game: Game, count: int) -> set[tuple[int, int]]:
    board: set[tuple[int, int]] = set()
    for r, c, _ in game.moves[:count]:
        board ^= {(r, c)}
    return board


def test_registered() -> None:
    assert get_problem("spot") is PROBLEM
    assert PROBLEM.default_solver == "2" and PROBLEM.rule_variants == {"seed-reading"}
    assert PROBLEM.multi_case > 1 and PROBLEM.limits.cpu_ms == 1000


def test_golden_every_version(golden_dir: Path) -> None:
    cases = _golden_cases(golden_dir)
    assert len(cases) > 100
    seed_failures = []
    for path, text, answer in cases:
        assert validate(text) == [], path
        for version in ("1", "2"):
            got = PROBLEM.solve(text, version)
            assert PROBLEM.check(text, answer, got).verdict == "AC", (path, version, got)
        if PROBLEM.check(text, answer, PROBLEM.solve(text, "seed-reading")).verdict != "AC":
            seed_failures.append((path, text))
    families = {p.parent.name for p, _ in seed_failures}
    every_empty_return = {p for p, _, _ in cases if p.parent.name == "empty_return"}
    assert every_empty_return <= {p for p, _ in seed_failures}
    assert len(families) > 3
    # every case the seed reading gets wrong is one where the board went back to empty
    # (one game per generated case) before the real first repeat
    for path, text in seed_failures:
        for game, seed_move, true_move in zip(
            parse(text),
            spot_solve.solve_seed_reading(parse(text)),
            spot_solve.solve_fast(parse(text)),
            strict=True,
        ):
            if seed_move == true_move:
                continue
            assert seed_move is not None and (true_move is None or seed_move < true_move), path
            assert _board_after(game, seed_move) == set(), path


@pytest.fixture(scope="module")
def seed_program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = SHARED / "seed_programs" / "spot.cpp"
    if not source.is_file():
        pytest.skip(f"seed program not found at {source}")
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    exe = tmp_path_factory.mktemp("seed") / "spot"
    subprocess.run(
        ["g++", "-O2", "-std=gnu++98", "-o", str(exe), str(source)], check=True, timeout=120
    )
    return exe


def test_seed_reading_is_the_seed_program(seed_program: Path, golden_dir: Path) -> None:
    checked = 0
    for path, text, _ in _golden_cases(golden_dir):
        if len(parse(text)) != 1:
            continue
        run = subprocess.run([str(seed_program)], input=text, capture_output=True, text=True)
        assert run.returncode == 0
        assert run.stdout == PROBLEM.solve(text, "seed-reading"), path
        checked += 1
    assert checked > 250


def test_seed_reading_differs_on_generated_empty_returns() -> None:
    rng = random.Random(7)
    for _ in range(30):
        text = generate(rng, "empty_return")
        assert PROBLEM.solve(text, "seed-reading") != PROBLEM.solve(text), text


def _random_game(rng: random.Random, n: int) -> Game:
    size = rng.randint(1, n)
    top, left = rng.randrange(n - size + 1), rng.randrange(n - size + 1)
    board: set[tuple[int, int]] = set()
    moves = []
    for _ in range(2 * n):
        cell = (top + rng.randrange(size), left + rng.randrange(size))
        moves.append((cell[0], cell[1], cell not in board))
        board ^= {cell}
    return Game(n, tuple(moves))


@pytest.mark.slow
def test_fast_agrees_with_plain_on_random_games() -> None:
    rng = random.Random(141)
    games = [_random_game(rng, rng.choice((2, 3, 4, 5, 6, 8, 10))) for _ in range(3000)]
    games += [_random_game(rng, 50) for _ in range(150)]
    games += [g for f in FAMILIES for text in _gen(rng, f, 8) for g in parse(text)]
    expected = spot_solve.solve_plain(tuple(games))
    assert spot_solve.solve_fast(tuple(games)) == expected
    decided = [m for m in expected if m is not None]
    assert len(decided) > 1000 and len(decided) < len(expected)  # both outcomes exercised


def _gen(rng: random.Random, family: str, count: int) -> list[str]:
    return [generate(rng, family) for _ in range(count)]


def test_hash_collisions_are_confirmed(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 2-bit keys nearly every move collides: only the exact confirmation keeps the
    fast solver right."""
    rng = random.Random(3)
    tiny = {n: spot_solve.key_table(n, bits=2) for n in (4, 50)}
    monkeypatch.setattr(spot_solve, "_keys", lambda n: tiny[n])
    games = tuple(_random_game(rng, rng.choice((4, 4, 4, 50))) for _ in range(120))
    assert spot_solve.solve_fast(games) == spot_solve.solve_plain(games)


def test_first_repeat_rules_by_hand() -> None:
    def answer(moves: list[str], n: int = 4) -> str:
        return PROBLEM.solve(f"{n}\n" + "".join(m + "\n" for m in moves) + "0\n").strip()

    pad = ["4 4 +", "4 4 -", "4 4 +", "4 4 -", "4 4 +", "4 4 -", "4 4 +", "4 4 -"]
    # turned a quarter: (1,1) -> (1,4)
    assert answer(["1 1 +", "1 1 -", "1 4 +", *pad][:8]) == "Player 2 wins on move 3"
    # left-right mirror of a non-symmetric pair is not a rotation
    mirror = ["1 1 +", "1 2 +", "1 1 -", "1 2 -", "1 3 +", "1 4 +", "3 3 +", "2 2 +"]
    assert answer(mirror) == "Draw"
    # back to the empty board once: not a repeat (the seed reading says it is)
    empty_once = ["1 1 +", "1 1 -", "2 2 +", "3 3 +", "4 4 +", "1 1 +", "1 2 +", "3 1 +"]
    assert answer(empty_once) == "Draw"
    text = "4\n" + "".join(m + "\n" for m in empty_once) + "0\n"
    assert PROBLEM.solve(text, "seed-reading").strip() == "Player 1 wins on move 2"


def test_generated_inputs_validate_and_self_test() -> None:
    rng = random.Random(11)
    for family in FAMILIES:
        for text in _gen(rng, family, 5):
            assert validate(text) == [], (family, text)
            assert len(parse(text)) == 1
    assert generate(random.Random(5), "rot90") == generate(random.Random(5), "rot90")
    assert self_test(PROBLEM) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "2\n1 1 +\n1 1 -\n2 2 -\n1 2 +\n0\n",
            "game 1, move 3 (line 4): '-' on an empty square (2,2)",
        ),
        (
            "2\n1 1 +\n1 1 +\n2 2 +\n1 2 +\n0\n",
            "move 2 (line 3): '+' on a square that already has a spot (1,1)",
        ),
        (
            "2\n1 3 +\n1 1 +\n2 2 +\n1 2 +\n0\n",
            "move 1 (line 2): square (1,3) is outside the 2x2 board",
        ),
        ("2\n1 1 *\n1 1 +\n2 2 +\n1 2 +\n0\n", "move 1 (line 2): expected 'r c +' or 'r c -'"),
        ("51\n0\n", "N = 51 is outside 2..50"),
        ("2\n1 1 +\n1 1 -\n0\n", "game 1, move 3 (line 4): expected 'r c +'"),
        ("2\n1 1 +\n1 1 -\n2 2 +\n2 2 -\n", "input ends without the final line '0'"),
        ("2\n1 1 +\n1 1 -\n2 2 +\n2 2 -\n0\n2\n", "line 7: text after the final 0"),
        ("0\n", "no game before the final 0"),
        ("", "line 1: input ends without the final line '0'"),
        ("two\n", "line 1: expected N"),
    ],
)
def test_validator_names_rule_and_place(text: str, message: str) -> None:
    errors = validate(text)
    assert any(message in e for e in errors), errors
    with pytest.raises(InvalidInput):
        parse(text)


def test_validator_reports_every_violation() -> None:
    text = "2\n1 1 -\n1 1 +\n1 1 +\n9 9 +\n0\n"
    errors = validate(text)
    assert len(errors) == 3, errors
    assert "move 1" in errors[0] and "move 3" in errors[1] and "move 4" in errors[2]


def test_join_split_round_trip() -> None:
    rng = random.Random(2)
    cases = [generate(rng, rng.choice(FAMILIES)) for _ in range(25)]
    joined = join(cases)
    assert validate(joined) == []
    assert joined.count("\n0\n") == 1 and joined.endswith("\n0\n")
    assert split_input(joined) == [format_input(parse(c)) for c in cases]
    parts = split(PROBLEM.solve(joined), len(cases))
    assert parts == [PROBLEM.solve(c) for c in cases]
    assert split("Draw\n", 2) == ["Draw\n"]  # what is there; the caller compares counts
    assert split("", 1) == []
    with pytest.raises(InvalidInput):
        join(["2\n1 1 +\n"])
    # a game that breaks a move rule is still cut out, to be rejected as its own case
    bad_then_good = "2\n1 1 -\n1 1 +\n2 2 +\n2 2 -\n" + cases[0]
    first, second = split_input(bad_then_good)
    assert "'-' on an empty square (1,1)" in validate(first)[0]
    assert second == format_input(parse(cases[0]))
    with pytest.raises(InvalidInput, match=r"move 2 \(line 3\): expected 'r c"):
        split_input("2\n1 1 +\n0\n")


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), family=st.sampled_from(FAMILIES))
def test_generated_always_valid_and_versions_agree(seed: int, family: str) -> None:
    text = generate(random.Random(seed), family)
    assert validate(text) == []
    assert PROBLEM.solve(text, "1") == PROBLEM.solve(text, "2")


@settings(max_examples=200, deadline=None)
@given(
    text=st.one_of(
        st.text(max_size=60),
        st.lists(
            st.sampled_from(["0", "2", "3", "1 1 +", "1 1 -", "2 2 +", "3 1 -", "9 9 +", "x"]),
            max_size=12,
        ).map("\n".join),
    )
)
def test_validate_never_raises_and_parse_agrees(text: str) -> None:
    errors = validate(text)
    assert isinstance(errors, list)
    if errors:
        with pytest.raises(InvalidInput):
            parse(text)
    else:
        PROBLEM.solve(text)


def _first_with(game: Game, turns: set[int], mirror: bool = False) -> int | None:
    """First repeat when only the given quarter turns (and optionally the left-right
    mirror with its turns) count: the plausible-wrong readings."""
    n = game.n

    def turned(board: frozenset[tuple[int, int]], k: int) -> frozenset[tuple[int, int]]:
        for _ in range(k):
            board = frozenset((c, n - 1 - r) for r, c in board)
        return board

    seen: set[frozenset[tuple[int, int]]] = set()
    for number in range(1, len(game.moves) + 1):
        board = frozenset(_board_after(game, number))
        images = [turned(board, k) for k in turns]
        if mirror:
            flipped = frozenset((r, n - 1 - c) for r, c in board)
            images += [turned(flipped, k) for k in range(4)]
        if any(image in seen for image in images):
            return number
        seen.add(board)
    return None


@pytest.mark.parametrize("family", ["identity_repeat", "rot90", "rot180", "rot270", "mirror"])
def test_families_separate_plausible_wrong_readings(family: str) -> None:
    rng = random.Random(12)
    for _ in range(15):
        (game,) = parse(generate(rng, family))
        right = _first_with(game, {0, 1, 2, 3})
        assert right == spot_solve.first_repeat_plain(game)
        if family == "mirror":
            assert _first_with(game, {0, 1, 2, 3}, mirror=True) != right
            continue
        k = {"identity_repeat": 0, "rot90": 3, "rot180": 2, "rot270": 1}[family]
        assert right is not None
        assert _first_with(game, {k}) == right  # that quarter turn alone decides it
        assert _first_with(game, {0, 1, 2, 3} - {k}) != right  # missing it gets it wrong


_CANON_LINES = ["0", "2", "3", "51", "1", "1 1 +", "1 1 -", "2 2 +", "2 2 -", "3 1 +", "9 9 +"]


@settings(max_examples=300, deadline=None)
@given(
    games=st.lists(
        st.tuples(
            st.sampled_from(["2", "3", "51", "1"]),
            st.lists(st.sampled_from(_CANON_LINES[5:]), min_size=3, max_size=7),
        ),
        min_size=1,
        max_size=3,
    ),
    end=st.sampled_from(["0\n", "0", "0\n\n", "", "0\n1 1 +\n", "2\n0\n"]),
)
def test_canonical_fast_path_agrees_with_the_scanner(
    games: list[tuple[str, list[str]]], end: str
) -> None:
    """validate() accepts canonical text without the scanner: it must accept exactly
    what the scanner accepts (lines in canonical layout, every rule varied)."""
    from solvers.spot.io import _canonical_and_valid, scan

    text = "".join(n + "\n" + "".join(m + "\n" for m in moves) for n, moves in games) + end
    scanned = scan(text).errors
    if _canonical_and_valid(text):
        assert scanned == []
    assert (validate(text) == []) == (scanned == [])


def test_canonical_fast_path_takes_generated_inputs() -> None:
    from solvers.spot.io import _canonical_and_valid

    rng = random.Random(5)
    for family in FAMILIES:
        text = generate(rng, family)
        assert _canonical_and_valid(text), family
        assert not _canonical_and_valid(text.replace("\n", "\r\n"))  # the scanner decides
        assert validate(text.replace("\n", "\r\n")) == []
