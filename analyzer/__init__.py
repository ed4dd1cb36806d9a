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
from .solver import NoFit

if TYPE_CHECKING:
    from .odds import Odds, TooLarge
    from .tables import events_table, holders_table, odds_table, players_table

__version__ = "0.1.0"

# Loaded on first use: name -> the module that defines it.
_LAZY = {
    "Odds": "analyzer.odds",
    "TooLarge": "analyzer.odds",
    "holders_table": "analyzer.tables",
    "odds_table": "analyzer.tables",
    "events_table": "analyzer.tables",
    "players_table": "analyzer.tables",
}

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
    # Explanations of each deduction join this list when the explanation engine lands.
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """Keeps the API's functions under their names when a module of the same name (``replay``,
    ``odds``, ``advice``, ``report``, ``batch``) is first imported: importing a submodule would
    otherwise rebind the package's attribute to it. ``from analyzer.odds import card_odds`` and
    ``importlib.import_module("analyzer.odds")`` still reach the modules."""

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, types.ModuleType) and callable(self.__dict__.get(name)):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
