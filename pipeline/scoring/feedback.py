"""Per-submission feedback files (RUN_DIR/feedback/<id>.md): the score, the result group
by group, verdict counts and the failing cases. Hidden tests stay hidden by default
(`--feedback hide-inputs`): a failing case is described by what the judge measured of the
run (verdict, exit code or signal, time, memory), never by its checker message, which may
quote the input, the expected answer or the program's output and stderr. Only
`show-inputs` adds the checker messages and the inputs. Text a program or a package
controls is escaped: no markup of theirs survives into the file, and no control
character of any name or text (text.printable)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from enum import Enum
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.corpus.store import iter_batches
from pipeline.grade.verdict import signal_name
from pipeline.ids import natural_ranks
from pipeline.private import private_dir, write_private
from pipeline.results.store import load_results
from pipeline.results.summary import last_attempts
from pipeline.scoring.gradebook import by_problem
from pipeline.scoring.policy import Policy
from pipeline.text import clip, compiler_message, printable

FEEDBACK_DIR = "feedback"


class Feedback(str, Enum):
    """Whether feedback files may show the inputs of failing cases."""

    hide_inputs = "hide-inputs"
    show_inputs = "show-inputs"


FAILING_PER_GROUP = 10
INPUT_CHARS = 2000
MESSAGE_CHARS = 300  # a failing case's checker message
COMPILE_MESSAGE_CHARS = 2000
_COLUMNS = [
    "submission", "problem", "case_id", "family", "verdict", "checker_msg", "attempt",
    "exit_code", "signal", "cpu_ms", "wall_ms", "peak_rss_kb",
]  # fmt: skip
_UNSAFE = re.compile(r"[^A-Za-z0-9._+@-]")
# the Markdown punctuation that can start markup within a line, backslash-escaped; <, >
# and & as entities, which every Markdown renderer shows as the characters, never as HTML
_MARKDOWN_PUNCT = re.compile(r"([\\`*_{}\[\]()#!|~])")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_BACKTICKS = re.compile(r"`+")


def feedback_name(submission: str) -> str:
    """The file name of a submission's feedback (an id as is; a path's characters
    that a file name cannot hold become _)."""
    return _UNSAFE.sub("_", submission).lstrip(".") + ".md"


def _inputs(corpora: Iterable[Path], case_ids: set[str]) -> dict[str, str]:
    """The inputs of `case_ids` read from the run's corpora (those that still exist)."""
    found: dict[str, str] = {}
    wanted = pa.array(sorted(case_ids), pa.string())
    for corpus in corpora:
        if not Path(corpus).is_dir():
            continue
        for batch in iter_batches(Path(corpus), columns=["case_id", "input"]):
            hit = pa.Table.from_batches([batch]).filter(pc.is_in(batch.column(0), wanted))
            found.update(zip(hit.column(0).to_pylist(), hit.column(1).to_pylist(), strict=True))
    return found


def _aggregate(policy: Policy, name: str) -> str:
    agg = next(g.aggregate for g in policy.groups if g.name == name)
    return agg if isinstance(agg, str) else f"threshold {agg.threshold}"


def _text(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)


def _compile_section(failing: pd.DataFrame) -> list[str]:
    """The compiler's message once (every case has it), repeats folded."""
    said = [m for m in failing["checker_msg"] if _text(m)]
    lines = ["The submission did not compile (CE on every case).", ""]
    if said:
        text = compiler_message(str(said[0]), COMPILE_MESSAGE_CHARS)
        fence = _fence(text)
        lines += ["The compiler said:", "", fence, *text.splitlines(), fence, ""]
    return lines


def markdown_text(text: str) -> str:
    """`text` as literal Markdown text on one line: no character of it is markup."""
    text = printable(" ".join(text.split()))
    text = _MARKDOWN_PUNCT.sub(r"\\\1", text)
    return "".join(_ENTITIES.get(c, c) for c in text)


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in `text`: the block cannot end early."""
    longest = max((len(m.group()) for m in _BACKTICKS.finditer(text)), default=0)
    return "`" * max(3, longest + 1)


def _code(text: str) -> str:
    """`text` as an inline code span (literal in Markdown, HTML included)."""
    ticks = "`" * (1 + max((len(m.group()) for m in _BACKTICKS.finditer(text)), default=0))
    return f"{ticks} {text} {ticks}" if "`" in text else f"`{text}`"


def _number(value: Any) -> float | None:
    return None if value is None or pd.isna(value) else float(value)


def public_message(case: Any) -> str:
    """What feedback may say of a failing case when inputs are hidden: the verdict's facts
    as the judge measured them, nothing a program printed or a checker wrote."""
    verdict = str(case.verdict)
    cpu, wall, kb = _number(case.cpu_ms), _number(case.wall_ms), _number(case.peak_rss_kb)
    if verdict == "RE":
        sig, code = _number(case.signal), _number(case.exit_code)
        if sig:
            return f"killed by signal {int(sig)} ({signal_name(int(sig))})"
        return f"exit code {int(code)}" if code is not None else "runtime error"
    if verdict == "TLE":
        spent = [f"{k} {v:.0f} ms" for k, v in (("cpu", cpu), ("wall", wall)) if v is not None]
        return "time limit exceeded" + (f" ({', '.join(spent)})" if spent else "")
    if verdict == "MLE":
        return "memory limit exceeded" + (f" (peak {int(kb) // 1024} MB)" if kb else "")
    return {
        "WA": "wrong answer",
        "PE": "presentation error: the right tokens, laid out differently",
        "OLE": "output limit exceeded",
        "CE": "compile error",
        "JE": "judge error (not counted against the submission)",
    }.get(verdict, "")


def _case_lines(case: Any, inputs: dict[str, str] | None) -> list[str]:
    """A failing case's list item: with `inputs` (show-inputs) the checker message and the
    input, else only public_message."""
    msg = (
        clip(" ".join(_text(case.checker_msg).split()), MESSAGE_CHARS)
        if inputs is not None
        else public_message(case)
    )
    msg = markdown_text(msg)
    lines = [
        f"- {_code(' '.join(str(case.case_id).split()))} {case.verdict}"
        + (f": {msg}" if msg else "")
    ]
    if inputs is not None and str(case.case_id) in inputs:
        text = inputs[str(case.case_id)][:INPUT_CHARS]
        fence = _fence(text)
        lines += ["", f"  {fence}", *[f"  {t}" for t in text.splitlines()], f"  {fence}", ""]
    return lines


def render_feedback(
    row: dict[str, Any],
    failing: pd.DataFrame,
    policy: Policy,
    inputs: dict[str, str] | None,
    problem: str | None = None,
) -> str:
    sub = markdown_text(row["submission"] + ("" if problem is None else f" on {problem}"))
    lines = [f"# {sub}", "", f"Score: **{row['score']:.2f} / {row['max_score']:.2f}**", ""]
    compile_error = row["compile"] == "CE"
    if compile_error:
        lines += _compile_section(failing)
    lines += ["| group | aggregate | passed | cases | points |", "|---|---|---|---|---|"]
    for g in policy.groups:
        lines.append(
            f"| {g.name} | {_aggregate(policy, g.name)} | {row[f'passed_{g.name}']} "
            f"| {row[f'cases_{g.name}']} | {row[f'points_{g.name}']:.2f} / {g.points:.2f} |"
        )
    counts = ", ".join(f"{k[2:]} {v}" for k, v in row.items() if k.startswith("n_") and v)
    lines += ["", f"Verdicts: {counts or 'none'}", ""]
    for g in policy.groups:
        bad = failing[failing["group"] == g.name]
        if bad.empty or compile_error:  # the compiler's message is above, once
            continue
        shown = bad.head(FAILING_PER_GROUP)
        more = f" (first {len(shown)} of {len(bad)})" if len(bad) > len(shown) else ""
        lines += [f"## {g.name}: {len(bad)} failing{more}", ""]
        for case in shown.itertuples():
            lines += _case_lines(case, inputs)
        lines.append("")
    # the one pass every character of the file goes through: a control character of a
    # name (a case, a family) or of an input shown is written as its escape
    return printable("\n".join(lines).rstrip() + "\n", lines=True)


def write_feedback(
    run_dir: Path, book: pa.Table, policy: Policy, mode: str, corpora: Iterable[Path] = ()
) -> Path:
    """RUN_DIR/feedback/<id>.md for every gradebook row (the folder is rewritten)."""
    Feedback(mode)  # a mode that is not one raises
    results = last_attempts(load_results(run_dir, columns=_COLUMNS))
    results = results.filter(pc.invert(pc.is_in(results["verdict"], pa.array(["AC", "IE"]))))
    inputs = None
    if mode == Feedback.show_inputs.value:
        inputs = _inputs(corpora, set(results["case_id"].to_pylist()))
    texts: dict[str, list[str]] = {}
    every = by_problem(load_results(run_dir, columns=["problem", "family"]), policy)
    for problem, _, mine in every:  # a submission graded on several problems: one part each
        rows = results if problem is None else results.filter(pc.equal(results["problem"], problem))
        failing = _failing(rows, mine)
        by_sub = dict(iter(failing.groupby("submission", sort=False)))
        for row in book.to_pylist():
            if problem is None or row.get("problem") == problem:
                own = by_sub.get(row["submission"], failing.iloc[0:0])
                texts.setdefault(row["submission"], []).append(
                    render_feedback(row, own, mine, inputs, problem)
                )
    folder = Path(run_dir) / FEEDBACK_DIR
    shutil.rmtree(folder, ignore_errors=True)
    private_dir(folder)
    for sub, parts in texts.items():
        write_private(folder / feedback_name(sub), "\n".join(parts))
    return folder


def _failing(results: pa.Table, policy: Policy) -> pd.DataFrame:
    failing = results.to_pandas()
    assigned = policy.assign(failing["family"].unique().tolist()) if len(failing) else {}
    failing["group"] = failing["family"].map(assigned)
    failing["_rank"] = failing["case_id"].map(natural_ranks(failing["case_id"]))
    return failing.sort_values("_rank", kind="stable")
