"""Small helpers for the sentences the analyzer writes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (fractions and decimal load with the first percentage)
    from fractions import Fraction


def either(names: Sequence[str], empty: str = "nobody") -> str:
    """``Anna``, ``Anna or Ben``, ``Anna, Ben or Cara``."""
    if not names:
        return empty
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} or {names[-1]}"


def all_of(names: Sequence[str]) -> str:
    """``Anna``, ``Anna and Ben``, ``Anna, Ben and Cara``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def percent(f: Fraction) -> str:
    """Odds as every text gives them, a percentage to one decimal: ``33.3%``. ``0%`` and
    ``100%`` only when exact; ``<0.1%`` and ``>99.9%`` near them (the fraction is in the JSON)."""
    from fractions import Fraction

    if f == 0 or f == 1:
        return f"{int(f) * 100}%"
    if f < Fraction(1, 2000):
        return "<0.1%"
    if f > Fraction(1999, 2000):
        return ">99.9%"
    return f"{float(f) * 100:.1f}%"


def seen_by(view: str) -> str:
    """Who sees a view, as a sentence names them: ``the public`` or the player."""
    return "the public" if view == "public" else view
