"""Languages as plugins (entry-point group "gridjudge.languages"): the contract, the
registry and the built-in families (native, jvm, scripting)."""

from pipeline.program.languages.contract import BuildFailure, Language, SelfTest
from pipeline.program.languages.registry import (
    LanguageError,
    all_languages,
    for_extension,
    get_language,
    is_language,
    missing,
    toolchain_version,
)

__all__ = [
    "BuildFailure",
    "Language",
    "LanguageError",
    "SelfTest",
    "all_languages",
    "for_extension",
    "get_language",
    "is_language",
    "missing",
    "toolchain_version",
]
