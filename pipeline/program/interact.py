"""An interaction of two sandboxed programs (a submission and its interactor): each runs
through the seam (execute.run) under its own limits, connected through the relay of
exchange.exchange."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.program import execute
from pipeline.program.exchange import exchange
from pipeline.program.relay import INTERACTOR, SUBMISSION, Interaction
from pipeline.program.transcript import SUMMARY, Transcript, TranscriptKind
from pipeline.sandbox.handle import Handle

__all__ = ["Interaction", "Side", "interact"]


@dataclass(frozen=True)
class Side:
    """One program of an interaction: what `run` takes besides stdin (and `servers`: the
    fork servers it is forked from, a different `Servers` for each side)."""

    program: execute.Program
    limits: Limits
    args: Sequence[str] = ()
    files: Mapping[str, execute.FileSpec] | None = None
    read_back: Sequence[str] = ()
    servers: execute.Servers | None = None


# the interactor ends at most this long after the submission's run is over (the judge
# ends it then: JE); its own wall limit, twice the exchange's plus this, is only a
# backstop: when both sides wait for each other, the submission's end ends the exchange
# (TLE), and a submission slow to end (a fork bomb's case took 2 s past its wall limit
# to be over on a loaded machine) is not the interactor's fault
INTERACTOR_GRACE_MS = 1000.0
# no byte moved, neither side used CPU and both waited to read their pipes for this long:
# the two wait for each other, and the submission is ended as idle (TLE) before its wall
# limit
IDLE_MS = 1000.0


def interact(
    submission: Side,
    interactor: Side,
    *,
    wall_ms: float | None = None,
    transcript: TranscriptKind = SUMMARY,
    ends_submission: Callable[[ExecutionResult], bool] | None = None,
) -> Interaction:
    """Both programs at once, each sandboxed under its own limits, forked or spawned by
    `execute.run`'s rule; each one's stdout goes to the other's stdin through the relay
    (exchange.exchange), which records the `transcript` (each direction's first and
    last KiB, or up to 64 MiB: FULL), or, with NONE, straight through joined pipes (no
    output cap then: nothing is kept).

    The submission's CPU limit is its own; `wall_ms` (default: the submission's wall
    limit) bounds the exchange: the submission is killed at it, the interactor a second
    after the submission's run is over (two programs waiting for each other: TLE, never
    a hung worker). Either side writing more than the submission's output limit to the
    other is cut off there (`output_exceeded`). The submission is ended early (its
    extra["ended"]: AFTER_INTERACTOR or IDLE) once the interactor is over and
    `ends_submission(its result)`, and once both have waited IDLE_MS for each other.
    The result: both ExecutionResults (`output` empty: it went to the other side), whose
    stdout closed first, the exchange's wall time and the transcript. Tried once more
    after a judge error on either side; never raises for what the programs do."""
    for program in (submission.program, interactor.program):
        refused = execute.refusal(program)
        if refused is not None:
            return Interaction(refused, refused, SUBMISSION, 0.0, Transcript())
    exchange_ms = wall_ms if wall_ms is not None else submission.limits.wall_limit_ms
    # the interactor's own wall limit is a backstop only (INTERACTOR_GRACE_MS)
    sides = {
        SUBMISSION: _with_wall(submission, exchange_ms),
        INTERACTOR: _with_wall(interactor, 2 * exchange_ms + INTERACTOR_GRACE_MS),
    }
    # a server's start (the program's pre-main code, a zygote's imports) happens before the
    # exchange: started inside it, it would run on one side's clock while the other's
    # already runs (a submission whose server failed was then spawned a start later,
    # its wall limit counted from there, and the interactor's ran out first: JE)
    for side in sides.values():
        if side.servers is not None:
            side.servers.ready(side.program, side.limits, side.args)

    def start(name: str, stdio: tuple[int, int], handle: Handle) -> ExecutionResult:
        side = sides[name]
        return execute.run(side.program, limits=side.limits, args=side.args, files=side.files,
                   read_back=side.read_back, servers=side.servers, stdio=stdio,
                   handle=handle)  # fmt: skip

    # each way, the stream is the submission's output or its input: the submission's
    # output limit bounds both (a flood past it: OLE for the submission, JE for the
    # interactor, the verdict rules say)
    cap = submission.limits.output_bytes
    for _attempt in range(2):  # a judge error on either side: tried once more
        done = exchange(start, transcript, cap, ends_submission, IDLE_MS, INTERACTOR_GRACE_MS)
        if not (done.submission.judge_error or done.interactor.judge_error):
            break
    return done


def _with_wall(side: Side, wall_ms: float) -> Side:
    return replace(side, limits=replace(side.limits, wall_ms=wall_ms))
