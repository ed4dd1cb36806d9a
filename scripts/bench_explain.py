"""How fast ``who-has`` explains a card, and how big the explanations are.

For every view (public and each Hand line) at every step of the shared 6-player records
(``tests/data/shared/g2*.fish``), and every card in play, it times what ``who-has CARD`` does
beyond reading the record: the view's explainer at that step (position, exact solve, facts,
chains) plus the explanations of every player the card's holders leave out (or the holder).
The explainer is built once per view and step and its time added to each card's, which is what
a separate ``who-has`` call per card would spend.

    python scripts/bench_explain.py [RECORD ...]

Prints the median and worst time per card, the median facts and steps per explanation, and
the largest counting step (cards + players).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from analyzer import record as fish
from analyzer.analysis import hand_views
from analyzer.explain import Explainer
from analyzer.knowledge import ViewTracker
from analyzer.replay import replay

SHARED = Path(__file__).resolve().parent.parent / "tests" / "data" / "shared"


def main(paths: list[Path]) -> None:
    per_card: list[float] = []
    facts: list[int] = []
    steps: list[int] = []
    largest = (0, "")
    worst = (0.0, "")
    counting = 0
    reducible = 0
    for path in paths:
        game = replay(fish.load(path))
        if len(game.record.players) != 6:
            continue
        for view in hand_views(game):
            tracker = ViewTracker(game, view)
            for at in range(len(game.events) + 1):
                t0 = time.perf_counter()
                ex = Explainer(tracker, at)
                built = time.perf_counter() - t0
                for card in ex.cards:
                    t1 = time.perf_counter()
                    found = ex.card(card)
                    spent = built + time.perf_counter() - t1
                    per_card.append(spent)
                    if spent > worst[0]:
                        worst = (spent, f"{path.name} as {view} at {at}, {card.code}")
                    reducible += ex.reducible
                    ex.reducible = 0
                    for e in found.values():
                        facts.append(len(e.facts))
                        steps.append(len(e.steps))
                        counting += any(s.counting is not None for s in e.steps)
                        for s in e.steps:
                            if s.counting is not None:
                                size = len(s.counting.cards) + len(s.counting.players)
                                if size > largest[0]:
                                    where = f"{path.name} as {view} at {at}"
                                    largest = (
                                        size,
                                        f"{len(s.counting.cards)} cards, {len(s.counting.players)} players ({where})",
                                    )
    if not per_card:
        sys.exit("no 6-player records to measure")
    ms = sorted(x * 1000 for x in per_card)
    print(f"cards explained: {len(ms)} (explanations: {len(facts)})")
    print(
        f"per card: median {statistics.median(ms):.1f} ms, 95th {ms[int(len(ms) * 0.95)]:.1f} ms, worst {ms[-1]:.1f} ms"
    )
    print(f"worst: {worst[1]}")
    print(f"per explanation: median {statistics.median(facts):g} facts, {statistics.median(steps):g} steps")
    chained = [(f, s) for f, s in zip(facts, steps, strict=True) if s > 1]
    print(
        f"with more than one step ({len(chained)}): median {statistics.median(f for f, _ in chained):g} facts, "
        f"{statistics.median(s for _, s in chained):g} steps, at most {max(f for f, _ in chained)} facts and "
        f"{max(s for _, s in chained)} steps"
    )
    print(f"with a counting step: {counting}; kept with a fact that could be left out: {reducible}")
    print(f"largest counting step: {largest[1]}")


if __name__ == "__main__":
    args = [Path(a) for a in sys.argv[1:]] or sorted(SHARED.glob("g2*.fish"))
    main(args)
