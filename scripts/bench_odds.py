"""Time the exact odds on every step of every view of the shared simulated records, or of a
corpus of probing games (their openings, or with ``--whole`` the whole games).

    python scripts/bench_odds.py [--step N] [--runs N] [--no-plain]
    python scripts/bench_odds.py --corpus probing [--seeds N] [--whole] [--runs N]

The probing corpus: games simulated with ``--style probing`` (each player probes a book of its
own for two rounds, most asks fail), 6 and 8 players, the standard, jokers and ranks decks, and
the standard deck under house must-declare; every view (public and each hand) at every step of
the opening (three asks per player), or with ``--whole`` of the whole game. It prints per group
the views, the median, 99th percentile and worst milliseconds of processor time of one
``card_odds`` call (``time.process_time``: on a machine shared with other work, wall time
measures the load more than the count), the worst peak of memory one view allocated
(``tracemalloc``, in a second sweep, so it does not slow the first), and the slowest views;
then the 99th percentile and worst of the wall time (what a user waits for: a big count's runs
go on several threads, ``HALFSUIT_THREADS``, for some more processor time). With
``--runs N``, each view's time is the least of N sweeps, each in a fresh process.

Prints, for the 6-player and the 8-player records apart, how many views were timed, the
maximum, 99th and 90th percentile and median milliseconds (of processor time) of one
``card_odds`` call, how many views took over 100 ms, and the slowest views. The views are swept
in order, as a report does, ``--runs`` times in fresh processes, and each view's least time
counts: this machine's timings wander by a quarter from run to run. Then it times the straightforward count
(``tests/odds_oracle.plain_count``: card by card over the vector of free slots, in Python ints,
no merging) against ``count_deals`` and ``card_odds`` on early 6-player views. Timings are the
best of ``--repeat`` runs, on whatever else the machine is doing: compare figures from the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer import knowledge, record  # noqa: E402
from analyzer.cards import DeckKind  # noqa: E402
from analyzer.knowledge import PUBLIC, Position  # noqa: E402
from analyzer.odds import TooLarge, card_odds, count_deals, keep_freed_memory, parallel  # noqa: E402
from analyzer.replay import replay  # noqa: E402
from analyzer.rules import HouseRule  # noqa: E402
from analyzer.simulate import Style, simulate  # noqa: E402
from tests.odds_oracle import plain_count  # noqa: E402

SHARED = ROOT / "tests" / "data" / "shared"
# Early 6-player views for the straightforward count: (record, view, step).
PLAIN = [("g201.fish", PUBLIC, 0), ("g201.fish", "Anna", 2), ("g201.fish", PUBLIC, 3), ("g203.fish", PUBLIC, 4)]


def best_ms(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best * 1000


def timings(step: int, repeat: int) -> list[tuple[int, str, float]]:
    """(players, view, ms) for every view, in the order a report meets them."""
    out = []
    for path in sorted(SHARED.glob("g2*.fish")):
        game = replay(record.load(path))
        for view in [PUBLIC, *game.record.hands]:
            for at in range(0, len(game.record.events) + 1, step):
                pos = knowledge.position(game, at, view)
                out.append((len(pos.players), f"{path.name} {view} @{at}", best_ms(partial(card_odds, pos), repeat)))
    return out


def sweep(step: int, repeat: int, runs: int) -> None:
    """Each view's time is the least over ``runs`` sweeps, each in a fresh process (so every view
    is met as it is in one sweep: the counter's caches warm from the steps before only)."""
    least: dict[str, tuple[int, float]] = {}
    for _ in range(runs):
        command = [sys.executable, __file__, "--emit", "--step", str(step), "--repeat", str(repeat)]
        for size, where, ms in json.loads(subprocess.run(command, capture_output=True, check=True, text=True).stdout):
            least[where] = (size, min(ms, least.get(where, (size, ms))[1]))
    by_size: dict[int, list[tuple[float, str]]] = {}
    for where, (size, ms) in least.items():
        by_size.setdefault(size, []).append((ms, where))
    print(f"card_odds, one view (ms; the least of {runs} runs)")
    print(f"{'players':>8} {'views':>6} {'max':>8} {'p99':>8} {'p90':>8} {'median':>8} {'>100ms':>7}  slowest")
    for size, rows in sorted(by_size.items()):
        times = sorted(ms for ms, _ in rows)
        p90, p99 = (times[int(q * (len(times) - 1))] for q in (0.9, 0.99))
        over = sum(1 for ms in times if ms > 100)
        worst = ", ".join(f"{where} {ms:.0f}" for ms, where in sorted(rows, reverse=True)[:3])
        print(
            f"{size:>8} {len(rows):>6} {times[-1]:>8.1f} {p99:>8.1f} {p90:>8.1f} "
            f"{statistics.median(times):>8.1f} {over:>7}  {worst}"
        )


def plain(repeat: int) -> None:
    print("\nstraightforward count against count_deals and card_odds, early 6-player views")
    print(f"{'view':<24} {'deals':>42} {'plain ms':>10} {'count ms':>9} {'odds ms':>8} {'plain/count':>12}")
    for name, view, at in PLAIN:
        pos: Position = knowledge.position(replay(record.load(SHARED / name)), at, view)
        start = time.process_time()
        deals = plain_count(pos)
        slow = (time.process_time() - start) * 1000
        assert deals == count_deals(pos)
        fast = best_ms(partial(count_deals, pos), repeat)
        odds = best_ms(partial(card_odds, pos), repeat)
        print(f"{f'{name} {view} @{at}':<24} {deals:>42} {slow:>10.0f} {fast:>9.1f} {odds:>8.1f} {slow / fast:>11.0f}x")


# The probing corpus: (label, players, deck, house rules).
PROBING = [
    (f"{players}p {deck.value}{' must-declare' if house else ''}", players, deck, house)
    for players in (6, 8)
    for deck, house in (
        (DeckKind.STANDARD, frozenset()),
        (DeckKind.JOKERS, frozenset()),
        (DeckKind.RANKS, frozenset()),
        (DeckKind.STANDARD, frozenset({HouseRule.MUST_DECLARE})),
    )
]


def probing_groups(only: str) -> list[tuple[str, int, DeckKind, frozenset[HouseRule]]]:
    """The groups of the probing corpus named ``only`` (all whose label contains it when none
    is named so exactly)."""
    exact = [group for group in PROBING if group[0] == only]
    return exact or [group for group in PROBING if only in group[0]]


def probing_views(seeds: int, only: str, whole: bool = False) -> list[tuple[str, str, Position]]:
    """(group, view name, position) for every view at every step of each probing opening (of
    the groups ``probing_groups`` selects), or with ``whole`` of each whole game."""
    out = []
    for label, players, deck, house in probing_groups(only):
        for seed in range(seeds):
            rec = simulate(players=players, deck=deck, house=house, seed=seed, style=Style.PROBING)
            game = replay(rec)
            last = len(rec.events) if whole else min(len(rec.events), 3 * players)
            trackers = {view: knowledge.ViewTracker(game, view) for view in [PUBLIC, *rec.hands]}
            for at in range(last + 1):
                for view, tracker in trackers.items():
                    out.append((label, f"seed {seed} {view} @{at}", tracker.position(at)))
    return out


def cached(cache: Path, reuse: bool, measure: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The rows kept in ``cache`` when ``reuse``; else rows measured now (glibc keeping freed
    memory, as the command line does), kept there for the next time."""
    if reuse:
        rows: list[dict[str, Any]] = json.loads(cache.read_text())
        return rows
    keep_freed_memory()
    rows = measure()
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(rows))
    return rows


def warm_up(views: list[tuple[str, str, Position]]) -> None:
    """Start-up (numpy's first calls, the factorial tables) is not any view's time or memory."""
    if views:
        with contextlib.suppress(TooLarge):
            card_odds(views[0][2])


def probing_times(
    views: list[tuple[str, str, Position]],
) -> tuple[dict[str, list[tuple[float, float, str]]], dict[str, int]]:
    """One sweep of these views (``probing_views``): per group, each view's milliseconds of
    processor time and of wall time, and its name, and how many views were not counted
    (``TooLarge``)."""
    warm_up(views)
    # The views held for the sweep are no garbage: a full collection scanning them all (some
    # 200 ms with the whole games of every group held) would be the time of whichever view
    # triggered it. Isolated, such views took 3 to 13 ms.
    gc.collect()
    gc.freeze()
    rows: dict[str, list[tuple[float, float, str]]] = {}
    too_large: dict[str, int] = {}
    for group, where, pos in views:
        start, wall = time.process_time(), time.perf_counter()
        try:
            card_odds(pos)
        except TooLarge:
            too_large[group] = too_large.get(group, 0) + 1
        ms, wall_ms = (time.process_time() - start) * 1000, (time.perf_counter() - wall) * 1000
        rows.setdefault(group, []).append((ms, wall_ms, where))
    gc.unfreeze()
    return rows, too_large


def probing(seeds: int, only: str, dump: str = "", whole: bool = False, runs: int = 1) -> None:
    """Time, then measure the memory of, every view of the probing corpus. With ``runs`` over 1,
    each view's time is the least over that many sweeps, each in a fresh process (as ``sweep``:
    this machine's single timings of one view wander by a fifth or more)."""
    import tracemalloc

    views = probing_views(seeds, only, whole)
    if runs <= 1:
        rows, too_large = probing_times(views)
    else:
        least: dict[tuple[str, str], tuple[float, float]] = {}
        command = [sys.executable, __file__, "--corpus", "probing", "--emit", "--seeds", str(seeds)]
        command += ["--group", only, *(["--whole"] if whole else [])]
        for _ in range(runs):
            out = json.loads(subprocess.run(command, capture_output=True, check=True, text=True).stdout)
            for group, found in out["rows"].items():
                for ms, wall_ms, where in found:
                    before = least.get((group, where), (ms, wall_ms))
                    least[(group, where)] = (min(ms, before[0]), min(wall_ms, before[1]))
            too_large = out["too_large"]
        rows = {}
        for (group, where), (ms, wall_ms) in least.items():
            rows.setdefault(group, []).append((ms, wall_ms, where))
    if dump:
        Path(dump).write_text(json.dumps(rows, indent=0))
    peaks: dict[str, int] = {}
    warm_up(views)  # (with --runs, the sweeps ran in other processes)
    tracemalloc.start()
    for group, _, pos in views:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        with contextlib.suppress(TooLarge):
            card_odds(pos)
        peaks[group] = max(peaks.get(group, 0), tracemalloc.get_traced_memory()[1] - base)
    tracemalloc.stop()
    games = "whole probing games" if whole else "probing openings"
    runs_said = f", the least of {runs} runs" if runs > 1 else ""
    print(f"card_odds on {games}, one view (ms of processor time{runs_said}), seeds 0..{seeds - 1}")
    print(f"wall: the same views' wall time, the count's runs on up to {parallel.threads()} threads")
    print(
        f"{'group':<22} {'views':>6} {'median':>7} {'p99':>7} {'worst':>7} {'peak MiB':>9} {'>250ms':>7} "
        f"{'not counted':>12} {'wall p99':>9} {'worst':>7} {'>250ms':>7}"
    )
    every: list[float] = []
    every_wall: list[float] = []
    for group, found in rows.items():
        times = sorted(ms for ms, _, _ in found)
        walls = sorted(wall_ms for _, wall_ms, _ in found)
        every += times
        every_wall += walls
        print(
            f"{group:<22} {len(times):>6} {statistics.median(times):>7.1f} {_p99(times):>7.1f} {times[-1]:>7.1f} "
            f"{peaks[group] / 2**20:>9.1f} {_over(times):>7} {too_large.get(group, 0):>12} "
            f"{_p99(walls):>9.1f} {walls[-1]:>7.1f} {_over(walls):>7}"
        )
    every.sort()
    every_wall.sort()
    print(
        f"{'all':<22} {len(every):>6} {statistics.median(every):>7.1f} {_p99(every):>7.1f} {every[-1]:>7.1f} "
        f"{max(peaks.values()) / 2**20:>9.1f} {_over(every):>7} {'':>12} {_p99(every_wall):>9.1f} "
        f"{every_wall[-1]:>7.1f} {_over(every_wall):>7}"
    )
    for label, k in (("slowest", 0), ("slowest by the wall", 1)):
        every_row = [(row[k], f"{group} {row[2]}") for group, found in rows.items() for row in found]
        slowest = sorted(every_row, reverse=True)
        print(f"{label}: " + ", ".join(f"{where} {ms:.0f}" for ms, where in slowest[:5]))


def _p99(times: list[float]) -> float:
    """The 99th percentile of sorted times."""
    return times[int(0.99 * (len(times) - 1))]


def _over(times: list[float]) -> int:
    return sum(1 for ms in times if ms > 250)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--step", type=int, default=1, help="time every N-th step only")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs per view")
    parser.add_argument(
        "--runs", type=int, default=0, help="sweeps in fresh processes; each view's least counts (2; probing: 1)"
    )
    parser.add_argument("--no-plain", action="store_true", help="skip the straightforward count")
    parser.add_argument("--emit", action="store_true", help=argparse.SUPPRESS)  # one sweep, as JSON
    parser.add_argument("--corpus", choices=("shared", "probing"), default="shared", help="which views to time")
    parser.add_argument("--seeds", type=int, default=1, help="probing corpus: games per group")
    parser.add_argument("--group", default="", help="probing corpus: only the groups whose name has this")
    parser.add_argument("--dump", default="", help="probing corpus: write every view's time to this JSON file")
    parser.add_argument("--whole", action="store_true", help="probing corpus: every step of the game, not the opening")
    args = parser.parse_args()
    keep_freed_memory()  # as the command line does
    if args.corpus == "probing":
        if args.emit:
            rows, too_large = probing_times(probing_views(args.seeds, args.group, args.whole))
            print(json.dumps({"rows": rows, "too_large": too_large}))
            return
        if not probing_groups(args.group):
            groups = ", ".join(label for label, *_ in PROBING)
            parser.error(f"no probing group has {args.group!r} in its name: {groups}")
        probing(args.seeds, args.group, args.dump, args.whole, args.runs or 1)
        return
    if args.emit:
        print(json.dumps(timings(args.step, args.repeat)))
        return
    sweep(args.step, args.repeat, args.runs or 2)
    if not args.no_plain:
        plain(max(args.repeat, 3))


if __name__ == "__main__":
    main()
