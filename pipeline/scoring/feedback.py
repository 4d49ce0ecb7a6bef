"""Per-submission feedback files (RUN_DIR/feedback/<id>.md): the score, the result group
by group, verdict counts and the failing cases with their checker messages. A case's
input is shown only when the grader says inputs may be shown (`--feedback show-inputs`):
hidden tests stay hidden by default."""

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
from pipeline.ids import natural_ranks
from pipeline.results.store import load_results
from pipeline.results.summary import last_attempts
from pipeline.scoring.gradebook import by_problem
from pipeline.scoring.policy import Policy

FEEDBACK_DIR = "feedback"


class Feedback(str, Enum):
    """Whether feedback files may show the inputs of failing cases."""

    hide_inputs = "hide-inputs"
    show_inputs = "show-inputs"


FAILING_PER_GROUP = 10
INPUT_CHARS = 2000
_COLUMNS = ["submission", "problem", "case_id", "family", "verdict", "checker_msg", "attempt"]
_UNSAFE = re.compile(r"[^A-Za-z0-9._+@-]")


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


def render_feedback(
    row: dict[str, Any],
    failing: pd.DataFrame,
    policy: Policy,
    inputs: dict[str, str] | None,
    problem: str | None = None,
) -> str:
    sub = row["submission"] + ("" if problem is None else f" on {problem}")
    lines = [f"# {sub}", "", f"Score: **{row['score']:.2f} / {row['max_score']:.2f}**", ""]
    if row["compile"] == "CE":
        lines += ["The submission did not compile (CE on every case).", ""]
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
        if bad.empty:
            continue
        shown = bad.head(FAILING_PER_GROUP)
        more = f" (first {len(shown)} of {len(bad)})" if len(bad) > len(shown) else ""
        lines += [f"## {g.name}: {len(bad)} failing{more}", ""]
        for case in shown.itertuples():
            msg = _text(case.checker_msg).replace("\n", " ")[:300]
            lines.append(f"- `{case.case_id}` {case.verdict}" + (f": {msg}" if msg else ""))
            if inputs is not None and str(case.case_id) in inputs:
                text = inputs[str(case.case_id)][:INPUT_CHARS]
                lines += ["", "  ```", *[f"  {t}" for t in text.splitlines()], "  ```", ""]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


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
    folder.mkdir(parents=True)
    for sub, parts in texts.items():
        (folder / feedback_name(sub)).write_text("\n".join(parts), encoding="utf-8")
    return folder


def _failing(results: pa.Table, policy: Policy) -> pd.DataFrame:
    failing = results.to_pandas()
    assigned = policy.assign(failing["family"].unique().tolist()) if len(failing) else {}
    failing["group"] = failing["family"].map(assigned)
    failing["_rank"] = failing["case_id"].map(natural_ranks(failing["case_id"]))
    return failing.sort_values("_rank", kind="stable")
