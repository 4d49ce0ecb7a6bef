"""The grading settings of a run: one value holding whatever decides how its cases are
graded (limits, batch, repeat, runner, validation, time multipliers, the TLE cap).

Made once in the plan (from `grade`'s options or a config job's keys, which are named as
its fields) and read by the engine, the runners, the chunk sizes, the result cache's key,
run.json and the resume check. Its defaults are the only defaults of those options.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pipeline.errors import GridjudgeError
from pipeline.limits import MEMORY_LIMIT_RANGE_MB, TIME_LIMIT_RANGE_S, Limits, out_of_range


class GradeError(GridjudgeError):
    """The grading job cannot start (or resume) as asked; one line for the user."""


class GradeSettings(BaseModel):
    """How every case of a run is graded."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # CPU seconds / MB per case; None: the problem's own limit
    time_limit: float | None = Field(default=None, gt=0)
    memory_limit: int | None = Field(default=None, gt=0)
    # cases per process where the problem's format holds several
    batch: int = Field(default=1, ge=1)
    # runs of each case (interleaved between submissions); every timing is kept
    repeat: int = Field(default=1, ge=1)
    # with repeat > 1, the later rounds run only a case whose rounds so far were all AC
    # and whose first took at least this many CPU ms: the runs whose verdict or time
    # can matter (a case that failed once keeps that verdict); None: every case R times
    repeat_from_ms: float | None = Field(default=None, ge=0)
    # fork each case's process from a server started once per submission (else spawn it);
    # docs/sandbox.md has the figures behind this default
    fork_server: bool = True
    # keep what passes between an interactive case's submission and its judge program
    # (each direction's first and last KiB, the judge relaying every message); off: the
    # two programs' pipes joined, no judge between them (faster on chatty problems), no
    # transcript and no output cap on what they pass
    transcripts: bool = True
    # validate every input, even of a corpus whose manifest vouches for them
    revalidate: bool = False
    # per-language factors of the CPU limit (language -> factor); none by default
    time_multipliers: dict[str, float] | None = None
    # after this many TLEs of one submission its remaining cases are not run
    max_tle: int | None = Field(default=None, ge=1)
    # with max_tle, every rejected case (any verdict but AC) counts toward it, not only a
    # TLE: `verify` stops a submission at its first rejected case, as problemtools does
    cap_rejected: bool = False
    # grade where no isolation is possible (no namespaces: the program runs as you, with
    # your files and the network); refused otherwise (pipeline/sandbox/isolation.py)
    allow_unsandboxed: bool = False

    @field_validator("time_limit", "memory_limit")
    @classmethod
    def _sane(cls, value: float | None, info: Any) -> float | None:
        """A limit outside its sane range (pipeline/limits.py) is a typo, not a wish."""
        if info.field_name == "time_limit":
            bounds, unit = TIME_LIMIT_RANGE_S, "s"
        else:
            bounds, unit = MEMORY_LIMIT_RANGE_MB, "MB"
        problem = None if value is None else out_of_range(value, bounds, unit)
        if problem is not None:
            raise ValueError(problem)
        return value

    @classmethod
    def of_options(cls, **values: Any) -> GradeSettings:
        """The settings of command-line options named as the fields; a bad value is one
        GradeError naming its option (`--time-limit must be positive`)."""
        try:
            return cls(**values)
        except ValidationError as exc:
            first = exc.errors()[0]
            name = "--" + str(first["loc"][0]).replace("_", "-")
            raise GradeError(f"{name} {_why(first)}") from None

    def limits_for(self, limits: Limits) -> Limits:
        """A problem's limits with this run's CPU time and memory where given."""
        return limits.override(self.time_limit, self.memory_limit)


DEFAULT = GradeSettings()

# Settings a resumed run may change: the limits are checked per corpus (run.json keeps
# each corpus's resolved limits), and both runners give the same verdicts.
MAY_CHANGE_ON_RESUME = frozenset({"time_limit", "memory_limit", "fork_server", "allow_unsandboxed"})


def _why(error: Any) -> str:
    bound = (error.get("ctx") or {}).copy()
    if error["type"] == "greater_than" and bound.get("gt") == 0:
        return "must be positive"
    if error["type"] == "greater_than_equal":
        return f"must be at least {bound['ge']}"
    if error["type"] == "value_error":
        return str(error["msg"]).removeprefix("Value error, ")
    return str(error["msg"]).lower()


def resume_conflict(previous: dict[str, Any], now: GradeSettings) -> str:
    """The first setting a resumed run changes that it must keep, as `name=old, not new`
    ("" when none): run.json holds the settings at its top level."""
    for name in GradeSettings.model_fields:
        if name in MAY_CHANGE_ON_RESUME:
            continue
        before = previous.get(name, getattr(DEFAULT, name))
        if before != getattr(now, name):
            return f"{name}={before}, not {getattr(now, name)}"
    return ""
