"""The rules of every variant, as data (rule set, deck, bluffing, house rules, seats and scoring),
and who may ask, claim and pass: the one place the replay checks events and the tactics judge them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from .cards import Book, Deck, DeckKind, make_deck
from .errors import RuleBreak


class RuleSet(Enum):
    """``literature``: claims on your own turn, a wrong split inside the team is forfeited.
    ``fish``: claims at any time, any wrong claim gives the book to the other team."""

    LITERATURE = "literature"
    FISH = "fish"


class HouseRule(Enum):
    """House rules, in their canonical order."""

    CLAIM_ANY_TIME = "claim-any-time"
    MUST_DECLARE = "must-declare"
    NEXT_ASKER = "next-asker"
    HIGH_DOUBLE = "high-double"


HOUSE_ORDER = tuple(HouseRule)


class Outcome(Enum):
    """How a claimed book was settled."""

    CORRECT = "correct"  # the claiming team scores it
    WRONG = "wrong"  # an opponent held a card, or fish rules: the other team scores it
    FORFEITED = "forfeited"  # literature: all in the team but a wrong split; nobody scores


@dataclass(frozen=True)
class GameRules:
    """Everything about a game that is fixed before the deal."""

    rule_set: RuleSet = RuleSet.LITERATURE
    deck_kind: DeckKind = DeckKind.STANDARD
    bluffing: bool = False
    house: frozenset[HouseRule] = frozenset()

    @property
    def deck(self) -> Deck:
        return make_deck(self.deck_kind)

    @property
    def claims_any_time(self) -> bool:
        """Whether a claim may be made on any player's turn."""
        return self.rule_set is RuleSet.FISH or HouseRule.CLAIM_ANY_TIME in self.house

    @property
    def must_declare(self) -> bool:
        return HouseRule.MUST_DECLARE in self.house

    @property
    def next_asker(self) -> bool:
        return HouseRule.NEXT_ASKER in self.house

    def points(self, book: Book) -> int:
        """What a book scores: 2 for a high book under ``high-double``, else 1."""
        return 2 if book.high and HouseRule.HIGH_DOUBLE in self.house else 1

    def wrong_claim_outcome(self, all_in_team: bool) -> Outcome:
        """Who scores a wrong claim: forfeited under literature when the team held every card."""
        if self.rule_set is RuleSet.LITERATURE and all_in_team:
            return Outcome.FORFEITED
        return Outcome.WRONG

    @property
    def house_text(self) -> str:
        return ", ".join(h.value for h in HOUSE_ORDER if h in self.house)


def deal_sizes(n_cards: int, n_players: int) -> tuple[int, ...]:
    """Cards dealt to each seat: one at a time from the first seat, so earlier seats get the extra."""
    base, extra = divmod(n_cards, n_players)
    return tuple(base + (1 if i < extra else 0) for i in range(n_players))


@dataclass(frozen=True)
class Table:
    """The players in seat order and their teams (seats alternate, first team first)."""

    teams: tuple[tuple[str, ...], tuple[str, ...]]

    @property
    def seats(self) -> tuple[str, ...]:
        a, b = self.teams
        return tuple(p for pair in zip(a, b, strict=True) for p in pair)

    def team_of(self, player: str) -> int:
        """1 for the first team of the ``Teams`` line, 2 for the second."""
        return 1 if player in self.teams[0] else 2

    def teammates(self, player: str) -> tuple[str, ...]:
        return self.teams[self.team_of(player) - 1]

    def opponents(self, player: str) -> tuple[str, ...]:
        return self.teams[2 - self.team_of(player)]

    def resolve(self, name: str) -> str | None:
        """The seated spelling of a name given in any case, or None."""
        low = name.lower()
        for p in self.seats:
            if p.lower() == low:
                return p
        return None


# ---------------------------------------------------------------- who may ask, claim and pass


@dataclass(frozen=True)
class Break:
    """One rule an event breaks: a stable code, the reason in words, and who broke it."""

    code: str
    message: str
    player: str


@dataclass(frozen=True)
class PlayState:
    """What the rules of who may act look at: the cards each player holds, whose turn it is (None
    before anyone has acted: whoever acts first has the first turn), the books claimed so far
    (name -> the claim's event number as the file writes it) and who made the claim just before,
    if the last event was one."""

    rules: GameRules
    table: Table
    counts: Mapping[str, int]
    turn: str | None
    claimed: Mapping[str, int]
    last_claimant: str | None = None
    # Cards each player may have lost to a wrong claim written without its split: ``counts``
    # are then the most they hold, and a rule that needs a count is applied only when sure.
    unsure: Mapping[str, int] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        """Every book has been claimed."""
        return len(self.claimed) == len(self.rules.deck.books)

    def surely_none(self, player: str) -> bool:
        return self.counts[player] == 0

    def surely_some(self, player: str) -> bool:
        return self.counts[player] - self.unsure.get(player, 0) > 0

    def team_out(self) -> int | None:
        """The team with no cards left, if one is surely out."""
        return next((t for t in (1, 2) if all(self.surely_none(p) for p in self.table.teams[t - 1])), None)

    def may_be_out(self, team: int) -> bool:
        """Whether the team may have no cards left (surely, unless a short wrong claim blurred the counts)."""
        return not any(self.surely_some(p) for p in self.table.teams[team - 1])


# Breaks of who may act when: the event itself (an ask and its answer, a claim and its check) still
# happened as written.
TURN_CODES = frozenset({"not-on-turn", "claim-turn", "pass-team", "pass-empty", "pass-with-cards"})


def _over(state: PlayState, player: str) -> list[Break]:
    return [Break("game-over", "the game is over: every book has been claimed", player)] if state.over else []


def ask_breaks(state: PlayState, asker: str, target: str, book: Book) -> list[Break]:
    """The rules ``asker`` asking ``target`` for a card of ``book`` breaks, in the order they are reported.

    Only the player on turn asks (anyone, before the first turn), an opponent who has cards, for a
    card of a book still in play, holding cards themselves. What the asker holds of the book is
    a matter of the hands, checked by the replay.
    """
    table = state.table
    found = _over(state, asker)
    if state.turn is not None and asker != state.turn:
        found.append(Break("not-on-turn", f"{asker} asks, but it is {state.turn}'s turn", asker))
    if table.team_of(target) == table.team_of(asker):
        what = "themselves" if target == asker else f"a teammate ({target})"
        found.append(Break("ask-teammate", f"{asker} asks {what}; asks go to an opponent", asker))
    if state.surely_none(asker):
        found.append(Break("asker-empty", f"{asker} has no cards and cannot ask", asker))
    if state.surely_none(target):
        found.append(Break("target-empty", f"{target} has no cards and cannot be asked", asker))
    if book.name in state.claimed:
        found.append(Break("claimed-card", f"{book.pretty} was claimed at event {state.claimed[book.name]}", asker))
    return found


def claim_breaks(state: PlayState, claimant: str, book: Book) -> list[Break]:
    """The rules ``claimant`` claiming ``book`` breaks (who may claim; the split is the replay's).

    Under literature rules only the player on turn claims. When a whole team is out of cards the
    other team claims every book left: the player on turn alone if their team has the turn, else
    an opponent with cards named by the player on turn, who takes the turn (both rules texts).
    """
    table = state.table
    found = _over(state, claimant)
    if book.name in state.claimed:
        found.append(
            Break("claimed-twice", f"{book.pretty} was already claimed at event {state.claimed[book.name]}", claimant)
        )
        return found
    if state.rules.claims_any_time or state.turn is None:
        return found
    team, turn_team = table.team_of(claimant), table.team_of(state.turn)
    if team == turn_team and state.team_out() == team:
        found.append(Break("claim-turn", f"{claimant}'s team has no cards; the other team claims", claimant))
    elif claimant != state.turn:
        if team == turn_team or not state.may_be_out(turn_team):
            found.append(Break("claim-turn", f"{claimant} claims on {state.turn}'s turn (literature rules)", claimant))
        elif state.surely_none(claimant):
            found.append(Break("claim-turn", f"the opponent named to claim needs cards; {claimant} has none", claimant))
    return found


def _pass_after_claim(state: PlayState, player: str) -> bool:
    """Under ``next-asker`` the team that just claimed names who asks next: the claimant or the player on turn."""
    last = state.last_claimant
    return (
        state.rules.next_asker
        and last is not None
        and state.table.team_of(last) == state.table.team_of(player)
        and player in (last, state.turn)
    )


def pass_breaks(state: PlayState, player: str, to: str) -> list[Break]:
    """The rules ``player`` passing the turn to ``to`` breaks.

    The turn passes to a teammate with cards when the player on turn has none left, or (house
    rule ``next-asker``) right after the team's claim, when the claimant may name themselves.
    """
    table = state.table
    found = _over(state, player)
    after_claim = _pass_after_claim(state, player)
    to_self = to == player and not (after_claim and player == state.last_claimant)
    if table.team_of(to) != table.team_of(player) or to_self:
        found.append(Break("pass-team", f"{player} can pass the turn only to a teammate, not {to}", player))
    if state.surely_none(to):
        found.append(Break("pass-empty", f"{to} has no cards and cannot take the turn", player))
    if not after_claim:
        if state.turn is not None and player != state.turn:
            found.append(Break("not-on-turn", f"{player} passes, but it is {state.turn}'s turn", player))
        elif state.surely_some(player):
            why = " (house rule next-asker lets a team pass right after its claim)" if state.rules.next_asker else ""
            found.append(
                Break(
                    "pass-with-cards",
                    f"{player} still has cards; the turn passes only when a player runs out{why}",
                    player,
                )
            )
    return found


def _check(found: list[Break]) -> None:
    if found:
        raise RuleBreak(found[0].message, code=found[0].code)


def check_ask(state: PlayState, asker: str, target: str, book: Book) -> None:
    """Raise RuleBreak with the first rule the ask breaks."""
    _check(ask_breaks(state, asker, target, book))


def can_ask(state: PlayState, asker: str, target: str, book: Book) -> bool:
    return not ask_breaks(state, asker, target, book)


def check_claim(state: PlayState, claimant: str, book: Book) -> None:
    """Raise RuleBreak with the first rule the claim breaks."""
    _check(claim_breaks(state, claimant, book))


def can_claim(state: PlayState, claimant: str, book: Book | None = None) -> bool:
    """Whether ``claimant`` may claim now (``book``, or some book still in play when None)."""
    if book is None:
        left = [b for b in state.rules.deck.books if b.name not in state.claimed]
        return bool(left) and not claim_breaks(state, claimant, left[0])
    return not claim_breaks(state, claimant, book)


def check_pass(state: PlayState, player: str, to: str) -> None:
    """Raise RuleBreak with the first rule the pass breaks."""
    _check(pass_breaks(state, player, to))


def can_pass(state: PlayState, player: str, to: str) -> bool:
    return not pass_breaks(state, player, to)


# What each event does to the turn: what happened, whether or not it was allowed (a lenient
# reading goes on from there, the player who acted taken to have had the turn).


def turn_after_ask(asker: str, target: str, yes: bool) -> str:
    """A ``yes`` leaves the turn with the asker, a ``no`` gives it to the player asked."""
    return asker if yes else target


def turn_after_claim(state: PlayState, claimant: str) -> str | None:
    """Under literature rules the claimant had the turn (or, for a team out of cards, was named
    to take it); a claim on any player's turn does not move it."""
    return state.turn if state.rules.claims_any_time else claimant
