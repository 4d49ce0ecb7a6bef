"""Run configs (YAML) for `gridjudge run`: the whole job — corpora to make or import,
grading jobs, the cluster to use — validated with pydantic before any work starts.

A job's grading keys are the grading settings' own fields (GradeSettings: batch, repeat,
time_limit, ...); options left out keep the library's defaults, so a default lives in one
place. Relative paths are relative to the config file's folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from pipeline.compare.options import DEFAULT_FAIL_ON, FailOn
from pipeline.errors import GridjudgeError
from pipeline.grade.select import Only
from pipeline.grade.settings import GradeSettings
from pipeline.jobs.corpus import DEFAULT_SEED
from pipeline.scoring.feedback import Feedback
from pipeline.scoring.policy import Policy
from pipeline.yamlfile import first_error, read_yaml


class ConfigError(GridjudgeError):
    """A config that cannot be used; the message names the file and the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GenerateSpec(_Strict):
    problem: str
    count: int = Field(gt=0)
    seed: int = DEFAULT_SEED
    families: list[str] = []


class ImportSpec(_Strict):
    source: Path  # judge folder, Kattis package or one multi-case file
    problem: str
    answers: Path | None = None


class CorpusSpec(_Strict):
    """A corpus folder; made by `generate` or `import` when it does not exist yet."""

    path: Path | None = None  # default: <out>/corpora/<name>
    generate: GenerateSpec | None = None
    import_: ImportSpec | None = Field(default=None, alias="import")

    @model_validator(mode="after")
    def _one_source(self) -> CorpusSpec:
        if self.generate is not None and self.import_ is not None:
            raise ValueError("give either generate or import, not both")
        if self.path is None and self.generate is None and self.import_ is None:
            raise ValueError("give a path, generate or import")
        return self


class CompareSpec(_Strict):
    """Compare two submissions of the job's run (gate the job's exit code on it)."""

    a: str
    b: str
    fail_on: FailOn = DEFAULT_FAIL_ON
    junit: Path | None = None


def _nested(model: type[BaseModel], value: Any) -> Any:
    """`value` validated as `model`, its first error as one ValueError naming the field
    (a union would report every branch's error instead)."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise ValueError(first_error(exc, model)) from None


class SubmissionSetSpec(_Strict):
    """A submission set: `{dir: FOLDER}` or `{list: FILE.csv}` (see program.submission_sets)."""

    dir: Path | None = None
    list_: Path | None = Field(default=None, alias="list")

    @model_validator(mode="after")
    def _one(self) -> SubmissionSetSpec:
        if (self.dir is None) == (self.list_ is None):
            raise ValueError("a submission set is either {dir: FOLDER} or {list: FILE.csv}")
        return self


# the keys of a job that set how it is graded: the settings, then GradeOptions' own
GRADE_KEYS = {
    *GradeSettings.model_fields,
    *("chunk_size", "cache", "only", "since", "family", "case", "only_submission"),
}


class JobSpec(GradeSettings):
    """A grading job: its corpora and submissions, the grading settings (the fields of
    GradeSettings, as keys of the job), and how the work is cut and reused."""

    corpora: list[str] = Field(min_length=1)
    # specs as `-s` takes them, and submission sets; one set alone may stand without a list
    submissions: list[str | SubmissionSetSpec] = Field(min_length=1)
    scoring: Policy | Path | None = None  # a policy block, or a policy file
    feedback: Feedback = Feedback.hide_inputs
    # As GradeOptions' fields of the same names; unset ones keep its defaults.
    chunk_size: int | None = Field(default=None, ge=1)
    cache: bool | None = None
    # Selective grading (pipeline.grade.select): `since` is a run folder.
    only: Only | None = None
    since: Path | None = None
    family: str | None = None
    case: str | None = None
    only_submission: str | None = None
    compare: CompareSpec | None = None

    @field_validator("submissions", mode="before")
    @classmethod
    def _sets(cls, value: Any) -> Any:
        """Mappings are sets (an error names their field, not the union's branches)."""
        items = [value] if isinstance(value, dict) else value
        if not isinstance(items, list):
            return items
        return [_nested(SubmissionSetSpec, i) if isinstance(i, dict) else i for i in items]

    @field_validator("scoring", mode="before")
    @classmethod
    def _policy(cls, value: Any) -> Any:
        return _nested(Policy, value) if isinstance(value, dict) else value

    @property
    def specs(self) -> list[str]:
        return [s for s in self.submissions if isinstance(s, str)]

    @property
    def sets(self) -> list[SubmissionSetSpec]:
        return [s for s in self.submissions if not isinstance(s, str)]

    def grade_kwargs(self) -> dict[str, Any]:
        """The grading settings and options the job sets (GradeSettings' and
        GradeOptions' names)."""
        given = self.model_dump(include=GRADE_KEYS, exclude_unset=True)
        return {k: v for k, v in given.items() if v is not None}

    @property
    def settings(self) -> GradeSettings:
        return GradeSettings(**self.model_dump(include=set(GradeSettings.model_fields)))

    @property
    def options(self) -> dict[str, Any]:
        """The job's keys that are GradeOptions' (besides the settings)."""
        return {k: v for k, v in self.grade_kwargs().items() if k not in GradeSettings.model_fields}


class RunConfig(_Strict):
    out: Path
    address: str | None = None  # None: RAY_ADDRESS, else the embedded local Ray
    resume: bool = True  # rerunning a config continues its runs
    html: bool = True
    corpora: dict[str, CorpusSpec] = Field(min_length=1)
    jobs: dict[str, JobSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _known_corpora(self) -> RunConfig:
        for name, job in self.jobs.items():
            unknown = [c for c in job.corpora if c not in self.corpora]
            if unknown:
                raise ValueError(f"job {name!r} names unknown corpus {unknown[0]!r}")
            if job.compare is not None:
                for side in (job.compare.a, job.compare.b):
                    if side not in job.specs and not job.sets:
                        raise ValueError(
                            f"job {name!r}: compare names {side!r}, "
                            "which is not one of its submissions"
                        )
        return self

    def corpus_path(self, name: str) -> Path:
        spec = self.corpora[name]
        return spec.path if spec.path is not None else self.out / "corpora" / name


def _resolve(value: Any, base: Path) -> Any:
    """Relative paths in the config are relative to its folder."""
    if isinstance(value, Path):
        return value if value.is_absolute() else base / value
    if isinstance(value, BaseModel):
        updates = {k: _resolve(getattr(value, k), base) for k in type(value).model_fields}
        # only what changed: a copy counts an updated field as set (JobSpec.grade_kwargs)
        changed = {k: v for k, v in updates.items() if v is not getattr(value, k)}
        return value.model_copy(update=changed)
    if isinstance(value, dict):
        return {k: _resolve(v, base) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, base) for v in value]
    return value


def load_config(path: Path) -> RunConfig:
    """Read and validate a config; any problem is one ConfigError line naming the field."""
    data = read_yaml(path, ConfigError)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings at the top level")
    try:
        config = RunConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"{path}: {first_error(exc, RunConfig)}") from None
    resolved: RunConfig = _resolve(config, Path(path).resolve().parent)
    return resolved
