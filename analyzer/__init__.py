"""halfsuit: exact deduction for recorded games of Literature / Fish.

The public API, in one namespace (each name is documented with an example in ``analyzer.api``
and ``analyzer.tables``)::

    >>> from analyzer import load, replay, holders, odds, mistakes
    >>> game = replay(load("sample_logs/lockout.fish"))
    >>> holders(game, 11)[parse_card("7S")]
    ('Eli',)

Names whose module loads numpy, polars or matplotlib are imported on first use, so
``import analyzer`` stays light.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .analysis import Analysis
    from .api import (
        Card,
        Game,
        Record,
        advice,
        analyze,
        batch,
        claims,
        dumps,
        holders,
        load,
        loads,
        lockouts,
        mistakes,
        odds,
        parse_card,
        position,
        replay,
        report,
        threats,
    )
    from .errors import Contradiction, HalfsuitError, RecordSyntaxError, RuleBreak, UsageError
    from .knowledge import PUBLIC, Position
    from .odds import Odds, TooLarge
    from .solver import NoFit
    from .tables import events_table, holders_table, odds_table, players_table

__version__ = "0.1.0"

__all__ = [
    "PUBLIC",
    "Analysis",
    "Card",
    "Contradiction",
    "Game",
    "HalfsuitError",
    "NoFit",
    "Odds",
    "Position",
    "Record",
    "RecordSyntaxError",
    "RuleBreak",
    "TooLarge",
    "UsageError",
    "advice",
    "analyze",
    "batch",
    "claims",
    "dumps",
    "events_table",
    "holders",
    "holders_table",
    "load",
    "loads",
    "lockouts",
    "mistakes",
    "odds",
    "odds_table",
    "parse_card",
    "players_table",
    "position",
    "replay",
    "report",
    "threats",
    # Explanations of each deduction join these when the explanation engine lands.
]

# Every name is loaded on first use (``import analyzer.record`` loads nothing more): the module
# that defines each, where it is not the API's own module.
_MODULES = {
    "analyzer.analysis": ("Analysis",),
    "analyzer.errors": ("Contradiction", "HalfsuitError", "RecordSyntaxError", "RuleBreak", "UsageError"),
    "analyzer.knowledge": ("PUBLIC", "Position"),
    "analyzer.odds": ("Odds", "TooLarge"),
    "analyzer.solver": ("NoFit",),
    "analyzer.tables": ("events_table", "holders_table", "odds_table", "players_table"),
}
_FROM = {name: "analyzer.api" for name in __all__} | {n: m for m, names in _MODULES.items() for n in names}


def __getattr__(name: str) -> Any:
    if name in _FROM:
        value = getattr(importlib.import_module(_FROM[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """Keeps the API's functions ``replay``, ``odds``, ``advice``, ``report`` and ``batch`` under
    their names: importing the module of the same name would otherwise bind the package's
    attribute to the module. ``from analyzer.odds import card_odds`` and
    ``importlib.import_module("analyzer.odds")`` still reach the modules."""

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, types.ModuleType) and _FROM.get(name) == "analyzer.api":
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
