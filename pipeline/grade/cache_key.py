"""The result cache's key: everything that decides a verdict but the CPU time limit (the
reuse rule of pipeline.grade.cache weighs that one). A pair's key is the hash of a base
(what every pair of one corpus's grading shares: KeyBase), the submission's part
(submission_key, runner_kind) and the case's (case_digest)."""

from __future__ import annotations

import hashlib
import inspect
import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pipeline.corpus.store import validator_fingerprint
from pipeline.grade.settings import GradeSettings
from pipeline.limits import Limits
from pipeline.problem.contract import Problem
from pipeline.program.languages.registry import get_language, toolchain_version
from pipeline.program.submission import PreparedSubmission
from pipeline.sandbox.isolation import isolation_level, probed

# Bump when a change of gridjudge's grading changes what a row says for the same inputs.
GRADING_VERSION = 4


def _source_digest(fn: Callable[..., Any]) -> str:
    """A hash of the file that defines `fn` (any edit of it counts as a change)."""
    digest = hashlib.sha256()
    try:
        source = inspect.getsourcefile(fn)
        digest.update(Path(source).read_bytes() if source else repr(fn).encode())
    except (TypeError, OSError):
        digest.update(repr(fn).encode())
    return digest.hexdigest()[:16]


def checker_fingerprint(problem: Problem) -> str:
    """Names the problem's checker as validator_fingerprint names its validator: the
    problem and a hash of the source file defining its `check` (and of a package's files)."""
    return f"{problem.name} {_source_digest(problem.check)}{problem.fingerprint}"


def submission_key(submission: PreparedSubmission, problem: Problem) -> str:
    """The submission's part of the key: its content hash (kind, language and sources:
    PreparedSubmission.sha), its language's flags, run command and toolchain version (an
    upgrade regrades), and for a reference solver the code of its plugin. A `cmd:`
    submission is known by its command text only."""
    parts = [submission.sha, submission.kind]
    if submission.language is not None:
        lang = get_language(submission.language)
        parts += [lang.name, lang.flags(), repr(lang.run), toolchain_version(lang)]
        parts.append(repr(submission.time_multiplier))  # it scales the CPU limit
    version = submission.version
    if submission.kind == "solver" and version is not None and version in problem.solvers:
        parts.append(_source_digest(problem.solvers[version]))
    return "\0".join(parts)


def runner_kind(
    problem: Problem,
    submission: PreparedSubmission,
    limits: Limits,
    settings: GradeSettings,
) -> str:
    """The runner the engine picks for the submission (its class and batch size)."""
    from pipeline.grade.runners import runner_for

    if submission.compile_error is not None:
        return "none"
    runner = runner_for(problem, submission, limits, settings=settings)
    single = getattr(runner, "single", runner)
    return f"{type(runner).__name__}:{getattr(runner, 'k', 1)}:{type(single).__name__}"


@dataclass(frozen=True)
class KeyBase:
    """What every pair of one corpus's grading shares in its key: the problem, its
    resolved limits and the run's settings (the runner they choose is keyed per
    submission; the time multipliers are in the submission's part)."""

    problem: Problem
    limits: Limits
    settings: GradeSettings

    def digest(self) -> bytes:
        rest = asdict(self.limits)
        del rest["cpu_ms"]  # weighed by `reusable`, not keyed
        if self.limits.wall_ms is None:
            rest["wall_ms"] = "2 x cpu + 1000"
        fields = {
            "grading_version": GRADING_VERSION,
            "problem": self.problem.name,
            "checker": checker_fingerprint(self.problem),
            "validator": validator_fingerprint(self.problem),
            "reference": self._reference(),
            # how a program gets its cases: files, and several cases in one (--batch)
            "io": self.problem.io.describe(),
            "multi_case": self.problem.multi_case,
            "batch_format": [
                _source_digest(f) for f in (self.problem.join, self.problem.split) if f
            ],
            "limits": rest,
            "sandbox": os.environ.get("GRIDJUDGE_SANDBOX") or "default",
            "batch_k": self.settings.batch,
            "repeat": self.settings.repeat,
        }
        if self.settings.repeat_from_ms is not None:  # keys of full repeats stay as before
            fields["repeat_from_ms"] = self.settings.repeat_from_ms
        if not self.settings.transcripts:  # rows without a transcript (keys as before)
            fields["transcripts"] = False
        if isolation_level(probed())[0] == "rlimits only":
            # rows of a run without isolation (--allow-unsandboxed) are never served to
            # an isolated one: the program could read its answers (keys of isolated
            # runs are as before)
            fields["unsandboxed"] = True
        return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).digest()

    def _reference(self) -> str:
        """The reference solver's code ("" without one: the answers are the corpus's)."""
        version = self.problem.default_solver
        return "" if version is None else _source_digest(self.problem.solvers[version])

    def for_submission(self, submission: PreparedSubmission) -> Any:
        """A hasher holding the base and the submission: add a case digest for a key."""
        h = hashlib.sha256(self.digest())
        h.update(submission_key(submission, self.problem).encode())
        kind = runner_kind(self.problem, submission, self.limits, self.settings)
        h.update(kind.encode() + b"\0")
        return h


def case_digest(input_text: str, expected: str | None) -> bytes:
    """The case's part of the key: its input and expected answer (none: the reference
    solver's, whose code is in the base)."""
    h = hashlib.sha256(input_text.encode())
    h.update(b"\1" if expected is None else b"\0" + expected.encode())
    return h.digest()


def pair_key(submission_hasher: Any, case: bytes) -> bytes:
    h = submission_hasher.copy()
    h.update(case)
    return h.digest()
