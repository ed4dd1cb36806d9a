"""A whole game at once: the holders of every card at every step in every view.

This is what tactics, reports and batches are built on, so it is computed once per record, one
``ViewTracker`` per view walking every step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import Book, Card
from .errors import Contradiction
from .knowledge import PUBLIC, Position, ViewTracker, resolve_view
from .replay import Game
from .solver import NoFit, solve

if TYPE_CHECKING:
    from .explain import Explainer

Holders = dict[Card, tuple[str, ...]]
Progress = Callable[[int, int], None]  # (parts done, parts in all): a bar, a log line, or nothing


@dataclass
class ViewAnalysis:
    """The holders of every card in play after each step, in one view."""

    view: str
    holders: list[Holders]

    def at(self, step: int) -> Holders:
        return self.holders[step]

    @property
    def last(self) -> int:
        """The last step solved."""
        return len(self.holders) - 1


@dataclass
class StepAnalysis(ViewAnalysis):
    """The holders of one view at one step alone: threats and lockouts are of one moment."""

    step: int

    def at(self, step: int) -> Holders:
        if step != self.step:
            raise ValueError(f"step {step} of {self.view}'s view is not solved: only step {self.step} is")
        return self.holders[0]

    @property
    def last(self) -> int:
        return self.step


@dataclass
class Analysis:
    """Every view of a game at every step."""

    game: Game
    views: dict[str, ViewAnalysis]
    worked_out: dict[str, tuple[Card, ...]] = field(default_factory=dict)  # hands not written but fixed by the record
    _explainers: dict[tuple[str, int], Explainer] = field(default_factory=dict, init=False, repr=False, compare=False)
    _trackers: dict[str, ViewTracker] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def steps(self) -> int:
        """The last step analyzed (every event, unless the analysis stopped early; the one step
        solved, for ``analyze_at``)."""
        return next(iter(self.views.values())).last

    def holders(self, view: str, at: int) -> Holders:
        return self.views[view].at(at)

    def explainer(self, view: str, at: int) -> Explainer:
        """The explanations of one view after ``at`` events, made once: the mistakes' explanations
        and the replay page's at the same step share its facts, its chains and what it explained."""
        if (view, at) not in self._explainers:
            from .explain import Explainer  # (loaded only when something is explained)

            self._explainers[(view, at)] = Explainer(self.tracker(view), at)
        return self._explainers[(view, at)]

    def tracker(self, view: str) -> ViewTracker:
        """The view's tracker, made once: the explainers of all its steps share it (made per step,
        its sweep of the whole record made the mistakes of a long record quadratic: 1,000 events
        of failed asks, 9.6 s)."""
        if view not in self._trackers:
            self._trackers[view] = view_tracker(self.game, view, self.worked_out)
        return self._trackers[view]

    def has_view(self, player: str) -> bool:
        return player in self.views

    def hand_status(self, player: str) -> str:
        """How the player's own view is known: ``written`` (a Hand line), ``worked out``, or ``unknown``."""
        if player in self.worked_out:
            return "worked out"
        return "written" if player in self.views else "unknown"


def hand_views(game: Game) -> list[str]:
    """``public`` and every player with a ``Hand`` line, in seat order."""
    return [PUBLIC, *game.record.hands]


def judged_views(game: Game, worked_out: Mapping[str, object], views: Sequence[str] | None = None) -> list[str]:
    """The views a game is judged in: ``views`` (default ``hand_views``), then each player
    whose hand the record works out (``worked_out``) not among them."""
    names = list(views) if views is not None else hand_views(game)
    return names + [p for p in game.record.players if p in worked_out and p not in names]


def solve_position(tracker: ViewTracker, at: int) -> tuple[Position, Holders]:
    """The position and holders of one view after ``at`` events.

    Raises Contradiction naming the first event after which no deal fits this view.
    """
    try:
        pos = tracker.position(at)
        return pos, solve(pos).holders
    except Contradiction:  # NoFit too
        raise first_unfit(tracker, at) from None


def check_fits(game: Game) -> None:
    """Raise Contradiction when no deal fits the whole record, in public or with a hand, naming
    the first event after which none does (a deal that fits the whole record fits every part)."""
    for view in hand_views(game):
        solve_position(ViewTracker(game, view), len(game.events))


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
    whose = ""  # the public view; a player's own view, or every Hand line at once (the deal in hindsight):
    if tracker.hands:
        whose = f" {tracker.view}'s hand and" if tracker.view in tracker.hands else f" {tracker.view} and"
    try:
        solve(tracker.position(at))
    except NoFit as exc:  # before Contradiction: a NoFit knows no event or line
        line = record.events[at - 1].line if at > 0 else record.header_lines.get("Teams")
        error = Contradiction(
            f"no deal fits{whose} the record {record.after_label(at)}: {exc.why}",
            line=line,
            path=record.path,
            event=record.written_number(at),
        )
        from .explain import explain_contradiction  # (loaded only when there is one to explain)

        try:
            error.explanation = explain_contradiction(tracker, at)
        except (Contradiction, ValueError):  # a direct contradiction names its events already
            return error
        error.message += f". These facts cannot all be true: {error.explanation.text}"
        return error
    except Contradiction as exc:
        exc.message = f"no deal fits{whose} the record {record.after_label(at)}: {exc.message}"
        return exc
    raise AssertionError("unfit_error called on a step that fits")


def analyze(
    game: Game,
    views: list[str] | None = None,
    upto: int | None = None,
    workers: int = 1,
    worked_out: dict[str, tuple[Card, ...]] | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """Holders of every card at every step 0..upto in every view (default: public and every hand).

    ``worked_out`` adds the views of players without a Hand line whose hand is known otherwise
    (the deal in hindsight, ``hindsight``). Views are independent, so with ``workers > 1`` they
    are solved in worker processes (for short records, in this process). ``progress(done,
    total)`` is called as each view is done.
    """
    extra = dict(worked_out or {})
    names = judged_views(game, extra, None if views is None else [resolve_view(game.record, v) for v in views])
    last = len(game.events) if upto is None else upto
    done = counter(len(names), progress)
    jobs = [(name, last, extra.get(name)) for name in names]
    from .pool import game_map

    solved = game_map(_view_job, game, jobs, workers if worth_workers(len(names), last) else 1, done)
    views_done = {name: ViewAnalysis(name, steps) for name, steps in zip(names, solved, strict=True)}
    return Analysis(game, views_done, extra)


def analyze_at(game: Game, at: int, worked_out: dict[str, tuple[Card, ...]] | None = None) -> Analysis:
    """Every view a game is judged in (``judged_views``, with the ``worked_out`` hands) solved at
    step ``at`` alone, not at the steps before: what threats and lockouts need. Raises
    Contradiction, naming the first event after which no deal fits a view, as ``analyze`` does."""
    extra = dict(worked_out or {})
    views: dict[str, ViewAnalysis] = {
        v: StepAnalysis(v, [solve_position(view_tracker(game, v, extra), at)[1]], at) for v in judged_views(game, extra)
    }
    return Analysis(game, views, extra)


_PARALLEL_FROM = 2000  # steps x views: below this, starting worker processes costs more than it saves


def worth_workers(views: int, last: int) -> bool:
    """Whether solving ``views`` views over steps 0..``last`` is worth starting worker processes."""
    return views * (last + 1) >= _PARALLEL_FROM


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


def _view_job(game: Game, job: tuple[str, int, tuple[Card, ...] | None]) -> list[Holders]:
    return view_steps(game, *job)


def view_tracker(game: Game, view: str, worked_out: dict[str, tuple[Card, ...]] | None = None) -> ViewTracker:
    """The tracker of a view, given the hand of a player the record works out (``hindsight``)."""
    hand = (worked_out or {}).get(view)
    return ViewTracker(game, view, hands=None if hand is None else {view: hand})


def view_steps(game: Game, view: str, last: int, hand: tuple[Card, ...] | None = None) -> list[Holders]:
    """The holders of one view after every step 0..last (``hand``: the player's hand, when not written)."""
    tracker = view_tracker(game, view, None if hand is None else {view: hand})
    return [solve_position(tracker, at)[1] for at in range(last + 1)]


def book_holders(holders: Holders, book: Book) -> dict[Card, tuple[str, ...]]:
    """The holders of the book's cards still in play (all of them, or none once claimed)."""
    return {c: holders[c] for c in book.cards if c in holders}
