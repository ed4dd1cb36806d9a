"""A whole game at once: the holders of every card at every step in every view.

This is what tactics, reports and batches are built on, so it is computed once per record, one
``ViewTracker`` per view walking every step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .cards import Book, Card
from .errors import Contradiction
from .knowledge import PUBLIC, Position, ViewTracker, resolve_view
from .pool import game_map
from .replay import Game
from .solver import NoFit, solve

Holders = dict[Card, tuple[str, ...]]
Progress = Callable[[int, int], None]  # (parts done, parts in all): a bar, a log line, or nothing


@dataclass
class ViewAnalysis:
    """The holders of every card in play after each step, in one view."""

    view: str
    holders: list[Holders]

    def at(self, step: int) -> Holders:
        return self.holders[step]


@dataclass
class Analysis:
    """Every view of a game at every step."""

    game: Game
    views: dict[str, ViewAnalysis]

    @property
    def steps(self) -> int:
        """The last step analyzed (every event, unless the analysis stopped early)."""
        return len(next(iter(self.views.values())).holders) - 1

    def holders(self, view: str, at: int) -> Holders:
        return self.views[view].at(at)

    def has_view(self, player: str) -> bool:
        return player in self.views


def hand_views(game: Game) -> list[str]:
    """``public`` and every player with a ``Hand`` line, in seat order."""
    return [PUBLIC, *game.record.hands]


def solve_position(tracker: ViewTracker, at: int) -> tuple[Position, Holders]:
    """The position and holders of one view after ``at`` events.

    Raises Contradiction naming the first event after which no deal fits this view.
    """
    try:
        pos = tracker.position(at)
        return pos, solve(pos).holders
    except Contradiction:  # NoFit too
        raise first_unfit(tracker, at) from None


def first_unfit(tracker: ViewTracker, upto: int) -> Contradiction:
    """Binary search for the first step that no deal fits (fitting only shrinks as events come)."""
    lo, hi = 0, upto  # the answer is in [lo, hi]; step hi is known to fail
    while lo < hi:
        mid = (lo + hi) // 2
        if _fits(tracker, mid):
            lo = mid + 1
        else:
            hi = mid
    return unfit_error(tracker, hi)


def _fits(tracker: ViewTracker, at: int) -> bool:
    try:
        solve(tracker.position(at))
    except Contradiction:  # NoFit too
        return False
    return True


def unfit_error(tracker: ViewTracker, at: int) -> Contradiction:
    """The error for a step that no deal fits, in plain words, at the event that caused it."""
    record = tracker.record
    whose = "" if tracker.view == PUBLIC else f" {tracker.view}'s hand and"
    try:
        solve(tracker.position(at))
    except NoFit as exc:  # before Contradiction: a NoFit knows no event or line
        line = record.events[at - 1].line if at > 0 else record.header_lines.get("Teams")
        return Contradiction(
            f"no deal fits{whose} the record after event {at}: {exc.why}",
            line=line,
            path=record.path,
            event=at,
        )
    except Contradiction as exc:
        exc.message = f"no deal fits{whose} the record after event {at}: {exc.message}"
        return exc
    raise AssertionError("unfit_error called on a step that fits")


def analyze(
    game: Game,
    views: list[str] | None = None,
    upto: int | None = None,
    workers: int = 1,
    progress: Progress | None = None,
) -> Analysis:
    """Holders of every card at every step 0..upto in every view (default: public and every hand).

    Views are independent, so with ``workers > 1`` they are solved in worker processes (for
    short records, in this process). ``progress(done, total)`` is called as each view is done.
    """
    names = [resolve_view(game.record, v) for v in views] if views is not None else hand_views(game)
    last = len(game.events) if upto is None else upto
    done = counter(len(names), progress)
    jobs = [(name, last) for name in names]
    solved = game_map(_view_job, game, jobs, workers if len(names) * (last + 1) >= _PARALLEL_FROM else 1, done)
    return Analysis(game, {name: ViewAnalysis(name, steps) for name, steps in zip(names, solved, strict=True)})


_PARALLEL_FROM = 2000  # steps x views: below this, starting worker processes costs more than it saves


def counter(total: int, progress: Progress | None) -> Callable[[object], None] | None:
    """A callback for ``game_map`` that reports (done, total) to ``progress`` as results come."""
    if progress is None:
        return None
    done = [0]

    def tick(_: object) -> None:
        done[0] += 1
        progress(done[0], total)

    progress(0, total)
    return tick


def _view_job(game: Game, job: tuple[str, int]) -> list[Holders]:
    return view_steps(game, *job)


def view_steps(game: Game, view: str, last: int) -> list[Holders]:
    """The holders of one view after every step 0..last."""
    tracker = ViewTracker(game, view)
    return [solve_position(tracker, at)[1] for at in range(last + 1)]


def book_holders(holders: Holders, book: Book) -> dict[Card, tuple[str, ...]]:
    """The holders of the book's cards still in play (all of them, or none once claimed)."""
    return {c: holders[c] for c in book.cards if c in holders}
