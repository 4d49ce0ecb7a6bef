"""YAML files a user writes (run configs, scoring policies, problem packages): read with
any failure as one line naming the file, and a pydantic model's first error as one line
naming the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError


def read_yaml(path: Path, error: type[Exception]) -> Any:
    """The parsed content of `path`; raises `error` with one line when it cannot be read
    or is not YAML."""
    try:
        return yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror})") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise error(f"{path}: not valid YAML{at}") from None


def field_of(error: Any) -> str:
    """Where one pydantic error is, as a dotted path."""
    return ".".join(str(p) for p in error["loc"]) or "(top level)"


def first_error(exc: ValidationError) -> str:
    """'field.path: message', and how many more errors there were."""
    first = exc.errors()[0]
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{field_of(first)}: {first['msg']}{more}"
