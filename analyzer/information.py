"""What each ask tells the table, in bits: what the asker gives away and what the answer reveals.

The information an event gives a view is log2(fitting deals before / fitting deals after). An
ask tells the public two things, one after the other: the asker holds a card of the book (and,
unless bluffing, not the card asked for), then the answer says whether the target holds it.
The first part is what the asker *gave away* about their own hand; the second is what the
asker's team (and everyone) *gained* about the opponent asked. Both are measured in the public
view, so they add up to the whole information of the ask.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace

from .analysis import Progress, counter
from .knowledge import PUBLIC, Position, Requirement, ViewTracker
from .odds import count_deals, information
from .pool import game_map
from .record import Ask
from .replay import Game

PARALLEL_FROM = 40  # events from which the counts go to worker processes (fewer: all in this one)


@dataclass(frozen=True)
class AskInformation:
    """Bits one ask gave away (about the asker) and gained (about the target), publicly."""

    event: int
    asker: str
    target: str
    given: float
    gained: float


@dataclass(frozen=True)
class PlayerInformation:
    player: str
    asks: int
    given: float
    gained: float

    def sentence(self) -> str:
        times = "once" if self.asks == 1 else f"{self.asks} times"
        return f"asked {times}, gave away {self.given:.1f} bits, gained {self.gained:.1f}"


def asker_side(pos: Position, ask: Ask, bluffing: bool) -> Position:
    """The position just before ``ask`` plus what the ask itself says about the asker."""
    book = pos.deck.book_of(ask.card)
    allowed = dict(pos.allowed)
    if not bluffing and ask.card in allowed:
        allowed[ask.card] = tuple(p for p in allowed[ask.card] if p != ask.asker)
    at_least = list(pos.at_least)
    holds_shown = any(pos.known.get(c) == ask.asker for c in book.cards)
    if not holds_shown and not any(r.player == ask.asker and r.book == book for r in at_least):
        unseen = frozenset(c for c in book.cards if c in allowed)
        at_least.append(Requirement(ask.asker, book, unseen, pos.at + 1))
    return replace(pos, allowed=allowed, at_least=at_least)


def signature(pos: Position) -> Hashable:
    """What the deal count of a position depends on: equal signatures, equal counts."""
    return (
        tuple(sorted((c.code, ps) for c, ps in pos.allowed.items())),
        tuple(sorted(pos.slots.items())),
        tuple(sorted((r.player, tuple(sorted(c.code for c in r.cards))) for r in pos.at_least)),
        tuple(sorted((r.player, tuple(sorted(c.code for c in r.cards))) for r in pos.not_all)),
    )


def ask_information(
    game: Game, upto: int | None = None, workers: int = 1, progress: Progress | None = None
) -> list[AskInformation]:
    """Given-away and gained bits of every ask up to ``upto``, in the public view.

    Each ask needs two deal counts; with ``workers > 1`` stretches of the game are counted in
    worker processes (more stretches than workers, since mid-game counts cost the most).
    ``progress(done, total)`` is called as each stretch is counted.
    """
    last = len(game.events) if upto is None else upto
    if last < PARALLEL_FROM:
        # A short record: starting worker processes would cost more than its few counts.
        tick = counter(1, progress)
        found = _information_between(game, (1, last))
        if tick is not None:
            tick(found)
        return found
    if workers <= 1 and progress is None:
        return _information_between(game, (1, last))
    spans = ask_spans(last, workers)
    parts = game_map(_information_between, game, spans, workers, counter(len(spans), progress))
    return [a for part in parts for a in part]


def ask_spans(last: int, workers: int) -> list[tuple[int, int]]:
    """Events 1..last cut into stretches for ``workers`` processes, about four each."""
    size = max(1, -(-last // (4 * max(1, workers))))
    return [(lo, min(last, lo + size - 1)) for lo in range(1, last + 1, size)]


def ask_counts(game: Game, span: tuple[int, int], steps: bool = True) -> tuple[dict[int, int], dict[int, int]]:
    """The public view's deals once each ask of events ``first..last`` is made (``asker_counts``)
    and, with ``steps``, after each step from the one before the stretch to its end."""
    first, last = span
    tracker, count = ViewTracker(game, PUBLIC), deal_counter()
    deals = {at: count(tracker.position(at)) for at in range(first - 1, last + 1)} if steps else {}
    return deals, asker_counts(game, span, tracker, count)


def _information_between(game: Game, span: tuple[int, int]) -> list[AskInformation]:
    """The information of the asks among events ``first..last``."""
    return told_by_asks(game, span, *ask_counts(game, span))


def deal_counter() -> Callable[[Position], int]:
    """``count_deals`` remembering its answers by ``signature``: many events leave the hidden part
    of the public view as it was (a known card moving)."""
    counted: dict[Hashable, int] = {}

    def count(pos: Position) -> int:
        key = signature(pos)
        if key not in counted:
            counted[key] = count_deals(pos)
        return counted[key]

    return count


def asker_counts(
    game: Game,
    span: tuple[int, int],
    tracker: ViewTracker | None = None,
    count: Callable[[Position], int] | None = None,
) -> dict[int, int]:
    """The public view's deals once each ask among events ``first..last`` is made and before it
    is answered (``asker_side``), by the ask's place among the events."""
    first, last = span
    tracker = tracker or ViewTracker(game, PUBLIC)
    count = count or deal_counter()
    bluffing = game.record.rules.bluffing
    return {
        i: count(asker_side(tracker.position(i - 1), e, bluffing))
        for i, e in enumerate(game.events[first - 1 : last], start=first)
        if isinstance(e, Ask)
    }


def told_by_asks(
    game: Game, span: tuple[int, int], deals: Mapping[int, int], asked: Mapping[int, int]
) -> list[AskInformation]:
    """The information of the asks among events ``first..last`` from the public view's deals after
    each step (``deals``, from step first-1 on) and once each ask is made (``asker_counts``)."""
    first, last = span
    return [
        AskInformation(i, e.asker, e.target, information(deals[i - 1], asked[i]), information(asked[i], deals[i]))
        for i, e in enumerate(game.events[first - 1 : last], start=first)
        if isinstance(e, Ask)
    ]


def player_information(game: Game, asks: list[AskInformation]) -> dict[str, PlayerInformation]:
    """Totals per player, in seat order."""
    totals = {}
    for p in game.record.players:
        mine = [a for a in asks if a.asker == p]
        totals[p] = PlayerInformation(p, len(mine), sum(a.given for a in mine), sum(a.gained for a in mine))
    return totals
