"""What a mistake costs, measured on played games (tournament records, or any records with hands).

For every mistake ``tactics.mistakes`` finds that concerns a book, the book's fate decides the
cost: whether the mistaken player's team lost it (the opponents scored it, or it was forfeited)
and the points the team did not get from it. Per kind: how often, the sample size, the share of
books lost and the average points lost. The baseline is the same for every book a team could
have scored in those games, so a kind's loss rate can be read against it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .analysis import analyze
from .errors import HalfsuitError
from .record import load
from .replay import replay
from .tactics import KINDS, mistakes

BASELINE = "every book"


@dataclass
class KindCost:
    kind: str
    mistakes: int = 0
    lost: int = 0
    points_lost: int = 0
    points_lost_sq: int = 0

    @property
    def lost_rate(self) -> float:
        return self.lost / self.mistakes if self.mistakes else 0.0

    @property
    def points(self) -> float:
        """Average points the team did not get from the book concerned."""
        return self.points_lost / self.mistakes if self.mistakes else 0.0

    @property
    def points_error(self) -> float:
        """The standard error of ``points``."""
        n = self.mistakes
        if n < 2:
            return 0.0
        var = (self.points_lost_sq - n * self.points**2) / (n - 1)
        return math.sqrt(max(0.0, var) / n)

    def add(self, lost: bool, points: int) -> None:
        self.mistakes += 1
        self.lost += lost
        self.points_lost += points
        self.points_lost_sq += points * points

    def merge(self, other: KindCost) -> None:
        self.mistakes += other.mistakes
        self.lost += other.lost
        self.points_lost += other.points_lost
        self.points_lost_sq += other.points_lost_sq

    def to_dict(self) -> dict[str, object]:
        from .tournament import wilson

        low, high = wilson(self.lost, self.mistakes)
        return {
            "kind": self.kind,
            "n": self.mistakes,
            "lost": self.lost,
            "lost_rate": round(self.lost_rate, 4),
            "lost_ci95": [round(low, 4), round(high, 4)],
            "points_lost": round(self.points, 3),
            "points_lost_se": round(self.points_error, 3),
        }


def record_costs(path: str | Path) -> dict[str, KindCost]:
    """The costs of one record's mistakes, by kind, and the baseline over every book."""
    game = replay(load(path))
    table = game.record.table
    rules = game.record.rules
    found = mistakes(analyze(game))
    costs = {k: KindCost(k) for k in (*KINDS, BASELINE)}
    books = {b.name: b for b in rules.deck.books}
    for m in found.mistakes:
        if m.book is None or m.book not in books or m.book not in game.final.books:
            continue
        team = table.team_of(m.player)
        result = game.final.books[m.book]
        lost = result.team != team
        costs[m.kind].add(lost, rules.points(books[m.book]) if lost else 0)
    for result in game.final.books.values():
        for team in (1, 2):
            lost = result.team != team
            costs[BASELINE].add(lost, rules.points(result.book) if lost else 0)
    return costs


def _costs_or_error(path: str) -> dict[str, KindCost] | str:
    """A record's costs, or the error that keeps it out (``FILE:LINE: message``)."""
    try:
        return record_costs(path)
    except HalfsuitError as exc:
        return str(exc)


def measure(
    paths: Sequence[str | Path],
    workers: int = 1,
    each: Callable[[object], None] | None = None,
    skipped: list[str] | None = None,
) -> list[KindCost]:
    """Costs per mistake kind over many records (worker processes with ``workers > 1``).

    A record that cannot be read or replayed is left out, its error added to ``skipped``.
    """
    from .pool import process_map

    total = {k: KindCost(k) for k in (*KINDS, BASELINE)}
    for costs in process_map(_costs_or_error, [str(p) for p in paths], workers, each):
        if isinstance(costs, str):
            if skipped is not None:
                skipped.append(costs)
            continue
        for k, c in costs.items():
            total[k].merge(c)
    return [total[k] for k in (*KINDS, BASELINE) if total[k].mistakes or k == BASELINE]


def cost_table(costs: Iterable[KindCost]) -> list[dict[str, object]]:
    return [c.to_dict() for c in costs]


# Measured with ``halfsuit mistake-costs`` on tournament records (README, "The cost of a mistake"):
# kind -> (mistakes, books lost, points lost). Standard books are worth one point each there.
# 300 games of the counter-vs-simple tournament (the first 300 records by name, seeds 0-...).
MEASURED_ON = "{records} games between the counter and simple bots"
MEASURED: dict[str, tuple[int, int, int]] = {
    "missed-claim": (56, 56, 56),
    "wrong-claim": (120, 120, 120),
    "broken-lockout": (1773, 1249, 1249),
    "hopeless-ask": (1570, 637, 637),
    BASELINE: (4800, 2507, 2507),
}
MEASURED_RECORDS = 300


def measured_text(kind: str) -> str | None:
    """What the report quotes for a kind of mistake: how often it lost the book in measured games."""
    if kind not in MEASURED or kind == BASELINE:
        return None
    n, lost, points = MEASURED[kind]
    base_n, base_lost, _ = MEASURED[BASELINE]
    from .tournament import wilson

    low, high = wilson(lost, n)
    on = MEASURED_ON.format(records=f"{MEASURED_RECORDS:,}")
    return (
        f"Measured over {n:,} mistakes of this kind in {on}: the team lost the book concerned "
        f"{lost / n:.0%} of the time (95% interval {low:.0%}–{high:.0%}), {points / n:.2f} points on average; "
        f"any book is lost {base_lost / base_n:.0%} of the time."
    )
