"""One case of an interactive or multi-pass package, run and judged (the Problem's
`interact`): the submission against the package's interactor through the seam's
interact.interact, or, on a multi-pass problem that is not interactive, run on the pass's
input and its output given to the output validator; again on the validator's
`nextpass.in` while it writes one, up to the package's `validation_passes`.

The rules of the format (2023-07 and later, as problemtools and BAPCtools run them): each
pass has the whole time and memory limit; `nextpass.in` is taken out of the feedback dir
and is the next pass's input, the submission's stdin (or the interactor's input file)
and the validator's input file alike (the format: the input file is the one "given on
standard input to the program whose results are being validated"; those tools move it
into the case's input); every other file of the feedback dir persists from one pass to
the next; a validator that still writes `nextpass.in` on the last pass allowed is a
judge error, as is one that writes it and rejects; the case's verdict is the first
pass's that is not AC, else the last one's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, replace

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.package.programs import CHECKER_LIMITS, checked_run, run_checker
from pipeline.package.protocols.contract import Case, CheckerProtocol, Invocation
from pipeline.package.protocols.interactive import EVERY_FILE, NEXT_PASS, TESTLIB_OUTPUT
from pipeline.package.protocols.testlib import TestlibChecker
from pipeline.problem.checkers import ACCEPTED, CheckResult
from pipeline.problem.contract import CaseOutcome, InteractRequest
from pipeline.program import execute, interact
from pipeline.program.relay import INTERACTOR
from pipeline.program.submission import PreparedSubmission
from pipeline.schemas import Verdict

PASS_MARK = "---"  # between passes in a transcript (the format's interaction samples' mark)
# what a multi-pass validator's files are read back up to: its nextpass.in is the next
# pass's whole input, which may be as large as a case's input (the checkers' usual cap,
# meant for messages, cut BAPCtools' alternativeencryption's 100 kB at 64 KiB)
FEEDBACK_KB = 256 * 1024


def entrant(request: InteractRequest) -> tuple[PreparedSubmission, execute.Servers | None]:
    """The request's submission and fork servers as the seam takes them (the problem
    floor names them by protocol only); anything else is the caller's bug."""
    submission, servers = request.submission, request.servers
    if not isinstance(submission, PreparedSubmission):
        raise TypeError(f"an interaction runs a PreparedSubmission, not {submission!r}")
    if servers is not None and not isinstance(servers, execute.Servers):
        raise TypeError(f"an interaction's fork servers are execute.Servers, not {servers!r}")
    return submission, servers


@dataclass(frozen=True)
class CaseRun:
    """How one package case runs: the judge program and its protocol, the testlib checker
    after a testlib interactor (if the package has one), and the passes allowed."""

    judge_program: PreparedSubmission
    protocol: CheckerProtocol
    interactive: bool
    passes: int = 1
    checker: PreparedSubmission | None = None
    limits: Limits = CHECKER_LIMITS

    def run(self, request: InteractRequest, case: Case) -> CaseOutcome:
        """`case` (the request's, with the package's flags) run and judged as `request`
        asks; each pass gets the request's limits, and its verdict by `request.judge`."""
        done: list[CaseOutcome] = []
        kept: dict[str, bytes] = {}  # the feedback dir's files, from pass to pass
        for number in range(1, self.passes + 1):
            if self.interactive:
                one, kept = self._exchange(request, case, kept)
            else:
                one, kept = self._batch(request, case, kept)
            done.append(one)
            following = kept.pop(NEXT_PASS, None)
            if one.check.verdict != Verdict.AC or following is None or self.passes == 1:
                return self._done(done, one.check)
            if number == self.passes:
                why = f"{self.protocol.what} asked for pass {number + 1} of {self.passes}"
                return self._done(done, CheckResult(Verdict.JE, why))
            # the pass's input, to the submission and as the validator's input file
            case = replace(case, input_text=following.decode("utf-8", "replace"))
        raise AssertionError("unreachable: the last pass returns")

    @property
    def judge_limits(self) -> Limits:
        """The judge program's limits: on a multi-pass problem, its feedback files (the
        next pass's input) read back whole, up to FEEDBACK_KB."""
        if self.passes == 1:
            return self.limits
        return replace(self.limits, output_kb=max(self.limits.output_kb, FEEDBACK_KB))

    def _call(self, case: Case, kept: Mapping[str, bytes]) -> tuple[Invocation, dict[str, bytes]]:
        """The judge program's invocation, the files of the pass before beside its own,
        and every file it leaves read back on a multi-pass problem."""
        call = self.protocol.invocation(case)
        if self.passes > 1 and EVERY_FILE not in call.read_back:
            call = replace(call, read_back=(*call.read_back, NEXT_PASS, EVERY_FILE))
        return call, {**kept, **call.files}

    def _left(self, call: Invocation, files: Mapping[str, bytes]) -> dict[str, bytes]:
        """What the judge program left in its feedback dir (not what was placed there,
        nor a spawned program's own files)."""
        placed = set(call.files)
        with contextlib.suppress(Exception):  # a program that cannot say: keep it all
            placed |= set(self.judge_program.command_line(self.limits.memory_mb)[1])
        return {k: v for k, v in files.items() if k not in placed}

    def _exchange(
        self, request: InteractRequest, case: Case, kept: Mapping[str, bytes]
    ) -> tuple[CaseOutcome, dict[str, bytes]]:
        """An interactive pass, judged, and the files the judge program left."""
        submission, servers = entrant(request)
        call, files = self._call(case, kept)
        done = interact.interact(
            interact.Side(submission, request.limits, servers=servers),
            interact.Side(
                self.judge_program,
                self.judge_limits,
                args=call.args,
                files=files,
                read_back=call.read_back,
                servers=execute.current_judge_servers(),
            ),
            transcript=request.transcript,
            # a rejection decides the case: the submission is ended then (the format's
            # rule: what it does after the interactor's verdict does not count)
            ends_submission=lambda ran: self.protocol.verdict(ran, case).verdict != Verdict.AC,
        )
        check = self.protocol.verdict(done.interactor, case)
        if check.verdict == Verdict.AC and self.checker is not None:
            check = self._testlib_check(done.interactor, case)
        verdict = request.judge(done.submission, check, done.first == INTERACTOR)
        text = None if done.transcript is None else done.transcript.render()
        return CaseOutcome(done.submission, verdict, text), self._left(call, done.interactor.files)

    def _testlib_check(self, interactor: ExecutionResult, case: Case) -> CheckResult:
        """The package's testlib checker on what the interactor wrote to `tout`."""
        assert self.checker is not None
        told = interactor.files.get(TESTLIB_OUTPUT, b"")
        checked = replace(case, output=told.decode("utf-8", "replace"))
        return run_checker(self.checker, TestlibChecker(), checked, self.limits)

    def _batch(
        self, request: InteractRequest, case: Case, kept: Mapping[str, bytes]
    ) -> tuple[CaseOutcome, dict[str, bytes]]:
        """A non-interactive pass: the submission on the pass's input, then the validator
        on its output unless the run itself failed (that failure is then the verdict)."""
        submission, servers = entrant(request)
        result = submission.run(case.input_text, request.limits, servers)
        failed = request.judge(result, ACCEPTED, False)
        if failed.verdict != Verdict.AC:
            return CaseOutcome(result, failed), {}
        checked = replace(case, output=result.output.decode("utf-8", "replace"))
        call, _ = self._call(checked, kept)
        check, left = checked_run(
            self.judge_program, self.protocol, checked, self.judge_limits, call, kept
        )
        return CaseOutcome(result, request.judge(result, check, False)), self._left(call, left)

    def _done(self, done: list[CaseOutcome], verdict: CheckResult) -> CaseOutcome:
        """The case's outcome from its passes: the last pass's run, with the slowest CPU,
        the largest peak and the summed wall time of all, and their transcripts."""
        runs = [p.result for p in done]
        last = runs[-1]
        combined = replace(
            last,
            cpu_ms=max(r.cpu_ms for r in runs),
            wall_ms=sum(r.wall_ms for r in runs),
            peak_rss_kb=max(r.peak_rss_kb for r in runs),
            extra=dict(last.extra),
        )
        if self.passes > 1:
            combined.extra["passes"] = str(len(done))
            if len(done) > 1:
                verdict = verdict._replace(message=f"pass {len(done)}: {verdict.message}".strip())
        texts = [p.transcript for p in done if p.transcript is not None]
        text = f"\n{PASS_MARK}\n".join(texts) if texts else None
        return CaseOutcome(combined, verdict, text, passes=tuple(done) if self.passes > 1 else ())


__all__ = ["CaseRun", "entrant"]
