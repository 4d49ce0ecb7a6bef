"""Shared fixtures. Nothing here starts Ray unless a test asks for it."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture
def golden_dir() -> Path:
    """../shared/golden, as laid beside the checkout for sessions and CI."""
    path = SHARED / "golden"
    if not path.is_dir():
        pytest.skip(f"golden corpus not found at {path} (../shared is absent)")
    return path
