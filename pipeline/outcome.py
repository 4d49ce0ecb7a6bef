"""What running a program on one input gives: produced by the sandbox and by the
in-process runner, turned into a verdict by grade.verdict. A value of the bottom floor,
as its limits are (limits.py): problems, packages and grading read it without the
sandbox. (What one case gives, this run and its verdict, is problem.contract.CaseOutcome:
a verdict is of the problem floor.)"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# what an interaction records: nothing (the two programs' pipes are joined, no judge
# between them), each direction's first and last bytes, or all of it
# (program.transcript: NONE, SUMMARY, FULL); here, below the problem floor, whose
# interactive contract names it
TranscriptKind = Literal["none", "summary", "full"]


@dataclass
class ExecutionResult:
    """One run of a program. `output` is the answer taken (the output file when the
    problem declares one and the program wrote it, else stdout), capped at the limit.
    The *_exceeded flags record what the sandbox saw happen (a kill by its watchdog, a
    signal, an out-of-memory event, output cut at the cap); grade.verdict also compares the
    measurements with the limits."""

    exit_code: int | None = None
    signal: int | None = None
    cpu_ms: float = 0.0
    # a fork-server case: the CPU its server burned before it was ready (the program's
    # pre-main code, measured once per server), counted against this case's limit as a
    # spawned run's start-up is, but not in cpu_ms (one sample's noise would shift every
    # case of the server alike); 0 for a spawned run, whose start-up is in cpu_ms
    start_cpu_ms: float = 0.0
    wall_ms: float = 0.0
    peak_rss_kb: int = 0
    output: bytes = b""
    stderr_head: bytes = b""
    cpu_exceeded: bool = False
    wall_exceeded: bool = False
    memory_exceeded: bool = False
    output_exceeded: bool = False
    # Set when the judge itself failed (sandbox setup, missing launcher...): a JE, never
    # blamed on the program.
    judge_error: str | None = None
    # Set when a run that ended normally still counts as a runtime error (a fork-server
    # case that killed its server): the reason.
    runtime_error: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    # the files named in `read_back` that the run left in its scratch dir, each capped
    # at the output limit (a checker's feedback files: judgemessage.txt, score.txt...)
    files: dict[str, bytes] = field(default_factory=dict)
