"""How an engine's name appears in the names of its log files."""

from __future__ import annotations


def file_safe(name: str) -> str:
    """``name`` with what a file name should not hold replaced, cut to 40 characters."""
    return "".join(char if char.isalnum() or char in "-_." else "_" for char in name)[:40] or "engine"
