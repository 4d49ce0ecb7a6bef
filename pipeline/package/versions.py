"""The versions of the problem package format gridjudge reads, and the test data folder
settings as each defines them:

    legacy    (no problem_format_version, or legacy / legacy-icpc): testdata.yaml with
              input_validator_flags, output_validator_flags, grader_flags (min | sum),
              accept_score (the points of an accepted case) and range ("low high": the
              group's points are the high end)
    2023-07   (2023-07-draft): testdata.yaml with input_validator_args,
              output_validator_args and scoring: {score, aggregation: sum | min}
    2025-09   (2025-09, 2025-09-draft, draft): test_group.yaml with input_validator_args,
              output_validator_args (sequences), max_score, score_aggregation
              (pass-fail | sum | min)

A key another version defines is ignored, as any unknown key. Points may be zero or
fractional where the version allows a number (legacy accept_score and range: any
non-negative number; 2023-07 score: non-negative; 2025-09 max_score: a non-negative
integer); `unbounded` scores are not supported (one line). 2023-07 and 2025-09 `args`
(the submission's command-line arguments) are refused in one line unless empty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pipeline.errors import GridjudgeError

LEGACY, V2023, V2025 = "legacy", "2023-07", "2025-09"
VERSIONS = {
    "legacy": LEGACY,
    "legacy-icpc": LEGACY,
    "2023-07-draft": V2023,
    "2023-07": V2023,
    "2025-09": V2025,
    "2025-09-draft": V2025,
    "draft": V2025,
}
SETTINGS_FILE = {LEGACY: "testdata.yaml", V2023: "testdata.yaml", V2025: "test_group.yaml"}
AGGREGATIONS = ("sum", "min", "pass-fail")


class VersionError(GridjudgeError):
    """A value the package's format version does not allow; one line."""


def format_version(data: Mapping[str, Any], where: str) -> str:
    given = str(data.get("problem_format_version", "legacy"))
    if given not in VERSIONS:
        known = ", ".join(sorted(VERSIONS))
        raise VersionError(f"{where}: problem_format_version {given!r} is not one of {known}")
    return VERSIONS[given]


def non_negative(value: Any, key: str, where: str, integer: bool = False) -> float:
    if value == "unbounded":
        raise VersionError(f"{where}: {key}: unbounded scores are not supported")
    kind = int if integer else int | float
    if isinstance(value, bool) or not isinstance(value, kind) or value < 0:
        what = "a non-negative integer" if integer else "a non-negative number"
        raise VersionError(f"{where}: {key} must be {what}, not {value!r}")
    return float(value)


def _legacy(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, name in (("input_validator_flags", "input"), ("output_validator_flags", "output")):
        if key in data:
            out[name] = data[key]
    grader = str(data.get("grader_flags", "")).split()
    if "min" in grader or "sum" in grader:
        out["aggregation"] = "min" if "min" in grader else "sum"
    if "range" in data:  # "low high": the high end is the group's points
        words = str(data["range"]).split()
        try:
            low, high = (float(w) for w in words) if len(words) == 2 else (None, None)
        except ValueError:
            low = high = None
        if low is None or high is None or high < low:
            raise VersionError(f"{where}: range must be two numbers, low then high")
        out["score"] = non_negative(high, "range", where)
    if "accept_score" in data:
        out["accept_score"] = non_negative(data["accept_score"], "accept_score", where)
    return out


# BAPCtools' answer_validator_args: given to its answer validators (as input_validator_args)
ARG_KEYS = (
    ("input_validator_args", "input"),
    ("output_validator_args", "output"),
    ("answer_validator_args", "answer"),
)


def refuse_submission_args(data: Mapping[str, Any], where: str) -> None:
    """`args`: command-line arguments of the submission on a case (2023-07 and later).
    gridjudge runs a submission without any, so a package that gives some is refused
    in one line rather than judged otherwise than a judge would; none (`[]`) is fine."""
    if data.get("args") not in (None, [], ""):
        raise VersionError(
            f"{where}: args (command-line arguments of the submissions) is not supported"
        )


def _args(data: Mapping[str, Any], out: dict[str, Any], where: str) -> None:
    refuse_submission_args(data, where)
    for key, name in ARG_KEYS:
        if key in data:
            out[name] = data[key]


def _v2023(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _args(data, out, where)
    scoring = data.get("scoring") or {}
    if not isinstance(scoring, dict):
        raise VersionError(f"{where}: scoring must be a mapping")
    if "aggregation" in scoring:
        out["aggregation"] = scoring["aggregation"]
    if scoring.get("score") is not None:
        out["score"] = non_negative(scoring["score"], "scoring.score", where)
    return out


def _v2025(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _args(data, out, where)
    if "score_aggregation" in data:
        out["aggregation"] = data["score_aggregation"]
    if data.get("max_score") is not None:
        out["score"] = non_negative(data["max_score"], "max_score", where, integer=True)
    return out


READERS: dict[str, Callable[[Mapping[str, Any], str], dict[str, Any]]] = {
    LEGACY: _legacy,
    V2023: _v2023,
    V2025: _v2025,
}


def folder_keys(version: str, data: Mapping[str, Any], where: str) -> dict[str, Any]:
    """What one settings file gives, as the version defines its keys: `input`, `output`
    (validator flags, unparsed), `aggregation` (sum | min | pass-fail), `score`, `accept_score`."""
    out = READERS[version](data, where)
    if "aggregation" in out and out["aggregation"] not in AGGREGATIONS:
        raise VersionError(f"{where}: aggregation must be one of {', '.join(AGGREGATIONS)}")
    return out
