"""One graded case of a run folder again, on demand: the transcript a results row keeps
is each direction's first and last KiB; `full_transcript` runs the case once more (the
run's problem, corpus case, submission and limits, as run.json records them) and keeps
the whole exchange. The verdict of that run is returned beside it: a submission that
behaves differently from one run to the next shows it."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from pipeline.corpus.store import iter_rows
from pipeline.errors import GridjudgeError
from pipeline.grade.verdict import judge_interaction
from pipeline.limits import Limits
from pipeline.package.judged import interaction_of
from pipeline.problem.contract import CaseOutcome, InteractRequest
from pipeline.problem.registry import get_problem
from pipeline.program import execute
from pipeline.program.submission import parse_spec, prepare
from pipeline.program.transcript import FULL
from pipeline.results.store import load_results, read_run_json


class ReplayError(GridjudgeError):
    """The case cannot be run again; one line for the user."""


def _limits(recorded: dict[str, object]) -> Limits:
    known = {k: v for k, v in recorded.items() if k in Limits.__dataclass_fields__}
    return Limits(**known)  # type: ignore[arg-type]


def full_transcript(run_dir: Path, submission: str, case_id: str) -> CaseOutcome:
    """`case_id` of `submission` (its label in the run) run again with its whole
    transcript kept."""
    info = read_run_json(run_dir)
    for corpus in info.get("corpora") or []:
        labels = [s.get("label") for s in corpus.get("submissions") or []]
        if submission not in labels:
            continue
        problem = get_problem(str(corpus["problem"]))
        interact = interaction_of(problem)  # its own interact, or against its judge program
        if interact is None:
            raise ReplayError(f"{problem.name} is not interactive: its cases have no transcript")
        rows = [r for r in iter_rows(Path(corpus["path"])) if r["case_id"] == case_id]
        if not rows:
            raise ReplayError(f"{corpus['path']}: no case {case_id!r}")
        program = prepare(parse_spec(submission), problem)
        if program.compile_error is not None:
            raise ReplayError(f"{submission} does not compile here")
        limits = _limits(dict(corpus.get("limits") or {})).times(program.time_multiplier)
        servers = execute.Servers(fork=False)
        judges = execute.Servers(fork=False)
        try:
            with execute.judging_with(judges):
                done = interact(
                    InteractRequest(
                        submission=program,
                        servers=servers,
                        input_text=rows[0]["input"] or "",
                        expected=rows[0].get("expected"),
                        limits=limits,
                        judge=partial(judge_interaction, limits),
                        transcript=FULL,
                    )
                )
        finally:
            servers.close()
            judges.close()
        return done
    raise ReplayError(f"{run_dir}: no submission {submission!r} in this run")


CASE_COLUMNS = ["submission", "case_id", "verdict", "cpu_ms", "checker_msg", "transcript"]


def case_rows(
    run_dir: Path, case_id: str, submission: str | None = None
) -> list[dict[str, object]]:
    """The results rows of `case_id` (of `submission` where given; the last attempt of
    each), with their transcripts."""
    table = load_results(run_dir, [*CASE_COLUMNS, "attempt"])
    rows = [
        r
        for r in table.to_pylist()
        if r["case_id"] == case_id and (submission is None or r["submission"] == submission)
    ]
    last: dict[str, dict[str, object]] = {}
    for row in sorted(rows, key=lambda r: int(r["attempt"])):
        last[str(row["submission"])] = row
    return list(last.values())
