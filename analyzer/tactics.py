"""Claimable books, threats, lockouts, and the mistakes they reveal.

Definitions follow the analysis spec: a book is claimable by a team when every card of it is
known and held by that team; a player threatens a book when, in their own view, they hold a card
of it, every card is known and an opponent holds at least one; a lockout is a book threatened
from both sides.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .analysis import Analysis, Holders, Progress, book_holders, counter, view_tracker
from .cards import Book, Card
from .knowledge import PUBLIC, Position, ViewTracker
from .record import Ask, Claim
from .replay import Game, Step
from .rules import Outcome, can_claim
from .solver import NoFit
from .wording import either, percent

# Explanations, worker processes and fractions load with the functions that use them: claims,
# threats and lockouts answer at the table without them.
if TYPE_CHECKING:
    from fractions import Fraction

    from .explain import Explainer, Explanation, Statement

    CountedOdds = dict[tuple[str, int], dict[Card, dict[str, Fraction]]]  # (view, step) -> card_odds(...).cards


@dataclass(frozen=True)
class Claimable:
    """A book a team can claim, and the declaration to make."""

    book: Book
    team: int
    holders: dict[Card, str]

    def by_holder(self) -> dict[str, list[Card]]:
        out: dict[str, list[Card]] = {}
        for c, p in self.holders.items():
            out.setdefault(p, []).append(c)
        return out

    def declaration(self, speaker: str | None = None) -> str:
        """As a player would say it: ``Claim low spades: I have 2♠ 3♠, Ben has 4♠ 5♠ 6♠ 7♠``."""
        parts = []
        for p, cards in self.by_holder().items():
            who = "I have" if p == speaker else f"{p} has"
            parts.append(f"{who} {' '.join(c.pretty for c in cards)}")
        return f"Claim {self.book.pretty}: {', '.join(parts)}"

    def to_dict(self) -> dict[str, object]:
        return {"book": self.book.name, "team": self.team, "holders": {c.code: p for c, p in self.holders.items()}}


def claimable(game: Game, holders: Holders, view: str) -> list[Claimable]:
    """Books claimable in a view: by the player's team in a player's view, by either team publicly."""
    table = game.record.table
    teams = (1, 2) if view == PUBLIC else (table.team_of(view),)
    found = []
    for book in game.record.rules.deck.books:
        cards = book_holders(holders, book)
        if not cards or any(len(h) != 1 for h in cards.values()):
            continue
        owners = {c: h[0] for c, h in cards.items()}
        sides = {table.team_of(p) for p in owners.values()}
        if len(sides) == 1 and (team := sides.pop()) in teams:
            found.append(Claimable(book, team, owners))
    return found


def threatened(game: Game, holders: Holders, player: str) -> list[Book]:
    """Books ``player`` could take if given the turn, from ``holders`` in the player's own view."""
    table = game.record.table
    team = table.team_of(player)
    books = []
    for book in game.record.rules.deck.books:
        cards = book_holders(holders, book)
        if not cards or any(len(h) != 1 for h in cards.values()):
            continue
        owners = [h[0] for h in cards.values()]
        if player in owners and any(table.team_of(p) != team for p in owners):
            books.append(book)
    return books


def threats(analysis: Analysis, at: int) -> dict[str, list[Book] | None]:
    """Each player's threats in their own view; None for a player without a Hand line."""
    game = analysis.game
    return {
        p: threatened(game, analysis.holders(p, at), p) if analysis.has_view(p) else None for p in game.record.players
    }


@dataclass(frozen=True)
class Lockout:
    """A book threatened from both sides: whoever gets the turn first can take it."""

    book: Book
    threats: dict[int, list[str]]  # team -> its players who threaten the book

    def avoid(self, team: int) -> list[str]:
        """Opponents ``team`` must not ask: a failed ask hands them the turn and the book."""
        return self.threats[3 - team]

    def to_dict(self) -> dict[str, object]:
        return {
            "book": self.book.name,
            "threats": {str(t): ps for t, ps in self.threats.items()},
            "avoid": {str(t): self.avoid(t) for t in (1, 2)},
        }


def lockouts(analysis: Analysis, at: int) -> list[Lockout]:
    """Books threatened by players of both teams (judged in the views of players with a hand)."""
    table = analysis.game.record.table
    by_book: dict[str, dict[int, list[str]]] = {}
    books: dict[str, Book] = {}
    for player, found in threats(analysis, at).items():
        for book in found or ():
            books[book.name] = book
            by_book.setdefault(book.name, {1: [], 2: []})[table.team_of(player)].append(player)
    return [Lockout(books[name], t) for name, t in by_book.items() if t[1] and t[2]]


# ---------------------------------------------------------------- mistakes

KINDS = ("missed-claim", "wrong-claim", "broken-lockout", "hopeless-ask", "rule-break")
# How the view a mistake is judged in is known (see ``Analysis.hand_status``), as the mistake says it.
HAND_NOTES = {
    "written": "",
    "worked out": "hand worked out from the record",
    "unknown": "hand not known: judged from the public view, a lower bound of what {who} knew",
}


@dataclass(frozen=True)
class NotKnown:
    """A card whose holder the player could not know: who may hold it, and one deal that fits the
    player's view and puts it with ``holder`` (not where it was declared): the proof it was open."""

    card: Card
    holders: tuple[str, ...]
    holder: str
    witness: dict[Card, str]  # the never-shown cards of that deal
    text: str

    def to_dict(self) -> dict[str, object]:
        return {
            "card": self.card.code,
            "known": False,
            "holders": list(self.holders),
            "witness": {c.code: p for c, p in self.witness.items()},
            "text": self.text,
        }


@dataclass(frozen=True)
class Mistake:
    """A mistake a coach would point out: where, who, what they could have known, what it cost.

    ``hand`` says how the view it is judged in is known: ``written`` (a Hand line), ``worked
    out`` (the deal in hindsight fixes the hand), or ``unknown`` (judged from the public view,
    which proves no more than a lower bound of what the player knew). A broken lockout is judged
    in the asker's view where it saw the whole book, else in the view of the opponent who could
    take the book.
    """

    event: int  # the event's place in the record, counted from 1 (``number`` is what the file calls it)
    player: str
    kind: str
    book: str | None
    why: str
    cost: str
    known: dict[str, list[str]] = field(default_factory=dict)  # card -> holders in the player's view
    odds: str | None = None  # the exact odds the player faced, when quoted (see ``quote_odds``)
    hand: str = "written"
    judged: str | None = None  # whose hand ``hand`` is about, when not the player's (some broken lockouts' target)
    number: int = 0  # the event's number as written in the file
    line: int = 0  # and its line
    step: int | None = None  # judged after this many events (default: just before the event)
    explanations: tuple[Explanation | NotKnown, ...] = ()  # what the player could have known, and why

    @property
    def at(self) -> int:
        """The moment the mistake is judged at: after this many events."""
        return self.event - 1 if self.step is None else self.step

    @property
    def hand_note(self) -> str:
        """``Eli's hand worked out from the record``, the public view's lower bound, or nothing."""
        if self.kind == "rule-break" or not HAND_NOTES[self.hand]:
            return ""
        who = self.judged or self.player
        return f"{who}'s " + HAND_NOTES[self.hand].format(who=who)

    def to_dict(self) -> dict[str, object]:
        return {
            "event": self.number,
            "line": self.line,
            "index": self.event,
            "at": self.at,
            "player": self.player,
            "kind": self.kind,
            "book": self.book,
            "why": self.why,
            "cost": self.cost,
            "known": self.known,
            "odds": self.odds,
            "hand": self.hand,
            "hand_of": self.judged or self.player,
            "explanations": [e.to_dict() for e in self.explanations],
        }


@dataclass
class MistakeReport:
    mistakes: list[Mistake]
    unjudged: list[str]  # players whose hand is not known: judged from the public view only
    worked_out: list[str] = field(default_factory=list)  # players judged with a hand worked out from the record
    unfinished: bool = False  # the record stops before the game ends


def may_claim(game: Game, step: Step, player: str) -> bool:
    """Whether the rules let ``player`` claim after this step (the rule the replay checks claims by)."""
    return can_claim(game.play_state(step.at), player)


def _seen(holders: Holders, book: Book) -> dict[str, list[str]]:
    return {c.code: list(h) for c, h in book_holders(holders, book).items()}


def _where(holders: Holders, book: Book) -> str:
    parts = []
    for c, h in book_holders(holders, book).items():
        parts.append(f"{c.pretty} {either(h)}")
    return ", ".join(parts)


def _fate(game: Game, book: Book, team: int) -> tuple[bool, str]:
    """Whether the team lost the book, and how it ended."""
    record = game.record
    result = game.final.books.get(book.name)
    if result is None:
        return False, f"{book.pretty} was still in play when the record ends"
    how = {
        Outcome.CORRECT: "claimed correctly",
        Outcome.WRONG: "lost on a wrong claim",
        Outcome.FORFEITED: "forfeited on a wrong split",
    }[result.outcome]
    lost = result.team != team
    by = record.table.team_of(result.claimant)
    side = "their team" if by == team else "the opponents"
    return lost, f"{book.pretty} was {how} by {side} at {record.event_label(result.event)}"


def judged_view(analysis: Analysis, player: str) -> str:
    """The view a player is judged in: their own when their hand is known, else the public view."""
    return player if analysis.has_view(player) else PUBLIC


def mistake_view(analysis: Analysis, m: Mistake) -> str:
    """The view a mistake is judged in: its player's (for a broken lockout the asker did not see,
    the opponent's who could take the book), or the public view when that hand is not known."""
    whose = m.judged or m.player
    return judged_view(analysis, whose) if whose else PUBLIC


def mistake_moment(analysis: Analysis, m: Mistake) -> tuple[str, int]:
    """The view and step a mistake is judged at (``Mistake.judged`` and ``Mistake.at``): the
    player's own view (for a broken lockout the asker could not see, the opponent's), the public
    one when that hand is not known. Its explanations, the report and the replay page all take it
    from here."""
    return mistake_view(analysis, m), min(m.at, analysis.steps)


def mistakes(analysis: Analysis) -> MistakeReport:
    """Every mistake of the five kinds, in event order.

    Players whose hand is known (written, or worked out from the record) are judged in their own
    view; the others in the public view, which finds only what the whole table could see.
    """
    game = analysis.game
    found: list[Mistake] = []
    found += _missed_claims(analysis)
    found += _wrong_claims(analysis)
    found += _asks(analysis)
    for v in game.violations:
        cost = (
            "a break of the order of play only: what it shows of the cards still counts"
            if v.turn_only
            else "the events after it are untrusted"
        )
        hand = analysis.hand_status(v.player) if v.player else "unknown"
        found.append(Mistake(v.event, v.player or "", "rule-break", None, v.message, cost, hand=hand))
    order = {k: i for i, k in enumerate(KINDS)}
    found.sort(key=lambda m: (m.event, order[m.kind], m.player))
    events = game.events
    numbers = game.record.numbers()
    found = [
        replace(m, number=numbers[m.event - 1], line=events[m.event - 1].line) if 0 < m.event <= len(events) else m
        for m in found
    ]
    players = game.record.players
    unjudged = [p for p in players if not analysis.has_view(p)]
    worked_out = [p for p in players if p in analysis.worked_out]
    return MistakeReport(found, unjudged, worked_out, unfinished=not game.finished)


def _missed_claims(analysis: Analysis) -> list[Mistake]:
    game = analysis.game
    events = game.events
    table = game.record.table
    out = []
    # The step where the record stops counts too: a claim left unmade there is still missed.
    last = min(len(events), analysis.steps)
    for player in game.record.players:
        view = judged_view(analysis, player)
        team = table.team_of(player)
        done: set[str] = set()
        for at in range(last + 1):
            step = game.step(at)
            if not may_claim(game, step, player):
                continue
            nxt = events[at] if at < len(events) else None
            holders = analysis.holders(view, at)
            for c in claimable(game, holders, view):
                if c.team != team or c.book.name in done:
                    continue
                done.add(c.book.name)
                if isinstance(nxt, Claim) and nxt.book == c.book and table.team_of(nxt.claimant) == team:
                    continue
                lost_cards = _cards_taken(game, c.book, team, after=at + 1)
                lost, fate = _fate(game, c.book, team)
                unclaimed = c.book.name not in game.final.books
                if not lost_cards and not lost and not unclaimed:
                    continue  # kept on purpose (a stalemate breaker) at no cost
                costs = []
                if lost_cards:
                    costs.append("opponents then took " + ", ".join(lost_cards))
                costs.append(f"{fate} (the record is unfinished)" if unclaimed else fate)
                after = game.record.after_label(at)
                when = after if nxt is not None else f"where the record stops, {after}"
                knew = (
                    f"{player} knew every card of {c.book.pretty}"
                    if view == player
                    else f"the whole table could see every card of {c.book.pretty} in {player}'s team"
                )
                out.append(
                    Mistake(
                        min(at + 1, len(events)),
                        player,
                        "missed-claim",
                        c.book.name,
                        f"{when} {knew} ({_where(holders, c.book)}) and {player} could claim, but did not",
                        "; ".join(costs),
                        _seen(holders, c.book),
                        hand=analysis.hand_status(player),
                        step=at,
                    )
                )
    return out


def _cards_taken(game: Game, book: Book, team: int, after: int) -> list[str]:
    """Cards of the book that opponents took from the team from event ``after`` on."""
    table = game.record.table
    taken = []
    for i, e in enumerate(game.events[after - 1 :], start=after):
        if isinstance(e, Ask) and e.yes and e.card in book.cards and table.team_of(e.asker) != team:
            taken.append(f"{e.card.pretty} ({game.record.event_label(i)})")
        if isinstance(e, Claim) and e.book == book:
            break
    return taken


def _wrong_claims(analysis: Analysis) -> list[Mistake]:
    game = analysis.game
    table = game.record.table
    out = []
    for i, e in enumerate(game.events[: analysis.steps + 1], start=1):
        if not isinstance(e, Claim) or e.correct:
            continue
        result = game.step(i).books.get(e.book.name)
        if result is None:
            continue
        cost = (
            f"{e.book.pretty} forfeited: nobody scores it"
            if result.outcome is Outcome.FORFEITED
            else f"{e.book.pretty} went to the opponents"
        )
        who = e.claimant
        view = judged_view(analysis, who)
        hand = analysis.hand_status(who)
        holders = analysis.holders(view, i - 1)
        team = table.team_of(who)
        sure = [c for c in claimable(game, holders, view) if c.book == e.book and c.team == team]
        placed = book_holders(holders, e.book)
        if sure:
            split = f"the right split ({_where(holders, e.book)})"
            why = (
                f"{who} could know {split} but declared another"
                if view == who
                else f"the whole table could see {split} but {who} declared another"
            )
        elif all(len(h) == 1 for h in placed.values()):
            theirs = ", ".join(f"{c.pretty} {h[0]}" for c, h in placed.items() if table.team_of(h[0]) != team)
            why = f"against what {who} could know: an opponent held {theirs}"
        elif view != who:
            why = (
                f"the claim of {e.book.pretty} failed; {who}'s hand is not known, "
                "so whether it was a guess is not judged"
            )
            out.append(Mistake(i, who, "wrong-claim", e.book.name, why, cost, hand=hand))
            continue
        elif any(table.team_of(p) != team for h in placed.values() for p in h):
            why = f"a guess: in {who}'s view an opponent could still hold a card ({_where(holders, e.book)})"
        else:
            why = f"a guess: the cards were with the team but the split was not known ({_where(holders, e.book)})"
        out.append(Mistake(i, who, "wrong-claim", e.book.name, why, cost, _seen(holders, e.book), hand=hand))
    return out


def _asks(analysis: Analysis) -> list[Mistake]:
    game = analysis.game
    out = []
    for i, e in enumerate(game.events[: analysis.steps + 1], start=1):
        if not isinstance(e, Ask):
            continue
        if not e.yes:
            out += _broken_lockouts(analysis, i, e)
        view = judged_view(analysis, e.asker)
        mine_h = analysis.holders(view, i - 1)
        card_holders = mine_h.get(e.card, ())
        if e.target in card_holders:
            continue
        if card_holders == (e.asker,):
            continue  # a deliberate bluff for a card the asker holds, or else a rule break, reported as one
        where = either(card_holders)
        whose = f"{e.asker}'s view" if view == e.asker else "the public view"
        book = game.record.rules.deck.book_of(e.card)
        out.append(
            Mistake(
                i,
                e.asker,
                "hopeless-ask",
                book.name,
                f"{e.target} could not hold {e.card.pretty} in {whose} (only {where} could)",
                f"the turn went to {e.target}",
                {e.card.code: list(card_holders)},
                hand=analysis.hand_status(e.asker),
            )
        )
    return out


def _broken_lockouts(analysis: Analysis, i: int, e: Ask) -> list[Mistake]:
    """A failed ask of an opponent who could then take a book (in the opponent's view). It is
    judged in the asker's own view where that view saw the whole book too: what the asker could
    have known, and why, is the coach's point. Else in the opponent's view, which shows the threat
    was real, the asker's part said in words."""
    game = analysis.game
    target_view = judged_view(analysis, e.target)
    theirs = analysis.holders(target_view, i - 1)
    asker_view = judged_view(analysis, e.asker)
    own = analysis.holders(asker_view, i - 1)
    found = []
    for book in threatened(game, theirs, e.target):
        _, fate = _fate(game, book, game.record.table.team_of(e.asker))
        seen = all(len(h) == 1 for h in book_holders(own, book).values())
        if seen:
            mine = f"; {e.asker} could see this too" if asker_view == e.asker else "; the whole table could see it"
        else:
            mine = f"; {e.asker} could not see it all ({_where(own, book)})" if asker_view == e.asker else ""
        judge = e.asker if seen and asker_view == e.asker else e.target
        found.append(
            Mistake(
                i,
                e.asker,
                "broken-lockout",
                book.name,
                f"{e.target} could take {book.pretty} if given the turn "
                f"({_where(theirs, book)}), and the failed ask gave it to them{mine}",
                f"the turn went to {e.target}; {fate}",
                _seen(own if judge == e.asker else theirs, book),
                hand=analysis.hand_status(judge),
                judged=None if judge == e.asker else judge,
            )
        )
    return found


# ---------------------------------------------------------------- odds in the mistakes


def exact_text(f: Fraction) -> str:
    """``3/7``, or ``1``: the form of the odds contract."""
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def quote_odds(
    analysis: Analysis,
    report: MistakeReport,
    workers: int = 1,
    progress: Progress | None = None,
    counted: CountedOdds | None = None,
) -> MistakeReport:
    """The same mistakes, each ask and wrong claim quoting the exact odds in the player's own view.

    Each quote is one count of deals; with ``workers > 1`` they are counted in worker processes.
    ``counted`` gives the odds of views and steps counted already (a report counts every step):
    an ask's quote is taken from there when its step is in it. ``progress(done, total)`` is
    called as each share of the mistakes is quoted.
    """
    from .pool import game_map

    judged = {v: analysis.worked_out.get(v) for v in analysis.views}
    parts = max(1, 4 * workers)
    numbered = list(enumerate(report.mistakes))
    chunks = [numbered[k::parts] for k in range(parts) if numbered[k::parts]]
    jobs = [(chunk, judged, counted or {}) for chunk in chunks]
    quoted = game_map(_quote, analysis.game, jobs, workers, counter(len(jobs), progress))
    merged = sorted((pair for part in quoted for pair in part), key=lambda pair: pair[0])
    return replace(report, mistakes=[m for _, m in merged])


def _quote(
    game: Game, job: tuple[list[tuple[int, Mistake]], dict[str, tuple[Card, ...] | None], CountedOdds]
) -> list[tuple[int, Mistake]]:
    """Quote the odds of some mistakes (numbered, so the caller can put them back in order).

    ``judged`` maps each view with a known hand to that hand when it is not written (worked out);
    ``counted`` holds odds counted already (``quote_odds``).
    """
    from fractions import Fraction

    from .odds import card_odds  # numpy: loaded only where odds are counted

    numbered, judged, counted = job
    trackers: dict[str, ViewTracker] = {}

    def position(view: str, at: int) -> Position:
        if view not in trackers:
            hand = judged[view]
            trackers[view] = view_tracker(game, view, None if hand is None else {view: hand})
        return trackers[view].position(at)

    quoted = []
    for k, m in numbered:
        e = game.events[m.event - 1] if m.event <= len(game.events) else None
        text = None
        if isinstance(e, Ask) and m.kind in ("hopeless-ask", "broken-lockout") and e.asker in judged:
            known = counted.get((e.asker, m.event - 1))
            share = (known if known is not None else card_odds(position(e.asker, m.event - 1)).cards)[e.card]
            chance = share.get(e.target, Fraction(0))
            # Beside the other opponents' chances alone: those are the players the asker could have asked.
            could = set(game.record.table.opponents(e.asker)) - {e.target}
            others = sorted(((f, p) for p, f in share.items() if p in could), reverse=True)
            text = f"the chance that {e.target} held {e.card.pretty} was {percent(chance)}"
            if others and others[0][0] > chance:
                text += f", while {others[0][1]}'s was {percent(others[0][0])}"
            elif chance > 0:
                text += ", the best of any opponent's"
        elif isinstance(e, Claim) and m.kind == "wrong-claim" and e.claimant in judged:
            right = claim_odds(position(e.claimant, m.event - 1), e)
            text = f"the declared split had a {percent(right)} chance of being right"
        quoted.append((k, replace(m, odds=text) if text else m))
    return quoted


# ---------------------------------------------------------------- explanations in the mistakes


def explain_mistakes(analysis: Analysis, report: MistakeReport) -> MistakeReport:
    """The same mistakes, each with the explanations of what the player could have known.

    A missed claim explains every card of the book; a wrong claim every card the claimant could
    know, and for each card they could not, who may hold it and one fitting deal that puts it
    elsewhere than declared; a hopeless ask why the asked player could not hold the card; a
    broken lockout why the opponent could take the book. Each in the view the mistake is judged
    in (``mistake_moment``: the player's own, or for a broken lockout the player could not see the
    opponent's; the public view where that hand is not known).
    """
    game = analysis.game
    from .explain import holds, lacks

    explainer = analysis.explainer
    found = []
    for m in report.mistakes:
        e = game.events[m.event - 1] if 0 < m.event <= len(game.events) else None
        view, at = mistake_moment(analysis, m)
        told: list[Explanation | NotKnown] = []
        if m.kind in ("missed-claim", "broken-lockout") and m.book is not None:
            ex = explainer(view, at)
            holders = analysis.holders(view, at)
            book = game.record.rules.deck.book(m.book)
            told = _each(ex, [holds(holders[c][0], c) for c in book.cards if c in holders])
        elif m.kind == "hopeless-ask" and isinstance(e, Ask):
            told = _each(explainer(view, at), [lacks(e.target, e.card)])
        elif m.kind == "wrong-claim" and isinstance(e, Claim) and m.known:
            told = _claim_explained(explainer(view, at), analysis.holders(view, at), e)
        found.append(replace(m, explanations=tuple(told)))
    return replace(report, mistakes=found)


def _each(ex: Explainer, statements: list[Statement]) -> list[Explanation | NotKnown]:
    """The explanations of the statements the rules can explain (all of them, as the solver found them)."""
    from .explain import Unexplained

    told: list[Explanation | NotKnown] = []
    for s in statements:
        with suppress(Unexplained):
            told.append(ex.explain(s))
    return told


def _claim_explained(ex: Explainer, holders: Holders, claim: Claim) -> list[Explanation | NotKnown]:
    """For each card of a claimed book: why its holder was known, why the declared holder was
    ruled out, or, when neither was known, a fitting deal that puts it elsewhere."""
    from .explain import holds, lacks

    told: list[Explanation | NotKnown] = []
    said = claim.said_map
    for c in claim.book.cards:
        h = holders.get(c, ())
        declared = said.get(c)
        if len(h) == 1:
            told += _each(ex, [holds(h[0], c)])
        elif declared is not None and declared not in h:
            told += _each(ex, [lacks(declared, c)])
        else:
            other = next(p for p in h if p != declared)
            deal = ex.witness(c, other)
            hidden = {card: deal[card] for card in ex.pos.in_play if card not in ex.pos.known}
            text = (
                f"{c.pretty} was not known: {either(h)} could hold it. One deal that fits puts it with "
                f"{other}: {deal_text(hidden, ex.pos.players)}."
            )
            told.append(NotKnown(c, h, other, hidden, text))
    return told


def deal_text(deal: dict[Card, str], players: tuple[str, ...]) -> str:
    """Cards of a deal player by player, in seat order: ``Ann 7♥ 9♣; Ben 2♠``."""
    hands: dict[str, list[str]] = {p: [] for p in players}
    for c, p in deal.items():
        hands[p].append(c.pretty)
    return "; ".join(f"{p} {' '.join(cs)}" for p, cs in hands.items() if cs)


def claim_odds(pos: Position, claim: Claim) -> Fraction:
    """The odds, in a view, that a claim's declared holders are all right."""
    from fractions import Fraction

    from .odds import count_deals  # numpy: loaded only where odds are counted

    said = claim.said_map
    if any(pos.known.get(c, said.get(c)) != said.get(c) for c in claim.book.cards if c in pos.known):
        return Fraction(0)
    narrowed = dict(pos.allowed)
    for c in claim.book.cards:
        if c in narrowed:
            if said.get(c) not in narrowed[c]:
                return Fraction(0)
            narrowed[c] = (said[c],)
    try:
        right = count_deals(replace(pos, allowed=narrowed))
    except NoFit:
        return Fraction(0)
    return Fraction(right, count_deals(pos))
