"""A package's own programs (input validators, output validators, testlib checkers):
code from outside, built once per content hash by the build cache and run in the sandbox.

`run_checker` is the one place a checker program runs for a case. A checker that cannot
be built, crashes, runs out of time or memory, or exits with a code its protocol does not
define is a judge error (JE): never a wrong answer of the submission.

The Kattis protocol: `validator input answer feedback_dir [flags] < team_output`, exit 42
accepted, 43 wrong answer; the feedback dir is the scratch dir of the run, whose
`judgemessage.txt` becomes the verdict's message. The testlib protocol: `checker input
output answer`, exit 0 OK, 1 WA, 2 PE (and testlib's other wrong-format codes, 4 and 8),
3 FAIL (JE), 7 points (WA: a case is passed or not, the points are in the message);
its message is what it wrote on stderr.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.limits import Limits
from pipeline.package.spec import PackageError
from pipeline.problem.checkers import ACCEPTED, CheckResult
from pipeline.problem.contract import STDIO, ValidatorUnavailable
from pipeline.program import execute
from pipeline.program.build import default_cache_dir
from pipeline.program.execution import ExecutionResult
from pipeline.program.submission import PreparedSubmission, SubmissionError, parse_spec
from pipeline.program.submission import prepare_program as _prepare
from pipeline.schemas import Verdict

# of every validator and checker run; generous: their time is the judge's, not the
# submission's (and output_kb caps the judge message read back)
CHECKER_LIMITS = Limits(cpu_ms=30_000, memory_mb=2048, output_kb=64)
ACCEPT_EXIT, REJECT_EXIT = 42, 43
TESTLIB_EXITS = {0: Verdict.AC, 1: Verdict.WA, 2: Verdict.PE, 4: Verdict.PE, 8: Verdict.PE}
TESTLIB_FAIL, TESTLIB_POINTS = 3, 7
# the names of the files a checker is given, in its scratch dir
INPUT, ANSWER, OUTPUT, JUDGE_MESSAGE = "testcase.in", "testcase.ans", "team.out", "judgemessage.txt"
MESSAGE_CHARS = 500
SKIPPED = (".h", ".hpp", ".hh", ".md", ".txt")  # headers and notes beside the programs


def program_paths(folder: Path) -> list[Path]:
    """The programs of a validators folder: each file or folder in it (hidden files,
    headers and notes aside)."""
    if not folder.is_dir():
        return []
    return [
        p
        for p in sorted(folder.iterdir())
        if not p.name.startswith(".") and not (p.is_file() and p.suffix in SKIPPED)
    ]


@dataclass
class Program:
    """A package program, built on first use in each process (a build cache hit after
    the first build anywhere on the machine)."""

    path: Path
    _prepared: PreparedSubmission | None = field(default=None, repr=False)

    def check_spec(self) -> None:
        """A program whose language cannot be told fails when the package is read."""
        try:
            parse_spec(str(self.path))
        except SubmissionError as exc:
            raise PackageError(f"{self.path}: {exc}") from None

    def prepared(self) -> PreparedSubmission:
        if self._prepared is None:
            spec = parse_spec(str(self.path))
            self._prepared = _prepare(spec, str(self.path), STDIO, default_cache_dir())
        return self._prepared

    def failure(self) -> str | None:
        """Why this program cannot run here (it did not compile, no toolchain), or None."""
        try:
            prepared = self.prepared()
        except Exception as exc:  # the judge's: a build that could not even start
            return f"{self.path.name}: {type(exc).__name__}: {exc}"
        if prepared.compile_error is not None:
            first = (prepared.compile_error.strip().splitlines() or ["?"])[0]
            return f"{self.path.name} did not compile: {first[:200]}"
        return prepared.unavailable


def _one_line(data: bytes) -> str:
    return " ".join(data.decode("utf-8", "replace").split())[:MESSAGE_CHARS]


def _abnormal(result: ExecutionResult, what: str) -> str | None:
    """Why a run of a judge program is no answer at all, or None."""
    if result.judge_error:
        return f"{what}: {result.judge_error}"
    if result.cpu_exceeded or result.wall_exceeded:
        return f"{what} ran out of time"
    if result.memory_exceeded:
        return f"{what} ran out of memory"
    if result.signal:
        return f"{what} was killed by signal {result.signal}: {_one_line(result.stderr_head)}"
    return None


def checker_verdict(protocol: str, result: ExecutionResult) -> CheckResult:
    """The verdict a checker's run gives under its protocol."""
    what = "output validator" if protocol == "kattis" else "checker"
    broken = _abnormal(result, what)
    if broken is not None:
        return CheckResult(Verdict.JE, broken[:MESSAGE_CHARS])
    code = result.exit_code
    if protocol == "kattis":
        if code == ACCEPT_EXIT:
            return ACCEPTED
        if code == REJECT_EXIT:
            return CheckResult(Verdict.WA, _one_line(result.output))
    elif code in TESTLIB_EXITS:
        verdict = TESTLIB_EXITS[code]
        message = _one_line(result.stderr_head)
        return ACCEPTED if verdict == Verdict.AC else CheckResult(verdict, message)
    elif code == TESTLIB_POINTS:
        return CheckResult(Verdict.WA, f"partial points: {_one_line(result.stderr_head)}")
    tail = _one_line(result.stderr_head)
    says = "FAIL" if protocol == "testlib" and code == TESTLIB_FAIL else f"exit code {code}"
    return CheckResult(Verdict.JE, f"{what} {says}: {tail}"[:MESSAGE_CHARS])


def run_checker(
    program: PreparedSubmission,
    protocol: str,
    input_text: str,
    answer: str,
    output: str,
    flags: tuple[str, ...] = (),
    limits: Limits = CHECKER_LIMITS,
) -> CheckResult:
    """One checker run on one case in the sandbox -> the case's verdict. The feedback
    dir (Kattis) is the run's scratch dir: judgemessage.txt is read back as its output."""
    placed: dict[str, bytes | str | Path] = {INPUT: input_text.encode()}
    placed[ANSWER] = answer.encode()
    if protocol == "testlib":
        placed[OUTPUT] = output.encode()
        args, stdin, taken = [INPUT, OUTPUT, ANSWER], b"", None
    else:
        placed[JUDGE_MESSAGE] = b""  # so the output is this file even when left empty
        args, stdin, taken = [INPUT, ANSWER, "./", *flags], output.encode(), JUDGE_MESSAGE
    try:
        result = execute.run(
            program,
            stdin,
            limits=limits,
            args=args,
            files=placed,
            output_file=taken,
            servers=execute.current_judge_servers(),
        )
    except Exception as exc:  # the program is missing on this node and cannot be rebuilt
        return CheckResult(Verdict.JE, f"checker: {type(exc).__name__}: {exc}"[:MESSAGE_CHARS])
    return checker_verdict(protocol, result)


def run_input_validator(
    program: PreparedSubmission, input_text: str, flags: tuple[str, ...]
) -> str | None:
    """None when the input validator accepts `input_text` (exit 42), else why not (any
    other exit, a crash included: an assertion that fails rejects the input). Raises
    ValidatorUnavailable when it could not judge: a judge error, out of time or memory."""
    name = Path(program.label).name
    try:
        result = execute.run(
            program,
            input_text.encode(),
            limits=CHECKER_LIMITS,
            args=flags,
            servers=execute.current_judge_servers(),
        )
    except Exception as exc:  # the program is missing on this node and cannot be rebuilt
        raise ValidatorUnavailable(f"input validator {name}: {exc}") from None
    what = f"input validator {name}"
    if result.judge_error or result.cpu_exceeded or result.wall_exceeded or result.memory_exceeded:
        raise ValidatorUnavailable(str(_abnormal(result, what)))
    if result.exit_code == ACCEPT_EXIT:
        return None
    said = _one_line(result.stderr_head) or _one_line(result.output)
    how = f"killed by signal {result.signal}" if result.signal else f"exit code {result.exit_code}"
    return f"{what} {how}" + (f": {said}" if said else "")
