"""A package's own programs (input validators, output validators, testlib checkers):
code from outside, built once per content hash by the build cache and run in the sandbox.

`checked_run` is the one place a checker program runs for a case, under its protocol
(pipeline.package.protocols: the files, arguments and the meaning of its exit), and
`_judging_run` the one place any of these programs, validators too, starts. A checker
that cannot be built, crashes, runs out of time or memory, or exits with a code its
protocol does not define is a judge error (JE): never a wrong answer of the submission.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.package.checktestdata import CTD_SUFFIX, is_checktestdata, standalone
from pipeline.package.constants import substituted
from pipeline.package.protocols.contract import (
    INPUT,
    MESSAGE_CHARS,
    Case,
    CheckerProtocol,
    Invocation,
    abnormal,
    one_line,
)
from pipeline.package.protocols.kattis import ACCEPT_EXIT
from pipeline.package.spec import PackageError
from pipeline.problem.checkers import CheckResult
from pipeline.problem.contract import STDIO, ValidatorUnavailable
from pipeline.program import execute
from pipeline.program.build import default_cache_dir
from pipeline.program.languages import for_extension
from pipeline.program.languages.scripts import BUILD, RUN, SCRIPTS
from pipeline.program.submission import (
    PreparedSubmission,
    SubmissionError,
    SubmissionSpec,
    in_listing,
    parse_spec,
)
from pipeline.program.submission import prepare_program as _prepare
from pipeline.schemas import Verdict

# of every validator and checker run; generous: their time is the judge's, not the
# submission's (and output_kb caps the judge message read back)
CHECKER_LIMITS = Limits(cpu_ms=30_000, memory_mb=2048, output_kb=64)
SKIPPED = (".h", ".hpp", ".hh", ".md", ".txt")  # headers and notes beside the programs


def has_scripts(path: Path) -> bool:
    """A program folder with a `build` or `run` script (the format's "other programs")."""
    return path.is_dir() and any((path / name).is_file() for name in (BUILD, RUN))


def is_program_folder(folder: Path) -> bool:
    """Whether a folder that the format makes one program (2023-07 `output_validator/`)
    holds that program itself (a source file, a build or run script); else (folders
    and notes only) each folder in it is taken as a program, as gridjudge read it
    before."""
    if not folder.is_dir():
        return False
    return has_scripts(folder) or any(
        p.is_file() and in_listing(p) and for_extension(p.suffix) is not None
        for p in folder.iterdir()
    )


def program_paths(folder: Path) -> list[Path]:
    """The programs of a validators folder: each file or folder in it (headers and notes
    aside)."""
    if not folder.is_dir():
        return []
    return [
        p
        for p in sorted(folder.iterdir())
        if in_listing(p) and not (p.is_file() and p.suffix in SKIPPED)
    ]


@dataclass
class PackageProgram:
    """A package program, built on first use in each process (a build cache hit after
    the first build anywhere on the machine)."""

    path: Path
    constants: Mapping[str, str] = field(default_factory=dict)  # the package's
    _prepared: PreparedSubmission | None = field(default=None, repr=False)

    def source(self) -> Path:
        """What is built: the program (with the package's constants substituted), or a
        checktestdata script's Python program."""
        path = substituted(self.path, self.constants, default_cache_dir())
        return standalone(path) if is_checktestdata(path) else path

    def spec(self) -> SubmissionSpec:
        """How it is built: a folder with `build` or `run` scripts by them, else by its
        language (a folder's sources compiled together); labelled by its own path."""
        source, label = self.source(), str(self.path)
        if has_scripts(source):
            return SubmissionSpec(label, kind="source", path=str(source), language=SCRIPTS.name)
        return replace(parse_spec(str(source)), label=label)

    def check_spec(self) -> None:
        """A program whose language cannot be told (or a checktestdata script that does
        not parse) fails when the package is read."""
        try:
            self.spec()
        except SubmissionError as exc:
            raise PackageError(f"{self.path}: {exc}") from None

    def prepared(self) -> PreparedSubmission:
        if self._prepared is None:
            self._prepared = _prepare(self.spec(), str(self.path), STDIO, default_cache_dir())
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


def run_checker(
    program: PreparedSubmission,
    protocol: CheckerProtocol,
    case: Case,
    limits: Limits = CHECKER_LIMITS,
) -> CheckResult:
    """One checker run on one case in the sandbox -> the case's verdict."""
    return checked_run(program, protocol, case, limits)[0]


def checked_run(
    program: PreparedSubmission,
    protocol: CheckerProtocol,
    case: Case,
    limits: Limits = CHECKER_LIMITS,
    call: Invocation | None = None,
    kept: Mapping[str, bytes] | None = None,
) -> tuple[CheckResult, dict[str, bytes]]:
    """The one place a checker program (an output validator, a testlib checker, a
    multi-pass validator) runs for a case: its protocol's invocation (or `call`), with
    `kept` (a pass's files from the pass before) beside the files it places, in the
    sandbox -> the case's verdict and the files it left that the invocation reads back.
    A run that could not start is the judge's fault: JE."""
    call = protocol.invocation(case) if call is None else call
    placed: dict[str, bytes | str | Path] = {**(kept or {}), **call.files}
    try:
        result = _judging_run(program, call.stdin, limits, call.args, placed, call.read_back)
    except Exception as exc:  # the program is missing on this node and cannot be rebuilt
        why = f"checker: {type(exc).__name__}: {exc}"[:MESSAGE_CHARS]
        return CheckResult(Verdict.JE, why), {}
    return protocol.verdict(result, case), result.files


def _judging_run(
    program: PreparedSubmission,
    stdin: bytes,
    limits: Limits,
    args: Sequence[str],
    files: Mapping[str, bytes | str | Path] | None,
    read_back: Sequence[str] = (),
) -> ExecutionResult:
    """A validator's or checker's run, through the seam on the judge-side fork servers
    of the grading (execute.judging_with) so that none serves two submissions; raises
    what execute.run raises for a program it cannot start."""
    return execute.run(
        program,
        stdin,
        limits=limits,
        args=args,
        files=files,
        read_back=read_back,
        servers=execute.current_judge_servers(),
    )


def run_input_validator(
    program: PreparedSubmission, input_text: str, flags: tuple[str, ...]
) -> str | None:
    """None when the input validator accepts `input_text` (exit 42), else why not (any
    other exit, a crash included: an assertion that fails rejects the input). Raises
    ValidatorUnavailable when it could not judge: a judge error, out of time or memory."""
    name = Path(program.label).name
    args = () if name.endswith(CTD_SUFFIX) else flags  # checktestdata takes no arguments
    return _validated(program, f"input validator {name}", input_text.encode(), args)


def run_answer_validator(
    program: PreparedSubmission, input_text: str, answer: str, flags: tuple[str, ...]
) -> str | None:
    """As run_input_validator, for an answer validator (BAPCtools' `answer_validators/`):
    `validator testcase.in [answer_validator_args] < testcase.ans` (a checktestdata
    script: the answer alone)."""
    name = Path(program.label).name
    if name.endswith(CTD_SUFFIX):  # checktestdata reads the answer alone
        return _validated(program, f"answer validator {name}", answer.encode(), ())
    files: dict[str, bytes | str | Path] = {INPUT: input_text.encode()}
    return _validated(program, f"answer validator {name}", answer.encode(), (INPUT, *flags), files)


def _validated(
    program: PreparedSubmission,
    what: str,
    stdin: bytes,
    args: tuple[str, ...],
    files: dict[str, bytes | str | Path] | None = None,
) -> str | None:
    try:
        result = _judging_run(program, stdin, CHECKER_LIMITS, args, files)
    except Exception as exc:  # the program is missing on this node and cannot be rebuilt
        raise ValidatorUnavailable(f"{what}: {exc}") from None
    if result.judge_error or result.cpu_exceeded or result.wall_exceeded or result.memory_exceeded:
        raise ValidatorUnavailable(str(abnormal(result, what)))
    if result.exit_code == ACCEPT_EXIT:
        return None
    said = one_line(result.stderr_head) or one_line(result.output)
    how = f"killed by signal {result.signal}" if result.signal else f"exit code {result.exit_code}"
    return f"{what} {how}" + (f": {said}" if said else "")
