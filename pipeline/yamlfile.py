"""YAML files a user writes (run configs, scoring policies, problem packages): read with
any failure as one line naming the file, and a pydantic model's errors as one line naming
the field; an unknown key is named with the nearest known one (a misspelled key is the
cause, the "Field required" of the key it stands for only its consequence)."""

from __future__ import annotations

import difflib
import types
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError


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


def unknown_key(key: str, known: Iterable[str], where: str = "") -> str:
    """ "where: unknown setting `key` - did you mean `nearest`?" (or the known keys)."""
    known = sorted(known)
    nearest = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if nearest:
        hint = f" - did you mean `{nearest[0]}`?"
    else:
        hint = f" (known: {', '.join(known)})" if known else ""
    prefix = f"{where}: " if where else ""
    return f"{prefix}unknown setting `{key}`{hint}"


def first_error(exc: ValidationError, model: type[BaseModel] | None = None) -> str:
    """One line: every unknown key of `model` with its nearest known key, else the first
    error as 'field.path: message'; and how many more errors there were."""
    errors = exc.errors()
    unknown = [e for e in errors if e["type"] == "extra_forbidden"]
    if not unknown:
        message = str(errors[0]["msg"]).removeprefix("Value error, ")  # pydantic's wording
        shown, parts = 1, [f"{field_of(errors[0])}: {message}"]
    else:
        parts, explained = [], set()
        for error in unknown:
            parent, key = tuple(error["loc"][:-1]), str(error["loc"][-1])
            known = keys_at(model, parent) if model is not None else []
            where = ".".join(str(p) for p in parent)
            parts.append(unknown_key(key, known, where))
            for near in difflib.get_close_matches(key, known, n=1, cutoff=0.6):
                explained.add((*parent, near))
        missing = [e for e in errors if e["type"] == "missing" and tuple(e["loc"]) in explained]
        shown = len(unknown) + len(missing)
    more = len(errors) - shown
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def keys_at(model: type[BaseModel], loc: Sequence[Any]) -> list[str]:
    """The keys (aliases where given) a mapping at `loc` inside `model` may have."""
    node: Any = model
    for part in loc:
        node = _step(node, part)
        if node is None:
            return []
    return sorted({key for m in _models(node) for key in _keys(m)})


def _keys(model: type[BaseModel]) -> list[str]:
    return [field.alias or name for name, field in model.model_fields.items()]


def _models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    if get_origin(annotation) in (Union, types.UnionType):
        return [m for arg in get_args(annotation) for m in _models(arg)]
    return []


def _step(node: Any, part: Any) -> Any:
    """The annotation one loc step below `node`: a container's items, a union's member
    that has the field, a model's field."""
    origin = get_origin(node)
    if origin in (list, dict, tuple, set, frozenset):
        args = get_args(node)
        return args[-1] if args else None
    if origin in (Union, types.UnionType):
        found = [s for arg in get_args(node) if (s := _step(arg, part)) is not None]
        return found[0] if found else None
    if isinstance(node, type) and issubclass(node, BaseModel):
        for name, field in node.model_fields.items():
            if part in (name, field.alias):
                return field.annotation
    return None
