"""Measure the three ways of counting on the views the router weighs, and replay its choice on
them with and without the rule that takes the plainest book-by-book count where the fold is
likely much slower (``Routes.plain_beats_folds``: ``plain_sure_ns``, ``plain_over_folds``,
``folds_floor_ns``).

    python scripts/replay_router.py [--every 4] [--open-every 1] [--cache build/replay_router.json] [--replay-only]

The views: the whole probing games of seed 0 (6 and 8 players, every variant), every ``--every``-th
view, and the probing openings of seed 0, every ``--open-every``-th view; of those, the ones the
router weighs: not taken at once (``Routes.plain_is_quick``), their plainest plan within the memory
bound. On each it times, the better of two calls where the first takes at most 400 ms (processor
time):

- ``folds``: the count folding players, planned and run (``Routes(counter=Counter.FOLDS)``);
- ``books``: the book-by-book count with the plan searched (``Routes(counter=Counter.BOOKS)``);
- ``plain``: the plainest book-by-book plan made and run, where its law puts it under 2 s;

and records the plans' costs, the cards whose holder is not known, and how long planning the fold
and searching the book-by-book plan took. Then, per group, it replays the router on the recorded
costs (``Routes.weigh``, ``plain_will_do`` and ``plain_beats_folds``, as ``odds._counter`` calls
them) for the rule off and for a grid of its three constants: a view's time is the measured time of
the counter chosen, plus the planning it weighed and did not use (the fold's plan, the search; not
the walk's board, about 2 ms where the router makes it). Views where some router chooses a counter
that was not timed (past 2 s by its law, or past the memory bound) are left out, and counted. It
prints the total, median and worst of each, the views over 250 ms, and the quickest counter's.
The measurements are cached in ``--cache``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_odds import cached, probing_views, warm_up  # noqa: E402
from fit_plain import counted_plain  # noqa: E402

from analyzer.knowledge import Position  # noqa: E402
from analyzer.odds import Counter, Routes, TooLarge, card_ways  # noqa: E402
from analyzer.odds.books import BookCount  # noqa: E402
from analyzer.odds.folds import FoldCount  # noqa: E402
from analyzer.odds.routes import DEFAULT  # noqa: E402

CACHE = ROOT / "build" / "replay_router.json"
COUNTERS = ("folds", "books", "plain")
OFF = replace(DEFAULT, plain_over_folds=math.inf)  # (the rule never holds)
SURE_MS = (60, 80, 100, 150)
FLOOR_MS = (0, 10, 20, 30)
OVER = (1.5, 2.0, 2.5, 3.0)


def best_ms(run: Callable[[], object]) -> float | None:
    """The better of two calls (one when the first takes over 400 ms); None past the budget."""
    best = math.inf
    for _ in range(2):
        start = time.process_time()
        try:
            run()
        except TooLarge:
            return None
        best = min(best, time.process_time() - start)
        if best > 0.4:
            break
    return best * 1e3


def views(every: int, open_every: int) -> list[tuple[str, str, Position]]:
    out = []
    for only in ("8p", "6p"):
        whole = probing_views(1, only, whole=True)
        out += [(f"{label}, whole", name, pos) for i, (label, name, pos) in enumerate(whole) if i % every == 0]
        opening = probing_views(1, only)
        out += [(f"{label}, opening", name, pos) for i, (label, name, pos) in enumerate(opening) if i % open_every == 0]
    return out


def measure(every: int, open_every: int) -> list[dict[str, Any]]:
    chosen = views(every, open_every)
    warm_up(chosen)
    rows: list[dict[str, Any]] = []
    for group, name, pos in chosen:
        books = BookCount(pos)
        plain = books.plain_cost
        if plain is None or DEFAULT.plain_is_quick(plain, books.unknown):
            continue
        row: dict[str, Any] = {"group": group, "view": name, "plain_cost": plain, "unknown": books.unknown}
        start = time.process_time()
        row["cost"] = books.cost if books.fits else None
        row["search_ms"] = (time.process_time() - start) * 1e3
        start = time.process_time()
        fold = FoldCount(pos, DEFAULT, books.model)
        row["fold_cost"] = fold.cost if fold.fits else None
        row["fold_plan_ms"] = (time.process_time() - start) * 1e3
        row["multiplied_cost"] = fold.multiplied_cost if fold.fits else None
        if row["fold_cost"] is not None:
            row["folds"] = best_ms(partial(card_ways, pos, Routes(counter=Counter.FOLDS)))
        if row["cost"] is not None and DEFAULT.likely_plain_ns(row["cost"], books.unknown) < 2e9:
            row["books"] = best_ms(partial(card_ways, pos, Routes(counter=Counter.BOOKS)))
        if DEFAULT.likely_plain_ns(plain, books.unknown) < 2e9:
            row["plain"] = best_ms(partial(counted_plain, pos))
        rows.append(row)
        print(f"{group:34} {name:24} " + "  ".join(f"{k} {row.get(k) or 0:7.1f}" for k in COUNTERS), flush=True)
    return rows


def replay(row: dict[str, Any], routes: Routes) -> float:
    """The view's time with the counter this router chooses on its recorded costs."""
    spent = 0.0
    planned = searched_plan = plain_taken = False
    plain: int | None = row["plain_cost"]
    fold: int | None = row["fold_cost"]
    cost: int | None = row["cost"]
    multiplied: int | None = row["multiplied_cost"]
    # (as ``odds._counter``: the fold weighed first, and the plainest count taken where it is much quicker)
    likely = routes.likely_folds_ns(fold) if fold is not None else math.inf
    if routes.folds_first(plain) and fold is not None and routes.plain_beats_folds(plain, row["unknown"], likely):
        return float(row.get("plain") or math.inf) + float(row["fold_plan_ms"])

    def folds() -> int | None:
        nonlocal planned
        planned = True
        return fold

    def searched() -> int | None:
        nonlocal searched_plan, plain_taken
        folds_ns = routes.likely_folds_ns(fold) if planned and fold is not None else math.inf
        if routes.plain_will_do(plain, row["unknown"], folds_ns):
            plain_taken = True
            return plain
        searched_plan = True
        return cost

    choice, _ = routes.weigh(
        searched,
        lambda: 1 << 62,  # (the walk, never the quickest on these views)
        folds,
        plain,
        lambda: multiplied,
    )
    if choice is Counter.FOLDS:
        spent += row.get("folds") or math.inf
        spent += row["search_ms"] if searched_plan else 0.0
    else:
        spent += (row.get("plain") if plain_taken else row.get("books")) or math.inf
        spent += row["fold_plan_ms"] if planned else 0.0
    return spent


def summed(times: list[float]) -> str:
    return f"{sum(times) / 1e3:8.1f} s {sum(t > 250 for t in times):4d} over 250 ms"


def report(rows: list[dict[str, Any]], routers: dict[str, Routes]) -> None:
    groups = sorted({str(r["group"]) for r in rows})
    names = [*routers, "quickest"]
    print(f"{'':34}" + "".join(f"{n:>30}" for n in names))
    print(f"{'':34}" + "".join(f"{'total s  median  worst  >250':>30}" for _ in names))
    for g in groups:
        mine = [r for r in rows if r["group"] == g]
        cells = []
        for name in names:
            if name == "quickest":
                times = [min(r.get(k) or math.inf for k in COUNTERS) for r in mine]
            else:
                times = [replay(r, routers[name]) for r in mine]
            over = sum(t > 250 for t in times)
            cells.append(f"{sum(times) / 1e3:8.1f} {statistics.median(times):7.1f} {max(times):6.0f} {over:5d}")
        print(f"{g:34}" + "".join(f"{c:>30}" for c in cells) + f"   ({len(mine)} views)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--every", type=int, default=4, help="whole games: every N-th view")
    parser.add_argument("--open-every", type=int, default=1, help="openings: every N-th view")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the measurements are kept")
    parser.add_argument("--replay-only", action="store_true", help="replay on the cached measurements alone")
    args = parser.parse_args()
    rows = cached(args.cache, args.replay_only, partial(measure, args.every, args.open_every))
    grid = [replace(DEFAULT, folds_floor_ns=f * 10**6, plain_over_folds=o) for f in FLOOR_MS for o in OVER]
    grid += [replace(DEFAULT, plain_sure_ns=sure * 10**6) for sure in SURE_MS]
    timed = [r for r in rows if all(math.isfinite(replay(r, routes)) for routes in [OFF, DEFAULT, *grid])]
    print(f"{len(rows)} views measured; {len(rows) - len(timed)} left out, a counter chosen there not timed")
    rows = timed
    print("The router on the views measured: the rule off, and with the defaults:")
    report(rows, {"rule off": OFF, "defaults": DEFAULT})
    print("The rule's constants, every view summed: folds_floor_ns (ms) x plain_over_folds,")
    print(f"at plain_sure_ns {DEFAULT.plain_sure_ns // 10**6} ms:")
    print(f"{'':>10}" + "".join(f"{'x ' + str(k):>26}" for k in OVER))
    for floor in FLOOR_MS:
        cells = []
        for over in OVER:
            routes = replace(DEFAULT, folds_floor_ns=floor * 10**6, plain_over_folds=over)
            cells.append(summed([replay(r, routes) for r in rows]))
        print(f"{str(floor) + ' ms':>10}" + "".join(f"{c:>26}" for c in cells))
    print("plain_sure_ns (ms), the others the defaults':")
    for sure in SURE_MS:
        routes = replace(DEFAULT, plain_sure_ns=sure * 10**6)
        print(f"{str(sure) + ' ms':>10}" + f"{summed([replay(r, routes) for r in rows]):>26}")
    print(f"{'rule off':>10}" + f"{summed([replay(r, OFF) for r in rows]):>26}")


if __name__ == "__main__":
    main()
