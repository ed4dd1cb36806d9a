"""The rules of every variant, as data: rule set, deck, bluffing, house rules, seats and scoring."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .cards import Book, Deck, DeckKind, make_deck


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
