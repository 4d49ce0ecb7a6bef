"""The example programs of the source checkout (datasets/examples/PROBLEM/): the demo
grades them, `export` ships them in a package, `strength` adds the wrong ones to its
population. Each file's name says its expected verdict (`correct*`: accepted)."""

from __future__ import annotations

from pathlib import Path

EXAMPLE_SUFFIXES = (".c", ".cpp", ".cc", ".cxx", ".py")


def examples_dir() -> Path | None:
    """datasets/examples of the source checkout this package runs from; None outside one."""
    path = Path(__file__).resolve().parents[2] / "datasets" / "examples"
    return path if path.is_dir() else None


def example_files(problem: str) -> list[Path]:
    """The bundled examples of `problem`, sorted by file name (none outside a checkout)."""
    root = examples_dir()
    folder = root / problem if root is not None else None
    if folder is None or not folder.is_dir():
        return []
    return [p for p in sorted(folder.iterdir()) if p.suffix in EXAMPLE_SUFFIXES and p.is_file()]


def is_correct(example: Path) -> bool:
    return example.stem.startswith("correct")
