"""Words that every layer writes to people the same way (the command line, the import's
messages, the dashboard)."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """The count with its noun, singular or plural: "1 warning", "3 warnings", "2 summaries"
    (the last word takes the plural)."""
    if count == 1:
        return f"{count:,} {noun}"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "o", "u"):
        return f"{count:,} {noun[:-1]}ies"
    return f"{count:,} {noun}s"
