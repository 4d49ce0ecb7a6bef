"""The cases of one chunk, as the engine reads them: ids, families, inputs and expected
answers, from a record batch of a corpus or from rows given one by one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.problem.contract import Problem, ValidatorUnavailable
from pipeline.schemas import Verdict

CASE_COLUMNS = ["case_id", "family", "input", "expected"]
MESSAGE_CHARS = 500


@dataclass
class Cases:
    case_id: pa.Array
    family: pa.Array
    inputs: list[str | None]
    expected: pa.Array  # string, null where the corpus has no answer

    @classmethod
    def of(cls, cases: pa.RecordBatch | Sequence[Mapping[str, Any]]) -> Cases:
        if isinstance(cases, pa.RecordBatch):
            return cls(
                _strings(cases.column("case_id")),
                _strings(cases.column("family")),
                cases.column("input").to_pylist(),
                _strings(cases.column("expected")),
            )
        return cls(
            pa.array([str(c["case_id"]) for c in cases], pa.string()),
            pa.array([c.get("family") or "" for c in cases], pa.string()),
            [c.get("input") for c in cases],
            pa.array([c.get("expected") for c in cases], pa.string()),
        )

    def __len__(self) -> int:
        return len(self.inputs)

    def take(self, positions: Sequence[int]) -> Cases:
        at = pa.array(np.asarray(positions, dtype=np.int64))
        return Cases(
            self.case_id.take(at),
            self.family.take(at),
            [self.inputs[i] for i in positions],
            self.expected.take(at),
        )

    def slices(self, size: int) -> list[Cases]:
        """Consecutive groups of at most `size` cases."""
        return [
            self.take(list(range(start, min(start + size, len(self)))))
            for start in range(0, len(self), size)
        ]


def _strings(column: pa.Array) -> pa.Array:
    return column if column.type == pa.string() else pc.cast(column, pa.string())


@dataclass
class Rejected:
    """Cases that are not run: their positions, verdict (IE: the validator rejected the
    input; JE: no expected answer could be made) and message."""

    positions: list[int]
    verdicts: list[str]
    messages: list[str]


def _first_line(text: str) -> str:
    return " ".join(text.split())[:MESSAGE_CHARS]


def _rejection(problem: Problem, text: str | None, validate: bool) -> tuple[str | None, Verdict]:
    """Why the case is not run (None: it is run), and the verdict that gives it."""
    if not isinstance(text, str):
        return "case has no input text", Verdict.IE
    if not validate:
        return None, Verdict.IE
    try:
        errors = problem.validate(text)
    except ValidatorUnavailable as exc:  # the judge could not validate: not the case's fault
        return _first_line(str(exc)), Verdict.JE
    except Exception as exc:  # a validator that crashes still rejects the case
        errors = [f"validator failed: {type(exc).__name__}: {exc}"]
    return (_first_line(str(errors[0])) if errors else None), Verdict.IE


def prepare(problem: Problem, cases: Cases, validate: bool) -> tuple[Cases, list[int], Rejected]:
    """The gradable cases (expected answers filled by the reference solver where the
    corpus has none), their positions in `cases`, and the rejected ones."""
    rejected = Rejected([], [], [])
    missing = set(np.flatnonzero(pc.is_null(cases.expected).to_numpy(False)).tolist())
    if not validate and not missing and None not in cases.inputs:  # a trusted corpus
        return cases, list(range(len(cases))), rejected
    filled: dict[int, str] = {}
    good: list[int] = []
    for i, text in enumerate(cases.inputs):
        why, verdict = _rejection(problem, text, validate)
        if why is None and i in missing:
            try:
                filled[i] = problem.solve(text)  # type: ignore[arg-type]
            except Exception as exc:
                why = _first_line(f"reference solver failed: {type(exc).__name__}: {exc}")
                verdict = Verdict.JE
        if why is None:
            good.append(i)
        else:
            rejected.positions.append(i)
            rejected.verdicts.append(str(verdict))
            rejected.messages.append(why)
    if not rejected.positions and not filled:
        return cases, good, rejected
    kept = cases.take(good)
    if filled:
        values = kept.expected.to_pylist()
        for j, i in enumerate(good):
            if i in filled:
                values[j] = filled[i]
        kept.expected = pa.array(values, pa.string())
    return kept, good, rejected
