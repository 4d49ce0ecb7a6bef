"""Standalone programs made of a problem plugin's own functions (`gridjudge export`).

A package's solver and validators must run without gridjudge installed, and must judge
exactly as the plugin does. Rather than restating the rules in a second program, a
program embeds the source of every `solvers`/`pipeline` module its entry functions need
(found by walking their imports) and serves them to itself through an import hook; the
parent packages are empty (their `__init__` would pull in generators and the registry).
A few bottom-floor modules are replaced by the definitions that are used from them
(`SHIMS`): `pipeline.schemas` holds Arrow schemas, which need pyarrow. A third-party
module that is imported but missing where the program runs is replaced by a stand-in
that fails on first use (clocks' solver module imports numpy for another version).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib.resources import files
from string import Template
from typing import Any

from pipeline.errors import GridjudgeError
from pipeline.problem.contract import InvalidInput
from pipeline.schemas import Verdict

ROOTS = ("solvers", "pipeline")
# module -> (header, the objects it contributes): only these are embedded for it
SHIMS: Mapping[str, tuple[str, tuple[Any, ...]]] = {
    "pipeline.schemas": ("from enum import Enum\n", (Verdict,)),
    "pipeline.problem.contract": ("", (InvalidInput,)),
}
REJECTED = (Verdict.WA, Verdict.PE)  # checker verdicts an output validator reports as 43


class BundleError(GridjudgeError):
    """A function cannot be embedded (a lambda, or an import form the bundler does not follow)."""


@dataclass(frozen=True)
class Bundle:
    """The embedded modules of a program and the imports of its entry functions."""

    sources: dict[str, str]
    packages: tuple[str, ...]
    imports: str
    needs: tuple[str, ...]


def template(name: str) -> str:
    return (files("pipeline.export") / "templates" / name).read_text(encoding="utf-8")


def _entry(alias: str, func: Callable[..., Any]) -> tuple[str, str]:
    """(module, import line) of one entry function, checked to be importable by name."""
    module, name = func.__module__, func.__name__
    if getattr(importlib.import_module(module), name, None) is not func:
        raise BundleError(f"{module}.{name} cannot be imported by name (a lambda or a method?)")
    return module, f"from {module} import {name} as {alias}"


def _imports_of(source: str, module: str) -> tuple[set[str], set[str]]:
    """(gridjudge modules, other top-level modules) that `source` imports."""
    ours: set[str] = set()
    others: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                raise BundleError(f"{module}: relative imports are not followed")
            names = [node.module or ""]
            base = node.module or ""
            for alias in node.names:  # `from pkg import submodule`
                if base.startswith(ROOTS) and _is_module(f"{base}.{alias.name}"):
                    names.append(f"{base}.{alias.name}")
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            (ours if name.partition(".")[0] in ROOTS else others).add(name)
    others.discard("__future__")
    return ours, {name.partition(".")[0] for name in others}


def _is_module(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def _shim(module: str) -> str:
    header, objects = SHIMS[module]
    return header + "\n\n".join(inspect.getsource(obj) for obj in objects)


def bundle(entries: Iterable[tuple[str, Callable[..., Any]]]) -> Bundle:
    """The modules that `entries` ((alias, function) pairs) need, transitively."""
    lines, todo = [], []
    for alias, func in entries:
        module, line = _entry(alias, func)
        lines.append(line)
        todo.append(module)
    sources: dict[str, str] = {}
    needs: set[str] = set()
    while todo:
        module = todo.pop()
        if module in sources:
            continue
        if module in SHIMS:
            sources[module] = _shim(module)
            continue
        source = inspect.getsource(importlib.import_module(module))
        sources[module] = source
        ours, others = _imports_of(source, module)
        todo.extend(ours)
        needs |= {name for name in others if name not in sys.stdlib_module_names}
    packages = {
        ".".join(parts[:i])
        for parts in (m.split(".") for m in sources)
        for i in range(1, len(parts))
    }
    return Bundle(
        dict(sorted(sources.items())),
        tuple(sorted(packages)),
        "\n".join(lines),
        tuple(sorted(needs)),
    )


def program(
    problem: str, purpose: str, entries: Iterable[tuple[str, Callable[..., Any]]], main: str
) -> str:
    """One standalone Python program: the loader, the embedded modules, then `main`
    (a template's text, `$rejected` filled in)."""
    b = bundle(entries)
    head = Template(template("loader.py.tmpl")).substitute(
        purpose=purpose,
        problem=problem,
        needs=(
            f"; the embedded modules import {', '.join(b.needs)}: where missing, a stand-in "
            "that fails on first use takes their place"
            if b.needs
            else ""
        ),
        optional=repr(b.needs),
        sources=_literal(b.sources),
        packages=repr(set(b.packages)) if b.packages else "set()",
        imports=b.imports,
    )
    rejected = repr(tuple(str(v) for v in REJECTED))
    return head + Template(template(main)).substitute(rejected=rejected)


def _literal(sources: Mapping[str, str]) -> str:
    """A dict literal, one module per entry."""
    body = "".join(f"    {name!r}: {text!r},\n" for name, text in sources.items())
    return "{\n" + body + "}"
