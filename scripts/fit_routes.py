"""Fit the constants of ``Routes`` (which counter counts a view) on measured views.

    python scripts/fit_routes.py [--seeds 2] [--groups G ...] [--cache FILE] [--limit S]
    python scripts/fit_routes.py --fit-only [--cache FILE] [--report-most SECONDS]
    python scripts/fit_routes.py --refresh boards --slower-than 0.2

The views: every view at every step of the probing corpus (``bench_odds.probing_views``: 6 and 8
players, standard, jokers and ranks decks, must-declare; seeds 0..N-1), and the counts of the
128-event sample's report as ``bench_report_counts.py`` makes them (group ``report``: the odds of
every step of every view, a step counted again only where the report counts it again;
``report asks``: the public view's deals once each ask is made, without odds).

For each view it records both counters' estimates (the book-by-book plan's cost and whether it
fits its memory bound, ``BookCount``; the board walk's ``Board.estimate``), the processor time of
making each (the plan, and the board with its estimate) and of each counter forced
(``Routes(counter=...)``, ``card_ways``, or ``count_deals`` without odds). Each group is measured
in a child process of its own with its address space bounded (``RLIMIT_AS``, 4 GiB: a
``MemoryError`` counts as too costly) and each count bounded in processor time (``--limit``,
``ITIMER_PROF``: past it, too costly); a child that dies all the same has the view it was on
recorded as too costly for both and is started again after it. A walk whose estimate says it
cannot be within the limit, or ten times slower than the book-by-book count, is not run
(``WALK_SKIP``, ``WALK_ERR``). Measurements go to a JSON-lines cache (one view a line, with a hash
of the counters' sources) and are not made again: rerunning fits at once. ``--refresh boards``
measures the walk again (its estimate and time) where ``boards.py`` has changed since, on the
views where either counter took longer than ``--slower-than`` seconds or the walk could not count.

Then it replays the router's rule (``Routes.choose``, as ``odds._counter`` uses it) on the
recorded estimates for the defaults and a grid of candidate constants about the least-squares
power laws of each counter's time on its estimate, and prints per group the
total, worst, 99th percentile and median processor time of the counter chosen (with the making
of the plan and, where the rule needs it, of the board), the views refused (``TooLarge``), the
views a counter could count but none was chosen or the one chosen could not, and the views where
the one chosen took more than twice the better. The best candidate has the least worst view
(summed over the groups' worst, the 8-player groups weighing most), then the least total, among
those refusing no view either counter counts within the limits and not slowing the report's
counts (their total chosen time at most the defaults', or ``--report-most``: to compare with an
earlier rule, run this script's fit at that commit on the same cache).

The third counter, folding players (``FoldCount``), is not measured here: the rule is replayed
without it, as it stood before it came, and its law (``Routes.folds_scale``, ``folds_power``) was
fitted apart, on its own times over the probing views (docs/speed-history.md, "Odds of openings: players folded
into the total").
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import itertools
import json
import math
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from analyzer.knowledge import Position  # noqa: E402
from analyzer.odds import Counter, Routes, TooLarge, card_ways, count_deals, keep_freed_memory  # noqa: E402
from analyzer.odds.routes import DEFAULT  # noqa: E402

REPORT = "report"
ASKS = "report asks"
SAMPLE = ROOT / "sample_logs" / "simulated-game.fish"
MEMORY = 4 << 30
# The walk's estimate errs high, at most about 2,000 times on the views measured: a walk
# estimated past this many times the limit is not run (too costly: such views would each take
# the whole limit or the whole memory), nor one that would take more than ten times the
# book-by-book count even if its estimate erred high ``WALK_ERR`` times.
WALK_SKIP = 20_000
WALK_ERR = 5_000
# Nor a book-by-book count whose plan costs more than this per second of the limit (its unit
# takes 1 to 5 ns on the big views measured).
BOOKS_SKIP = 10_000_000_000
KINDS = {"books": Counter.BOOKS, "boards": Counter.BOARDS}


def groups() -> list[str]:
    from bench_odds import PROBING

    return [label for label, _, _, _ in PROBING] + [REPORT, ASKS]


def source_hash(name: str) -> str:
    """A short hash of one module of the counters, to tell measurements of older code."""
    return hashlib.sha1((ROOT / "analyzer" / "odds" / name).read_bytes()).hexdigest()[:12]


def views(group: str, seeds: int) -> Iterator[tuple[str, Position, bool]]:
    """(name, position, odds) of every view of a group, in the order a sweep meets them."""
    if group not in (REPORT, ASKS):
        from bench_odds import probing_views

        for _, name, pos in probing_views(seeds, group):
            yield name, pos, True
        return
    from analyzer.analysis import judged_views, view_tracker
    from analyzer.hindsight import deal_in_hindsight
    from analyzer.information import asker_side, signature
    from analyzer.knowledge import PUBLIC, ViewTracker
    from analyzer.record import Ask, load
    from analyzer.replay import replay
    from analyzer.replay_page import odds_jobs

    game = replay(load(SAMPLE))
    last = game.trusted_until
    if group == REPORT:
        worked_out = deal_in_hindsight(game).worked_out
        for view, steps, hand in odds_jobs(judged_views(game, worked_out), last, worked_out, 2):
            tracker = view_tracker(game, view, None if hand is None else {view: hand})
            seen = set()
            for at in steps:
                pos = tracker.position(at)
                key = signature(pos)
                if key not in seen:  # as ``count_steps`` counts a view's stretch
                    seen.add(key)
                    yield f"{view} @{at}", pos, True
        return
    from analyzer.information import ask_spans

    for first, end in ask_spans(last, 2):
        tracker, seen = ViewTracker(game, PUBLIC), set()
        for i, e in enumerate(game.events[first - 1 : end], start=first):
            if isinstance(e, Ask):
                pos = asker_side(tracker.position(i - 1), e, game.record.rules.bluffing)
                key = signature(pos)
                if key not in seen:  # as ``deal_counter`` counts a stretch
                    seen.add(key)
                    yield f"ask {i}", pos, False


class OutOfTime(Exception):
    pass


def _out_of_time(signum: int, frame: FrameType | None) -> None:
    raise OutOfTime


def timed_count(pos: Position, odds: bool, counter: Counter, limit: float) -> tuple[float | None, str]:
    """Processor seconds of one forced count, or None and why not. (Processor time of this
    thread: once a processor-time timer has been set, Linux reads the whole process's processor
    time at the clock's tick only. The counters do their work in this thread.)"""
    routes = Routes(counter=counter)
    gc.collect()
    start = time.thread_time()
    signal.setitimer(signal.ITIMER_PROF, limit)
    try:
        if odds:
            card_ways(pos, routes)
        else:
            count_deals(pos, routes)
        return time.thread_time() - start, ""
    except TooLarge:
        return None, "too-large"
    except MemoryError:
        return None, "memory"
    except OutOfTime:
        return None, "timeout"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def estimates(pos: Position, odds: bool) -> dict[str, Any]:
    """Both counters' estimates and the processor time of making them, as the router does."""
    from analyzer.odds.boards import Board
    from analyzer.odds.books import BookCount

    start = time.thread_time()
    books = BookCount(pos, DEFAULT, odds)  # (without the odds, the cost of the way forward)
    cost, fits, biggest = books.cost, books.fits, books.biggest
    plan_s = time.thread_time() - start
    start = time.thread_time()
    walk = Board(pos).estimate(odds)
    board_s = time.thread_time() - start
    return {"cost": cost, "fits": fits, "biggest": biggest, "walk": walk, "plan_s": plan_s, "board_s": board_s}


def measure(
    pos: Position, odds: bool, limit: float, kinds: tuple[str, ...] = ("books", "boards"), books: float | None = None
) -> dict[str, Any]:
    """Both estimates and the forced counts of ``kinds`` (``books``: the book-by-book count's
    time, when measured before)."""
    out = {**estimates(pos, odds), "books": books}
    for kind in kinds:
        if kind == "boards":
            books = out.get("books")
            past = out["walk"] > WALK_SKIP * limit * 1e9 or (
                books is not None and out["walk"] / WALK_ERR > 10 * books * 1e9
            )
        else:
            past = out["cost"] > BOOKS_SKIP * limit
        if past:
            seconds, why = None, "skipped"
        else:
            seconds, why = timed_count(pos, odds, KINDS[kind], limit)
        out[kind] = seconds
        out[f"{kind}_why"] = why
    out["books_src"], out["boards_src"] = source_hash("books.py"), source_hash("boards.py")
    return out


def load_cache(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    found: dict[tuple[str, str], dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                found[(row["group"], row["name"])] = row  # a later line replaces an earlier one
    return found


def append(path: Path, row: dict[str, Any]) -> None:
    with path.open("a") as f:
        f.write(json.dumps(row) + "\n")
        f.flush()
        os.fsync(f.fileno())


def child(group: str, seeds: int, cache: Path, limit: float, refresh: set[tuple[str, str]]) -> None:
    """Measure every view of the group not in the cache (and the walk again on ``refresh``)."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    signal.signal(signal.SIGPROF, _out_of_time)
    keep_freed_memory()
    known = load_cache(cache)
    current = cache.with_suffix(".current")
    warm = False
    for name, pos, odds in views(group, seeds):
        key = (group, name)
        if key in known and key not in refresh:
            continue
        if not warm:  # numpy's first calls and the factorial tables are not any view's time
            for kind in KINDS.values():
                timed_count(pos, odds, kind, limit)
            warm = True
        current.write_text(json.dumps({"group": group, "name": name, "odds": odds}))
        if key in known:
            row = dict(known[key])
            row.update(measure(pos, odds, limit, ("boards",), books=row.get("books")))
            row["books_src"] = known[key].get("books_src")
        else:
            row = {"group": group, "name": name, "odds": odds, **measure(pos, odds, limit)}
        append(cache, row)
    current.unlink(missing_ok=True)


def run_group(group: str, args: argparse.Namespace, refresh: set[tuple[str, str]]) -> None:
    """The group's child, started again after the view it died on (recorded as too costly)."""
    cache, current = Path(args.cache), Path(args.cache).with_suffix(".current")
    while True:
        command = [sys.executable, __file__, "--child", group, "--seeds", str(args.seeds), "--cache", args.cache]
        command += ["--limit", str(args.limit)]
        one_thread = {v: "1" for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
        for g, name in refresh:
            if g == group:
                command += ["--refresh-view", name]
        start = time.monotonic()
        status = subprocess.run(command, env={**os.environ, **one_thread}).returncode
        print(f"  {group}: measured in {time.monotonic() - start:.0f} s (exit {status})", file=sys.stderr)
        if status == 0:
            return
        if not current.exists():
            raise SystemExit(f"{group}: the measuring process failed before any view")
        dead = json.loads(current.read_text())
        current.unlink()
        known = load_cache(cache).get((dead["group"], dead["name"]), {})
        row = {**known, **dead, "books": known.get("books"), "books_why": known.get("books_why", "crashed")}
        row.update({"boards": None, "boards_why": f"crashed ({status})"})
        row.setdefault("cost", 0)
        append(cache, row)
        refresh.discard((dead["group"], dead["name"]))


# --- Replaying the rule ---------------------------------------------------------------------


@dataclass(frozen=True)
class View:
    group: str
    name: str
    cost: int
    fits: bool
    walk: int
    plan_s: float
    board_s: float
    books: float | None
    boards: float | None

    @property
    def best(self) -> float | None:
        done = [t for t in (self.books, self.boards) if t is not None]
        return min(done) if done else None


def chosen(v: View, routes: Routes) -> tuple[str, float | None]:
    """The counter the rule picks and the processor time it takes, routing included (None: it
    cannot count it within the limits); ("refused", routing time) for ``TooLarge``."""
    walked = False

    def walk() -> int:
        nonlocal walked
        walked = True
        return v.walk

    pick = routes.choose(lambda: v.cost if v.fits else None, walk)
    routing = v.plan_s + (v.board_s if walked else 0.0)
    if pick is Counter.BOOKS:
        return "books", None if v.books is None else v.books + (v.board_s if walked else 0.0)
    if pick is Counter.BOARDS:
        return "boards", None if v.boards is None else v.plan_s + v.boards
    return "refused", routing


@dataclass
class Score:
    total: float
    worst: float
    p99: float
    median: float
    refused: int  # TooLarge, though a counter counts it within the limits
    lost: int  # the one chosen cannot count it within the limits, though the other can
    slow: int  # the one chosen more than twice the better
    worst_name: str


def score(group_views: list[View], routes: Routes, limit: float) -> Score:
    times: list[tuple[float, str]] = []
    refused = lost = slow = 0
    for v in group_views:
        pick, seconds = chosen(v, routes)
        best = v.best
        if pick == "refused":
            refused += best is not None
            continue
        if seconds is None:
            lost += best is not None
            seconds = limit  # at least
        elif best is not None and seconds > 2 * (best + v.plan_s):
            slow += 1
        times.append((seconds, v.name))
    only = sorted(t for t, _ in times) or [0.0]
    worst = max(times, default=(0.0, ""))
    return Score(
        sum(only),
        worst[0],
        only[int(0.99 * (len(only) - 1))],
        statistics.median(only),
        refused,
        lost,
        slow,
        f"{worst[1]} ({pick_of(group_views, worst[1], routes)})",
    )


def pick_of(group_views: list[View], name: str, routes: Routes) -> str:
    return next((chosen(v, routes)[0] for v in group_views if v.name == name), "")


def table(by_group: dict[str, list[View]], routes: Routes, limit: float, title: str) -> dict[str, Score]:
    print(f"\n{title}")
    print(
        f"{'group':<22} {'views':>5} {'total s':>8} {'worst s':>8} {'p99 ms':>7} {'median ms':>9} "
        f"{'refused':>7} {'lost':>4} {'>2x':>4}  worst view"
    )
    out = {}
    for group, vs in by_group.items():
        s = out[group] = score(vs, routes, limit)
        print(
            f"{group:<22} {len(vs):>5} {s.total:>8.2f} {s.worst:>8.2f} {s.p99 * 1000:>7.0f} {s.median * 1000:>9.1f} "
            f"{s.refused:>7} {s.lost:>4} {s.slow:>4}  {s.worst_name}"
        )
    return out


def objective(scores: dict[str, Score]) -> tuple[float, ...]:
    """What the fit minimises: the worst views first (the 8-player groups' and then all
    groups'), then the total time."""
    eight = sum(s.worst for g, s in scores.items() if g.startswith("8p"))
    return (round(eight, 1), round(sum(s.worst for s in scores.values()), 1), sum(s.total for s in scores.values()))


def admissible(scores: dict[str, Score], report_total: float) -> bool:
    refuses = any(s.refused or s.lost for s in scores.values())
    report = sum(s.total for g, s in scores.items() if g in (REPORT, ASKS))
    return not refuses and report <= report_total


def power_law(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """(scale, power) of ``time = scale * estimate ** power`` by least squares on the logarithms."""
    xs = [math.log(e) for e, _ in pairs]
    ys = [math.log(t) for _, t in pairs]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    power = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return math.exp(my - power * mx), power


def likely_laws(every: list[View]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The power laws of each counter's time (nanoseconds) on its estimate, fitted on the views
    it took at least ``TIMED_FROM`` seconds on (below, the time is mostly the fixed cost)."""
    books = [(float(v.cost), v.books * 1e9) for v in every if v.books and v.books >= TIMED_FROM and v.cost > 0]
    walk = [(float(v.walk), v.boards * 1e9) for v in every if v.boards and v.boards >= TIMED_FROM and v.walk > 0]
    return power_law(books), power_law(walk)


TIMED_FROM = 0.005
# The grid around the least-squares laws: each law's power, the walk's scale as a factor at
# ``PIVOT`` (where the two counters are close, so where the choice is made; the book-by-book
# law is kept: only the ratio of the two matters there), and ``books_cheap``.
PIVOT = 1e9  # nanoseconds
GRID: dict[str, list[float]] = {
    "books_power": [-0.1, -0.05, 0.0, 0.05, 0.1],  # added to the least-squares power
    "walk_power": [-0.1, -0.05, 0.0, 0.05, 0.1, 0.15, 0.2, 0.25],
    "walk_factor": [0.35, 0.5, 0.7, 1.0, 1.4, 2.0, 2.8],
    "books_cheap": [2_000_000, 5_000_000, 10_000_000, 20_000_000, 40_000_000],
}


def candidates(every: list[View]) -> Iterator[Routes]:
    (books_scale, books_power), (walk_scale, walk_power) = likely_laws(every)
    for db, dw, factor, cheap in itertools.product(*GRID.values()):
        # Each law turned about the estimate it gives ``PIVOT`` nanoseconds at.
        b_at = (PIVOT / books_scale) ** (1 / books_power)
        w_at = (PIVOT / walk_scale) ** (1 / walk_power)
        yield replace(
            DEFAULT,
            books_power=round(books_power + db, 3),
            books_scale=float(f"{PIVOT / b_at ** (books_power + db):.4g}"),
            walk_power=round(walk_power + dw, 3),
            walk_scale=float(f"{factor * PIVOT / w_at ** (walk_power + dw):.4g}"),
            books_cheap=int(cheap),
        )


def fit(cache: Path, limit: float, report_most: float | None = None) -> None:
    rows = load_cache(cache)
    by_group: dict[str, list[View]] = {}
    for (group, _), row in rows.items():
        v = View(**{f.name: row.get(f.name) for f in fields(View)})  # type: ignore[arg-type]
        by_group.setdefault(group, []).append(v)
    by_group = {g: by_group[g] for g in groups() if g in by_group}
    for group, vs in by_group.items():
        neither = [v for v in vs if v.best is None]
        both_slow = [v for v in vs if v.books is not None and v.boards is not None and min(v.books, v.boards) > 1.0]
        for v in neither:
            print(f"{group} {v.name}: neither counter within the limits (books {v.cost} fits {v.fits})")
        for v in both_slow:
            print(f"{group} {v.name}: both slow: books {v.books:.2f} s, walk {v.boards:.2f} s")
    ratio_table(by_group)
    print("\nthe better counter of each view, chosen without cost (a bound no rule beats)")
    for group, vs in by_group.items():
        done = sorted(b for v in vs if (b := v.best) is not None)
        p99 = done[int(0.99 * (len(done) - 1))]
        print(f"{group:<22} {len(vs):>5} {sum(done):>8.2f} {done[-1]:>8.2f} {p99 * 1000:>7.0f}")
    base = table(by_group, DEFAULT, limit, "the defaults")
    report_total = report_most or sum(s.total for g, s in base.items() if g in (REPORT, ASKS))
    print(f"\nthe report's counts must take at most {report_total:.3f} s in all")
    best: tuple[tuple[float, ...], Routes, dict[str, Score]] | None = None
    quiet = {g: vs for g, vs in by_group.items()}
    every = [v for vs in by_group.values() for v in vs]
    (bs, bp), (ws, wp) = likely_laws(every)
    print(f"\nleast squares: book by book {bs:.4g} * cost ** {bp:.3f} ns, walk {ws:.4g} * estimate ** {wp:.3f} ns")
    for routes in candidates(every):
        scores = {g: score(vs, routes, limit) for g, vs in quiet.items()}
        if not admissible(scores, report_total):
            continue
        key = objective(scores)
        if best is None or key < best[0]:
            best = (key, routes, scores)
    if best is None:
        print("\nno candidate refuses nothing and keeps the report's counts as fast")
        return
    routes = best[1]
    changed = {
        f.name: getattr(routes, f.name) for f in fields(Routes) if getattr(routes, f.name) != getattr(DEFAULT, f.name)
    }
    table(by_group, routes, limit, f"the best candidate: {changed or 'the defaults'}")
    print(f"\nobjective (8-player worst, all worst, total): defaults {objective(base)}, best {best[0]}")
    slow_views(by_group, routes)


def slow_views(by_group: dict[str, list[View]], routes: Routes) -> None:
    """The views where the counter chosen takes more than twice the better, the worst first."""
    found = []
    for group, vs in by_group.items():
        for v in vs:
            pick, seconds = chosen(v, routes)
            if seconds is not None and v.best is not None and seconds > 2 * (v.best + v.plan_s):
                found.append(
                    (seconds - v.best, f"{group} {v.name}: {pick} {seconds:.3f} s, books {v.books}, walk {v.boards}")
                )
    print(f"\n{len(found)} views where the counter chosen takes more than twice the better; the worst:")
    for _, line in sorted(found, reverse=True)[:15]:
        print("  " + line)


def ratio_table(by_group: dict[str, list[View]]) -> None:
    """How the estimates compare with the times, on views that took at least 10 ms."""
    print("\nthe walk's estimate over its time, and nanoseconds of a unit of the plan: median (least..most)")
    for group, vs in by_group.items():
        walk = sorted(v.walk / 1e9 / v.boards for v in vs if v.boards and v.boards > 0.01 and v.walk)
        books = sorted(v.books * 1e9 / v.cost for v in vs if v.books and v.books > 0.01 and v.cost)
        line = f"{group:<22}"
        for label, r in (("walk", walk), ("plan ns", books)):
            if r:
                line += f"  {label}: {statistics.median(r):.3g} ({r[0]:.3g}..{r[-1]:.3g})"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=2, help="probing corpus: games per group")
    parser.add_argument("--groups", nargs="*", default=None, help="measure only these groups")
    parser.add_argument("--cache", default=str(ROOT / "build" / "fit_routes.jsonl"), help="the measurements")
    parser.add_argument("--limit", type=float, default=20.0, help="processor seconds a count may take")
    parser.add_argument("--fit-only", action="store_true", help="measure nothing, fit on the cache")
    parser.add_argument(
        "--report-most", type=float, help="seconds the report's counts may take in all (default: as the defaults take)"
    )
    parser.add_argument("--refresh", choices=("boards",), help="measure the walk again where it is slow")
    parser.add_argument("--slower-than", type=float, default=0.2, help="with --refresh: seconds")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--refresh-view", action="append", default=[], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.seeds, Path(args.cache), args.limit, {(args.child, n) for n in args.refresh_view})
        return
    Path(args.cache).parent.mkdir(parents=True, exist_ok=True)
    if not args.fit_only:
        refresh: set[tuple[str, str]] = set()
        if args.refresh:
            now = source_hash("boards.py")
            for key, row in load_cache(Path(args.cache)).items():
                done = [t for t in (row.get("books"), row.get("boards")) if t is not None]
                slow = row.get("boards") is None or not done or max(done) > args.slower_than
                if row.get("boards_src") != now and slow:
                    refresh.add(key)
        for group in args.groups or groups():
            run_group(group, args, refresh)
    fit(Path(args.cache), args.limit, args.report_most)


if __name__ == "__main__":
    main()
