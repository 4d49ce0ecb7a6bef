"""CPU time of the same algorithm in every available language, as a ratio to C++ measured
in the same run: the clocks brute force over all 4^9 move counts
(tests/submissions/languages/clocks.*), on the same boards, in the sandbox. Rounds
interleave the languages, so machine noise hits all of them alike. Also the CPU time
of each language's hello world (its start-up), and the ratio net of it.

    .venv/bin/python bench/languages.py [--rounds N] [--languages c11,java,...]

Per-language time multipliers (off by default) may be chosen from these ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

# Run as a script, this folder would shadow the `solvers` package: drop it (see solvers.py).
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from pipeline.limits import Limits  # noqa: E402
from pipeline.problem.registry import get_problem  # noqa: E402
from pipeline.program.languages import Language, all_languages, missing  # noqa: E402
from pipeline.program.submission import PreparedSubmission, parse_spec, prepare  # noqa: E402
from pipeline.program.toolchains import languages  # noqa: E402

PROGRAMS = Path(__file__).resolve().parents[1] / "tests" / "submissions" / "languages"
REFERENCE = "cpp17"
LIMITS = Limits.from_seconds(60.0, memory_mb=512)
BOARDS = 4


def boards(count: int) -> list[str]:
    """Fixed clock boards (a seeded draw), one per run."""
    rng = random.Random("bench-languages")
    return [
        "\n".join(" ".join(str(rng.choice((3, 6, 9, 12))) for _ in range(3)) for _ in range(3))
        + "\n"
        for _ in range(count)
    ]


def program(lang: Language, folder: Path, name: str, text: str | None = None) -> PreparedSubmission:
    """The clocks program of `lang` (or `text` saved as `name`), built."""
    if text is None:
        ext = lang.extensions[0]
        source = next(
            p for p in (PROGRAMS / f"clocks{ext}", PROGRAMS / f"Clocks{ext}") if p.is_file()
        )
    else:
        source = folder / lang.name / f"{name}{lang.extensions[0]}"
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(text)
    sub = prepare(parse_spec(f"{lang.name}:{source}"), get_problem("clocks"))
    if sub.compile_error:
        raise SystemExit(f"{lang.name}: {name} does not compile: {sub.compile_error[:300]}")
    return sub


def cpu_ms(sub: PreparedSubmission, text: str) -> float:
    result = sub.run(text, LIMITS)
    if result.judge_error or result.exit_code != 0:
        raise SystemExit(f"{sub.label}: run failed: {result.judge_error or result.stderr_head!r}")
    return result.cpu_ms


def measure(chosen: list[Language], rounds: int) -> dict[str, tuple[float, float]]:
    """language -> (median CPU ms of clocks per board, median CPU ms of hello world)."""
    inputs = boards(BOARDS)
    with tempfile.TemporaryDirectory() as tmp:
        subs = {
            lang.name: (
                program(lang, Path(tmp), "clocks"),
                program(lang, Path(tmp), "hello", lang.self_test.hello),
            )
            for lang in chosen
        }
        clocks: dict[str, list[float]] = {name: [] for name in subs}
        hello: dict[str, list[float]] = {name: [] for name in subs}
        for round_no in range(rounds):
            order = list(subs) if round_no % 2 == 0 else list(subs)[::-1]
            for name in order:
                solver, greeter = subs[name]
                clocks[name] += [cpu_ms(solver, text) for text in inputs]
                hello[name].append(cpu_ms(greeter, ""))
    return {n: (statistics.median(clocks[n]), statistics.median(hello[n])) for n in subs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--languages", default="", help="comma-separated (default: all)")
    args = parser.parse_args()
    names = [n for n in args.languages.split(",") if n]
    chosen = [lang for lang in languages(names) if missing(lang) is None]
    skipped = sorted(set(n for n in (names or all_languages())) - {lang.name for lang in chosen})
    if REFERENCE not in {lang.name for lang in chosen}:
        chosen.insert(0, all_languages()[REFERENCE])
    figures = measure(chosen, args.rounds)
    ref_total, ref_hello = figures[REFERENCE]
    ref_net = max(ref_total - ref_hello, 0.1)
    print(f"clocks brute force (4^9), {BOARDS} boards x {args.rounds} rounds, CPU ms medians")
    print("| language | clocks CPU ms | hello CPU ms | ratio to C++ | ratio net of start-up |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, (total, start) in sorted(figures.items(), key=lambda item: item[1][0]):
        net = max(total - start, 0.1)
        print(
            f"| {name} | {total:.0f} | {start:.0f} | {total / ref_total:.1f} "
            f"| {net / ref_net:.1f} |"
        )
    if skipped:
        print(f"not available here: {', '.join(skipped)}")


if __name__ == "__main__":
    main()
