"""Two slow, obviously correct ways to count the deals that fit a position, for checking ``odds``.

- ``brute_force`` lists every way to give each never-shown card to a player allowed it, keeps
  those that fill every player's slots and meet every requirement, and counts them per card and
  player. Only for positions of a dozen cards or so.
- ``plain_count`` is the straightforward count: card by card, a table from (free slots left per
  player, the current book's requirements met so far) to the number of ways, in Python ints.
  No merging of players or cards, no closed forms. It is the baseline of
  ``scripts/bench_odds.py`` and an oracle for positions too big to list.

Both read a requirement as the code documents it: ``at_least`` holds when one of its cards was
dealt to the player, ``not_all`` fails when every one of its cards was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from analyzer.cards import Card, Deck
from analyzer.knowledge import PUBLIC, Position, Requirement


def unseen(
    deck: Deck,
    players: tuple[str, ...],
    allowed: dict[Card, tuple[str, ...]],
    slots: dict[str, int],
    at_least: Sequence[Requirement] = (),
    not_all: Sequence[Requirement] = (),
) -> Position:
    """The public view at the deal of a made-up position: the cards of ``allowed`` in play, none
    shown, each allowed to those players (the positions the counting tests build by hand)."""
    return Position(
        at=0,
        view=PUBLIC,
        deck=deck,
        players=players,
        in_play=tuple(c for c in deck.cards if c in allowed),
        known={},
        allowed=allowed,
        slots=slots,
        at_least=list(at_least),
        not_all=list(not_all),
    )


def brute_force(pos: Position) -> tuple[int, dict[Card, Counter[str]]]:
    """The fitting deals, and for each never-shown card how many put it at each player."""
    cards = list(pos.allowed)
    left = dict(pos.slots)
    deal: dict[Card, str] = {}
    at: dict[Card, Counter[str]] = {c: Counter() for c in cards}
    total = 0

    def fits() -> bool:
        if any(v != 0 for v in left.values()):
            return False
        if any(not any(deal.get(c) == r.player for c in r.cards) for r in pos.at_least):
            return False
        return not any(all(deal.get(c) == r.player for c in r.cards) for r in pos.not_all)

    def place(i: int) -> None:
        nonlocal total
        if i == len(cards):
            if fits():
                total += 1
                for c, p in deal.items():
                    at[c][p] += 1
            return
        c = cards[i]
        for p in pos.allowed[c]:
            if left.get(p, 0) > 0:
                left[p] -= 1
                deal[c] = p
                place(i + 1)
                left[p] += 1
                del deal[c]

    place(0)
    return total, at


def odds_from_counts(pos: Position, total: int, at: dict[Card, Counter[str]]) -> dict[Card, dict[str, Fraction]]:
    """Odds in the shape ``card_odds`` gives them: every card in play, players in seat order."""
    out: dict[Card, dict[str, Fraction]] = {}
    for c in pos.in_play:
        if c in pos.known:
            out[c] = {pos.known[c]: Fraction(1)}
        else:
            out[c] = {p: Fraction(at[c][p], total) for p in pos.players if at[c][p]}
    return out


def plain_count(pos: Position) -> int:
    """The fitting deals, counted card by card over the vector of free slots (see the module)."""
    players = pos.players
    index = {p: i for i, p in enumerate(players)}
    # Requirements are checked when the last of their cards has been dealt; cards go book by
    # book so that few are open at once.
    cards = sorted(pos.allowed, key=pos.in_play.index)
    reqs = [("at", r.player, r.cards) for r in pos.at_least]
    for r in pos.not_all:
        if not r.cards:
            return 0  # every one of no cards is with the player
        if all(c in pos.allowed for c in r.cards):
            reqs.append(("not", r.player, r.cards))  # else a card of it was not dealt here: it holds
    last = {}
    for j, (_, _, rcards) in enumerate(reqs):
        inside = [i for i, c in enumerate(cards) if c in rcards]
        if not inside:
            return 0  # an at_least none of whose cards is dealt here
        last[j] = max(inside)
    table: dict[tuple[tuple[int, ...], tuple[bool, ...]], int] = {
        (tuple(pos.slots[p] for p in players), tuple(kind == "not" for kind, _, _ in reqs)): 1
    }
    # Flag per requirement: at_least met so far / not_all: every card so far at the player.
    for i, c in enumerate(cards):
        nxt: dict[tuple[tuple[int, ...], tuple[bool, ...]], int] = {}
        for (free, flags), ways in table.items():
            for p in pos.allowed[c]:
                k = index[p]
                if free[k] == 0:
                    continue
                new_flags = list(flags)
                ok = True
                for j, (kind, who, rcards) in enumerate(reqs):
                    if c not in rcards:
                        continue
                    if kind == "at":
                        new_flags[j] = flags[j] or p == who
                    else:
                        new_flags[j] = flags[j] and p == who
                    if last.get(j) == i and new_flags[j] != (kind == "at"):
                        ok = False
                if not ok:
                    continue
                key = ((*free[:k], free[k] - 1, *free[k + 1 :]), tuple(new_flags))
                nxt[key] = nxt.get(key, 0) + ways
        table = nxt
    done = tuple(0 for _ in players)
    return sum(ways for (free, _), ways in table.items() if free == done)
