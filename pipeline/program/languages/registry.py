"""Finds language plugins through the entry-point group "gridjudge.languages" (as problems
are found): each entry point names a tuple of Language versions of one family.

A plugin that fails to load fails loudly with its name. Whether a language can be used
here (its tools on the sandbox's PATH) and its toolchain's version are looked up on
demand; the version is remembered per tool file (path, size, mtime), so an upgraded
toolchain is read again, and builds keyed on it are redone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path

from pipeline.errors import GridjudgeError
from pipeline.program.languages.contract import Language
from pipeline.program.languages.scripts import SCRIPTS
from pipeline.sandbox.base import SANDBOX_PATH

ENTRY_POINT_GROUP = "gridjudge.languages"
VERSION_TIMEOUT_S = 60.0
# chosen by what a folder holds, never named by a user: not among the plugins
UNLISTED = {SCRIPTS.name: SCRIPTS}


class LanguageError(GridjudgeError):
    """An unknown language name or a broken plugin; one line for the user."""


@cache
def all_languages() -> dict[str, Language]:
    """Every language version, by name, in plugin order."""
    found: dict[str, Language] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            family = ep.load()
        except Exception as exc:  # any import failure of a plugin is reported the same way
            raise LanguageError(
                f"language plugin {ep.name!r} ({ep.value}) failed to load: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        versions = family if isinstance(family, tuple) else (family,)
        for lang in versions:
            if not isinstance(lang, Language):
                raise LanguageError(
                    f"language plugin {ep.name!r} ({ep.value}) holds a "
                    f"{type(lang).__name__}, not a Language"
                )
            if lang.name in found:
                raise LanguageError(f"language {lang.name!r} is declared twice")
            found[lang.name] = lang
    return found


@cache
def _names() -> dict[str, str]:
    """Every accepted name and alias -> the language's name."""
    names: dict[str, str] = {}
    for lang in all_languages().values():
        for key in (lang.name, *lang.aliases):
            names.setdefault(key.lower(), lang.name)
    return names


def get_language(name: str) -> Language:
    """The language called `name` (or one of its aliases), or one no plugin lists
    (`UNLISTED`: a package's build/run script folder)."""
    key = _names().get(name.lower())
    if key is None and name in UNLISTED:
        return UNLISTED[name]
    if key is None:
        raise LanguageError(f"unknown language {name!r} (languages: {', '.join(all_languages())})")
    return all_languages()[key]


def is_language(name: str) -> bool:
    return name.lower() in _names()


def for_extension(ext: str) -> Language | None:
    """The default language version for a file extension (".java"), or None."""
    ext = ext.lower()
    fallback = None
    for lang in all_languages().values():
        if ext in lang.default_for:
            return lang
        if fallback is None and ext in lang.extensions:
            fallback = lang
    return fallback


def missing(lang: Language) -> str | None:
    """Why `lang` cannot be used here (to show the user), or None when it can."""
    absent = [t for t in lang.tools if shutil.which(t, path=SANDBOX_PATH) is None]
    absent += [f for f in lang.files if not os.path.isfile(f)]
    if not absent:
        return None
    return (
        f"{lang.name} is not available here: {', '.join(absent)} not found "
        f"(install the Debian package {lang.package})"
    )


def _stamp(lang: Language) -> str:
    parts = []
    for tool in (*lang.tools, *lang.files):
        path = shutil.which(tool, path=SANDBOX_PATH) or tool
        real = os.path.realpath(path)
        info = os.stat(real)
        parts.append(f"{real}:{info.st_size}:{info.st_mtime_ns}")
    return "|".join(parts)


def _versions_file() -> Path:
    base = os.environ.get("GRIDJUDGE_CACHE")
    return (Path(base) if base else Path.home() / ".cache" / "gridjudge") / "toolchains.json"


_seen: dict[str, str] = {}


def toolchain_version(lang: Language) -> str:
    """The first line its version command prints (host side, remembered per tool file);
    an upgrade of a tool changes its stamp and the version is read again."""
    stamp = f"{lang.name}|{_stamp(lang)}"
    if stamp in _seen:
        return _seen[stamp]
    store = _versions_file()
    try:
        known = json.loads(store.read_text())
    except (OSError, ValueError):
        known = {}
    if stamp not in known:
        known[stamp] = _read_version(lang)
        store.parent.mkdir(parents=True, exist_ok=True)
        tmp = store.with_name(f".{store.name}.{os.getpid()}")
        tmp.write_text(json.dumps(known, indent=0, sort_keys=True))
        os.replace(tmp, store)
    _seen[stamp] = known[stamp]
    return str(known[stamp])


def _read_version(lang: Language) -> str:
    env = {"PATH": SANDBOX_PATH, "HOME": os.environ.get("HOME", "/tmp"), "LC_ALL": "C.UTF-8"}
    try:
        done = subprocess.run(
            list(lang.version), capture_output=True, timeout=VERSION_TIMEOUT_S, env=env, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unknown ({type(exc).__name__})"
    text = (done.stdout + b"\n" + done.stderr).decode("utf-8", "replace")
    noise = ("warning", "picked up")  # JVM chatter before the version line
    lines = [
        ln.strip()
        for ln in text.splitlines()
        if ln.strip() and not any(word in ln.lower() for word in noise)
    ]
    return lines[0][:120] if lines else "unknown"
