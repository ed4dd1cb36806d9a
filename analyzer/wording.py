"""Small helpers for the sentences the analyzer writes."""

from __future__ import annotations

from collections.abc import Sequence


def either(names: Sequence[str], empty: str = "nobody") -> str:
    """``Anna``, ``Anna or Ben``, ``Anna, Ben or Cara``."""
    if not names:
        return empty
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} or {names[-1]}"


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}{'' if n == 1 else 's'}"
