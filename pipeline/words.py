"""Words that every layer writes to people the same way (the command line, the import's
messages, the dashboard)."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """The count with its noun, singular or plural: "1 warning", "3 warnings"."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"
