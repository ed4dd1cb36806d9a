"""A slow, obviously correct oracle: list every deal that fits a view by replaying the record.

It shares nothing with the solver but the replay's rule checks: it takes the cards the record
has shown (their dealt holder is the first holder shown), lets python-constraint enumerate every
way to deal the rest with the right hand sizes, and keeps the deals under which replaying the
events with every hand known breaks no rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from math import factorial, prod

import constraint

from analyzer.cards import Card
from analyzer.errors import RuleBreak
from analyzer.record import Ask, Claim, Record
from analyzer.replay import replay


def shown_origins(record: Record, at: int) -> dict[Card, str]:
    """Who was dealt each card the first ``at`` events show (the holder it is first seen with)."""
    origin: dict[Card, str] = {}
    for e in record.events[:at]:
        if isinstance(e, Ask) and e.yes:
            origin.setdefault(e.card, e.target)
        elif isinstance(e, Claim):
            for card, holder in e.truth.items():
                origin.setdefault(card, holder)
    return origin


def hidden_deals(record: Record, at: int, view: str) -> tuple[list[Card], dict[str, int], dict[Card, str]] | None:
    """The cards to enumerate, how many each player gets, and the fixed part of the deal."""
    fixed = shown_origins(record, at)
    if view != "public":
        for c in record.hands[view]:
            if fixed.setdefault(c, view) != view:
                return None
    sizes = record.deal_sizes
    used = Counter(fixed.values())
    free = {p: sizes[p] - used[p] for p in record.players}
    if any(n < 0 for n in free.values()):
        return None
    rest = [c for c in record.rules.deck.cards if c not in fixed]
    return rest, free, fixed


def deal_count_bound(record: Record, at: int, view: str) -> int:
    """How many deals the oracle would try (the multinomial of the free hand slots)."""
    found = hidden_deals(record, at, view)
    if found is None:
        return 0
    rest, free, _ = found
    return factorial(len(rest)) // prod(factorial(n) for n in free.values())


def fitting_deals(record: Record, at: int, view: str) -> Iterator[dict[Card, str]]:
    """Every full deal that fits the view after ``at`` events."""
    found = hidden_deals(record, at, view)
    if found is None:
        return
    rest, free, fixed = found
    players = [p for p in record.players if free[p] > 0]
    candidates: list[dict[Card, str]]
    if rest:
        problem = constraint.Problem()
        problem.addVariables([c.code for c in rest], players)
        for p in players:
            problem.addConstraint(constraint.SomeInSetConstraint([p], n=free[p], exact=True))
        codes = {c.code: c for c in rest}
        candidates = [{codes[k]: v for k, v in sol.items()} for sol in problem.getSolutions()]
    else:
        candidates = [{}]
    for extra in candidates:
        deal = {**fixed, **extra}
        hands = {p: tuple(c for c in record.rules.deck.cards if deal[c] == p) for p in record.players}
        trial = Record(record.table, record.rules, hands, body=list(record.events[:at]))
        try:
            replay(trial)
        except RuleBreak:
            continue
        yield deal


def location_after(record: Record, deal: dict[Card, str], at: int) -> dict[Card, str]:
    """Where every card still in play is after ``at`` events, from a full deal."""
    where = dict(deal)
    for e in record.events[:at]:
        if isinstance(e, Ask) and e.yes:
            where[e.card] = e.asker
        elif isinstance(e, Claim):
            for c in e.book.cards:
                where.pop(c, None)
    return where


def oracle_holders(record: Record, at: int, view: str) -> tuple[dict[Card, set[str]], int]:
    """Holders of every card in play over all fitting deals, and the number of such deals."""
    holders: dict[Card, set[str]] = {}
    n = 0
    for deal in fitting_deals(record, at, view):
        n += 1
        for c, p in location_after(record, deal, at).items():
            holders.setdefault(c, set()).add(p)
    return holders, n
