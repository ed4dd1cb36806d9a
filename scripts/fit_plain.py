"""Fit the law of the book-by-book count with its plainest plan (``Routes.plain_scale``,
``plain_power``, ``plain_growth``), and replay the rule that takes such a count at once
(``Routes.plain_quick_ns``) on the views measured.

    python scripts/fit_plain.py [--every 4] [--cache build/fit_plain.json] [--fit-only]

The views: each whole probing game of seed 0 (8 players: standard, jokers, ranks, standard under
must-declare), every ``--every``-th view, and every view of the probing openings of seed 0 (6 and
8 players, every variant). On each it times, the better of two calls each (processor time):

- ``now``: ``card_ways`` as the router counts it without the rule (``plain_quick_ns=0``; the
  search for a cheaper plan as the router makes it now), planning included (a view past the
  budget is left out);
- ``plain``: the plainest plan made and counted (``BookCount.plain``, ``take_plain``), where the
  book-by-book law puts it under 400 ms;

and records the plan's cost and the cards whose holder is not known. The law is least squares
on the logarithms (``log ns = a + b log cost + c unknown``). Then, per group, it prints the median
and worst view without and with the rule for a few thresholds, by the defaults' law and by the
law just fitted: a view the rule takes at once counts its plainest plan's time, any other its
``now``. The measurements are cached in ``--cache``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_odds import cached, probing_views, warm_up  # noqa: E402

from analyzer.knowledge import Position  # noqa: E402
from analyzer.odds import Routes, TooLarge, card_ways  # noqa: E402
from analyzer.odds.books import BookCount  # noqa: E402
from analyzer.odds.routes import DEFAULT  # noqa: E402

CACHE = ROOT / "build" / "fit_plain.json"
THRESHOLDS_MS = (10, 15, 20)
BEFORE = Routes(plain_quick_ns=0)  # (the router without the rule, which the replay puts back)


def best_ms(run: Callable[[], object]) -> float:
    best = math.inf
    for _ in range(2):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best * 1e3


def counted_plain(pos: Position) -> None:
    books = BookCount(pos)
    if books.plain_cost is None:
        raise ValueError("the plainest plan does not fit")
    books.take_plain()
    books.run(True)


def measure(every: int) -> list[dict[str, Any]]:
    whole = probing_views(1, "8p", whole=True)
    views = [(f"{label}, whole", name, pos) for i, (label, name, pos) in enumerate(whole) if i % every == 0]
    views += [(f"{label}, opening", name, pos) for label, name, pos in probing_views(1, "p")]
    warm_up(views)
    rows: list[dict[str, Any]] = []
    for label, name, pos in views:
        row: dict[str, Any] = {"group": label, "view": name}
        try:
            row["now"] = best_ms(partial(card_ways, pos, BEFORE))
        except TooLarge:  # (past the budget: no time to replay)
            continue
        books = BookCount(pos)
        cost = books.plain_cost
        if cost is not None and books.plain is not None:
            row.update(cost=cost, unknown=len(pos.allowed))
            if DEFAULT.likely_books_ns(cost) < 400e6:
                row["plain"] = best_ms(partial(counted_plain, pos))
        rows.append(row)
    return rows


def fit(rows: list[dict[str, Any]]) -> tuple[float, float, float]:
    timed = [r for r in rows if "plain" in r]
    a = np.array([[1.0, math.log(max(1, r["cost"])), r["unknown"]] for r in timed])
    t = np.log([r["plain"] * 1e6 for r in timed])
    (scale, power, growth), *_ = np.linalg.lstsq(a, t, rcond=None)
    spread = np.exp(np.percentile(t - a @ np.array([scale, power, growth]), [10, 90]))
    print(f"{len(timed)} views: {math.exp(scale):,.1f} * cost ** {power:.4f} * {math.exp(growth):.4f} ** unknown ns;")
    print(f"  four views in five within {spread[0]:.2f} to {spread[1]:.2f} times the law")
    return math.exp(scale), float(power), math.exp(growth)


def replay_rule(rows: list[dict[str, Any]], routes: Routes) -> None:
    groups = sorted({str(r["group"]) for r in rows})
    for quick in THRESHOLDS_MS:
        rule = routes
        print(f"taken at once when likely under {quick} ms:")
        for g in groups:
            mine = [r for r in rows if r["group"] == g]
            before = [r["now"] for r in mine]
            after = []
            for r in mine:
                taken = "plain" in r and rule.likely_plain_ns(r["cost"], r["unknown"]) <= quick * 1e6
                after.append(r["plain"] if taken else r["now"])
            print(
                f"  {g:<28} {len(mine):>4} views  median {statistics.median(before):6.1f}"
                f" -> {statistics.median(after):6.1f} ms  worst {max(before):6.0f} -> {max(after):6.0f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--every", type=int, default=4, help="whole games: every N-th view")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the measurements are kept")
    parser.add_argument("--fit-only", action="store_true", help="fit the cached measurements, measure nothing")
    args = parser.parse_args()
    rows = cached(args.cache, args.fit_only, partial(measure, args.every))
    scale, power, growth = fit(rows)
    d = DEFAULT
    law = f"{d.plain_scale:,.1f} * cost ** {d.plain_power} * {d.plain_growth} ** unknown"
    print(f"the rule replayed with the defaults' law, {law}:")
    replay_rule(rows, DEFAULT)
    print("... and with the law fitted here:")
    replay_rule(rows, Routes(plain_scale=scale, plain_power=power, plain_growth=growth))


if __name__ == "__main__":
    main()
