"""YAML files a user writes or a package brings: read with any failure as one line naming
the file, and a pydantic model's errors as one line naming the field; an unknown key is
named with the nearest known one (a misspelled key is the cause, the "Field required" of
the key it stands for only its consequence).

`read_yaml` is the one way gridjudge reads such a file (problem.yaml, testdata.yaml,
test_group.yaml, submissions.yaml, run configs, scoring policies; a reader of another
file, generators.yaml say, goes through it too). It reads a bounded document: an alias
repeats its value without copying it, so a few lines of nested aliases name a value of
billions of items that anything walking the data (str() of a title, flags joined into a
message, a model's validation) expands; such a document, one past MAX_BYTES, one nested
past MAX_DEPTH or an alias inside the value it names is refused, before any of its
values is built.
"""

from __future__ import annotations

import difflib
import types
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError

MAX_BYTES = 1 << 20  # a settings file, not data: far above any real one
MAX_ALIASED = 10_000  # values aliases may add, each alias counting all of what it repeats
MAX_DEPTH = 100  # mappings and lists within each other


def read_yaml(path: Path, error: type[Exception]) -> Any:
    """The parsed content of `path`; raises `error` with one line naming it when it
    cannot be read, is not YAML, or is past the bounds above."""
    path = Path(path)
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror})") from None
    if len(raw) > MAX_BYTES:
        raise error(f"{path}: over {MAX_BYTES >> 10} KiB, too large for a settings file")
    try:
        return _parse(raw.decode("utf-8"), path, error)
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise error(f"{path}: not valid YAML{at}") from None


class _TooDeep(Exception):
    pass


class _Loader(yaml.SafeLoader):
    """The safe loader, whose scanner stops at a flow collection (`[[[...`) nested past
    MAX_DEPTH as it meets it, not after scanning all of them."""

    def fetch_more_tokens(self) -> None:
        super().fetch_more_tokens()
        if self.flow_level > MAX_DEPTH:
            raise _TooDeep


def _parse(text: str, path: Path, error: type[Exception]) -> Any:
    """The document of `text`, built only once its node graph is within the bounds."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        refused = _unbounded(node)
        if refused is not None:
            raise error(f"{path}: {refused}: refused")
        return loader.construct_document(node)
    except (_TooDeep, RecursionError):  # composing nests calls per level: past MAX_DEPTH
        raise error(f"{path}: nested deeper than {MAX_DEPTH} levels: refused") from None
    finally:
        loader.dispose()


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _unbounded(root: yaml.Node) -> str | None:
    """Why the document under `root` is past the bounds, or None. An alias is the node
    it names, reached again: the walk (iterative, each node's size counted once) sizes
    the document as built, copies and all, against the nodes the text holds."""
    sizes: dict[int, int] = {}
    path: set[int] = set()  # the nodes open on the way down: one met again is a cycle
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        key = id(node)
        if closing:
            path.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in _children(node))
            continue
        if key in sizes:
            continue
        if isinstance(node, yaml.ScalarNode):  # a leaf: no level of its own
            sizes[key] = 1
            continue
        if key in path:
            return "an alias inside the value it names"
        if len(path) >= MAX_DEPTH:
            return f"nested deeper than {MAX_DEPTH} levels"
        path.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node))
    if sizes[id(root)] - len(sizes) > MAX_ALIASED:
        return f"its aliases repeat more than {MAX_ALIASED} values"
    return None


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
