"""Measure the analysis on simulated games: whole-game time, time per exact view, peak memory.

For comparison it can also time a generic CP-SAT model (OR-Tools, the ``bench`` extra) answering
the holders of one view at one step, certifying every (card, player) pair with a solve unless an
earlier solution already placed the card there.
"""

from __future__ import annotations

import os
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .analysis import analyze
from .knowledge import PUBLIC, Position, ViewTracker
from .replay import replay
from .simulate import simulate


@dataclass
class SizeFigures:
    """Figures for one table size."""

    players: int
    games: int
    events: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)  # one process
    parallel: list[float] = field(default_factory=list)  # views in worker processes, one per core
    views: list[int] = field(default_factory=list)  # exact views solved per game (steps x views)
    peak_mib: float = 0.0
    cpsat_seconds: float | None = None
    cpsat_at: tuple[int, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        per_view = [s / v * 1000 for s, v in zip(self.seconds, self.views, strict=True)]
        return {
            "players": self.players,
            "games": self.games,
            "events_median": statistics.median(self.events),
            "analyze_seconds_median": round(statistics.median(self.seconds), 4),
            "analyze_seconds_max": round(max(self.seconds), 4),
            "cores": os.cpu_count() or 1,
            "analyze_all_cores_seconds_median": round(statistics.median(self.parallel), 4),
            "analyze_all_cores_seconds_max": round(max(self.parallel), 4),
            "ms_per_exact_view_mean": round(statistics.mean(per_view), 4),
            "peak_mib": round(self.peak_mib, 1),
            "cpsat_one_view_seconds": None if self.cpsat_seconds is None else round(self.cpsat_seconds, 3),
            "cpsat_view": None if self.cpsat_at is None else {"at": self.cpsat_at[0], "as": self.cpsat_at[1]},
        }


def run_benchmark(
    games: int = 5, sizes: tuple[int, ...] = (6, 8), cpsat: bool = True, progress: Callable[[str], None] | None = None
) -> list[SizeFigures]:
    """Analyze ``games`` simulated games per table size (seeds 1..games) in every view."""
    results = []
    for players in sizes:
        fig = SizeFigures(players, games)
        for seed in range(1, games + 1):
            game = replay(simulate(players=players, seed=seed))
            start = time.perf_counter()
            result = analyze(game)
            fig.seconds.append(time.perf_counter() - start)
            start = time.perf_counter()
            analyze(game, workers=os.cpu_count() or 1)
            fig.parallel.append(time.perf_counter() - start)
            fig.events.append(len(game.events))
            fig.views.append(len(result.views) * (len(game.events) + 1))
            if progress:
                progress(f"{players} players, game {seed}: {fig.seconds[-1]:.3f} s, all cores {fig.parallel[-1]:.3f} s")
        # Memory is traced on one game only: tracing slows Python several times over.
        game = replay(simulate(players=players, seed=1))
        tracemalloc.start()
        analyze(game)
        fig.peak_mib = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        if cpsat:
            at = len(game.events) // 3
            pos = ViewTracker(game, PUBLIC).position(at)
            fig.cpsat_seconds = cpsat_holders_seconds(pos)
            fig.cpsat_at = (at, PUBLIC)
        results.append(fig)
    return results


def cpsat_holders_seconds(pos: Position) -> float | None:
    """Seconds a generic CP-SAT model takes to find the holders of every card in one view, or None
    when OR-Tools is not installed."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None
    start = time.perf_counter()
    certified: set[tuple[Any, str]] = set()
    pairs = [(c, p) for c, ps in pos.allowed.items() for p in ps]
    for c, p in pairs:
        if (c, p) in certified:
            continue
        model = cp_model.CpModel()
        x = {(card, q): model.new_bool_var(f"{card}_{q}") for card, qs in pos.allowed.items() for q in qs}
        for card, qs in pos.allowed.items():
            model.add_exactly_one(x[(card, q)] for q in qs)
        for q in pos.players:
            mine = [v for (card, owner), v in x.items() if owner == q]
            model.add(sum(mine) == pos.slots[q])
        for r in pos.at_least:
            model.add_bool_or([x[(card, r.player)] for card in r.cards if (card, r.player) in x])
        for r in pos.not_all:
            cells = [x[(card, r.player)] for card in r.cards if (card, r.player) in x]
            if len(cells) == len(r.cards):
                model.add_bool_or([v.negated() for v in cells])
        model.add(x[(c, p)] == 1)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        status = solver.solve(model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            certified.update(key for key, v in x.items() if solver.value(v))
    return time.perf_counter() - start
