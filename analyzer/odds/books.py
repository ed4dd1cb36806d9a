"""Exact odds of who holds each card in a view, by counting every fitting deal.

Every fitting deal is equally likely, so the odds that card ``c`` is with ``p`` are (deals with
``c`` at ``p``) / (all deals). Deals are counted, never listed, with a generating function in one
variable per player: a never-shown card ``c`` contributes the factor ``sum of x_p`` over the
players allowed it, and the deals are the coefficient of ``prod x_p ** slots[p]`` in the product.

- A book's requirements become signed terms (inclusion-exclusion): "``p`` holds at least one of
  C" is all deals minus those where ``p`` is ruled out of C; "not all of C" is all deals minus
  those where every card of C is forced to ``p``. So each term is again a product of card factors.
- The product is built card by card over a box of exponent vectors, one dimension per *tracked*
  player. Players come in two kinds, chosen per position to keep the work small (``_plan``):
  *direct* players count the cards they get (up to their slots); the other players form a
  *pool* written ``S = sum of their x``: a card allowed to the whole pool contributes ``S``,
  which needs no dimension, and a pooled player left out of a card contributes ``-x``, counted
  in its dimension. The number of ``S`` factors follows from the total. Pooled players never
  singled out (early on, most of them) need no dimension at all: that is the merging of
  players in the same situation. Everyone but one player direct is the plain count by slots.
- Cards allowed to everyone and under no requirement (most cards early on) never enter the box:
  the ways to share them and the ``S`` factors out are a closed multinomial weight per state.
- Cards are taken a *group* at a time (a book's cards tied by requirements, or loose cards
  allowed the same players), in the order that keeps the box small: before a group the box only
  holds what the groups so far can give, and states from which a direct player can no longer
  fill its slots are dropped. What a group can give a direct player is bounded both ways by the
  deals of its cards that meet its requirements (a player who asked holds at least one).
- A group goes through the box one of three ways, whichever a cost model fitted on this
  project's machine expects to be fastest: card factor by card factor for each term; as its
  expanded polynomial, one shifted multiply-add per monomial; or, when the deals so far reach
  few of the box's states (early on), only those states, each moved by each monomial. Going
  back the sparse way, the values before a group are computed only where the next group back
  reads them. Polynomials are expanded for all terms at once, as rows over the exponent
  vectors of a simplex.
- The odds of a card come from a forward pass (the product of the factors before it) and a
  backward pass (the ways to complete after it): the deals with ``c`` at ``p`` are the sum over
  states of forward x backward moved by ``x_p``. Cards that look alike get one sum; pooled
  players nobody singles out share what is left in proportion to their slots; the free cards
  share what the other cards leave of each player's slots (``_shares``).

All arithmetic is modulo a few primes below 2**31 in numpy arrays (int64, one row per prime),
and the exact integers come back by the Chinese remainder theorem: there are enough primes for
their product to exceed a bound on the fitting deals that every result is below
(``arithmetic.fit_bound``; the odds pass needs only enough for the number of fitting deals).
Big boxes are counted modulo 2**64 first, where int64 wraps and nothing is reduced: there the
closed weights are whole numbers (``_Engine._whole_weights``).
"""

from __future__ import annotations

import copy
import itertools
import math
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..knowledge import Position
from . import parallel
from .arithmetic import (
    PRIMES,
    WRAP,
    add_scaled,
    binomials,
    bit_pieces,
    deal_bound,
    fit_bound,
    move,
    primes_for,
    residues,
    run_weight,
    stacked_tables,
    wrapped,
)
from .arithmetic import crt as _crt
from .routes import DEFAULT, Routes, TooLarge

Array = npt.NDArray[np.int64]

# Primes below 2**31: a product of two residues fits in 62 bits. A dot product over a box of
# 2**L states splits one side in pieces of 32 - L bits (at most 16) so no sum overflows int64.
_REDUCE_AT = 1 << 31  # values stay below p * 2**31 < 2**62 between reductions
_WORTH_PLANNING = 1 << 23  # plan cost (about array element steps) that pays for more plans
_WORTH_SEARCHING = 1 << 23  # ... and for a search among plans


# ---------------------------------------------------------------- the model


@dataclass
class _Group:
    """Cards counted together (a book's cards under requirements, or look-alike loose cards).

    ``terms`` are the inclusion-exclusion terms: a coefficient (+1 or -1 unless terms merged)
    and each card's allowed players (a bit mask over the players with slots). ``kinds[i]``
    lists the cards whose odds equal card i's; the first cards are one of each kind.
    """

    cards: list[Card]
    terms: list[tuple[int, tuple[int, ...]]]
    kinds: dict[int, list[Card]] = field(default_factory=dict)
    # Per player: the fewest and the most of the cards it holds in some deal meeting the
    # requirements (the support of the group's polynomial, which bounds the boxes).
    reach: tuple[tuple[int, int], ...] = ()

    @cached_property
    def counts(self) -> list[list[tuple[int, int]]]:
        """Per term, each distinct mask and how many cards have it."""
        return [list(Counter(masks).items()) for _, masks in self.terms]

    @cached_property
    def kind_masks(self) -> list[int]:
        """Per term, the masks of its first cards, one of each kind."""
        return [m[i] for _, m in self.terms for i in range(len(self.kinds))]


class _Table:
    """A model's groups as arrays: every distinct card mask (``masks``); per term, how many of its
    cards have each mask (``counts``, the terms of group g from row ``starts[g]`` on); per group,
    its terms, each player's reach (``reach_low``, ``reach_high``) and how many of its kinds'
    masks (one per kind and term, ``_Group.kind_masks``) hold each player (``kind_players``)."""

    def __init__(self, model: _Model) -> None:
        n = len(model.players)
        groups = model.groups
        self.masks = sorted({m for g in groups for _, ms in g.terms for m in ms})
        column = {m: k for k, m in enumerate(self.masks)}
        rows = [row for g in groups for row in g.counts]
        self.counts = np.zeros((len(rows), len(self.masks)), dtype=np.int64)
        for r, row in enumerate(rows):
            for m, k in row:
                self.counts[r, column[m]] = k
        self.starts = np.cumsum([0] + [len(g.terms) for g in groups[:-1]], dtype=np.intp)
        self.terms = [len(g.terms) for g in groups]
        reach = np.array([g.reach for g in groups], dtype=np.int64).reshape(len(groups), n, 2)
        self.reach_low, self.reach_high = reach[:, :, 0], reach[:, :, 1]
        self.kind_players = np.array(
            [[sum(m >> p & 1 for m in g.kind_masks) for p in range(n)] for g in groups], dtype=np.int64
        ).reshape(len(groups), n)


class _Model:
    """The position reduced to players with slots, card masks, groups and free cards."""

    def __init__(self, pos: Position) -> None:
        self.players = tuple(p for p in pos.players if pos.slots.get(p, 0) > 0)
        index = {p: i for i, p in enumerate(self.players)}
        self.slots = [pos.slots[p] for p in self.players]
        self.everyone = (1 << len(self.players)) - 1
        self.zero = any(s < 0 for s in pos.slots.values()) or sum(self.slots) != len(pos.allowed)
        mask: dict[Card, int] = {}
        for c, ps in pos.allowed.items():
            mask[c] = sum(1 << index[p] for p in ps if p in index)
            self.zero = self.zero or mask[c] == 0
        self.mask = mask
        # Requirements as (kind, player bit, cards); "at" = at least one, "not" = not all.
        reqs: list[tuple[str, int, frozenset[Card]]] = []
        for r in pos.at_least:
            cards = frozenset(c for c in r.cards if c in mask)
            bit = 1 << index[r.player] if r.player in index else 0
            if not any(mask[c] & bit for c in cards):
                self.zero = True
            reqs.append(("at", bit, cards))
        for r in pos.binding_not_all():
            cards = frozenset(r.cards)
            bit = 1 << index[r.player] if r.player in index else 0
            if not cards:
                self.zero = True
            elif all(c in mask and mask[c] & bit for c in cards):
                reqs.append(("not", bit, cards))
            # else the player cannot have been dealt them all: the requirement always holds
        self.reqs = reqs
        self.groups: list[_Group] = []
        self.free: list[Card] = []
        if not self.zero:
            self._group(pos, reqs)

    @cached_property
    def bound(self) -> int:
        """A bound on the fitting deals (``arithmetic.fit_bound``): what the moduli of a count pass."""
        return fit_bound(self.slots, list(self.mask.values()))

    @cached_property
    def table(self) -> _Table:
        """The groups' terms as arrays, for the plans (``_Plan``: a view weighs a few to twenty)."""
        return _Table(self)

    def likely_bits(self) -> float:
        """About log2 of the fitting deals, as though cards and requirements were independent:
        the deals ignoring every constraint, times the chance that each card goes to a player
        allowed it (the share of their slots) and that each requirement holds (by those shares).
        On every fifth view of four whole probing games (1,190 views), within two bits of the
        count on 819, at most five over, and more than four under on 24 (late views, of few
        cards). It only tells a counter how many primes to plan for, never the count (0 when the
        model already knows no deal fits)."""
        if self.zero:
            return 0.0
        n = sum(self.slots)
        bits = math.log2(deal_bound(self.slots))
        share: dict[Card, list[float]] = {}
        for c, m in self.mask.items():
            allowed = sum(s for p, s in enumerate(self.slots) if m >> p & 1)
            bits += math.log2(allowed / n)
            share[c] = [s / allowed if m >> p & 1 else 0.0 for p, s in enumerate(self.slots)]
        for kind, bit, cards in self.reqs:
            p = bit.bit_length() - 1  # (a player with slots: the model kept no other)
            if kind == "at":
                chance = 1 - math.prod(1 - share[c][p] for c in cards)
            else:
                chance = 1 - math.prod(share[c][p] for c in cards)
            bits += math.log2(max(chance, 2.0**-60))
        return bits

    def _group(self, pos: Position, reqs: list[tuple[str, int, frozenset[Card]]]) -> None:
        root: dict[Card, Card] = {c: c for c in self.mask}

        def find(c: Card) -> Card:
            while root[c] != c:
                root[c] = root[root[c]]
                c = root[c]
            return c

        for _, _, rcards in reqs:
            first, *rest = sorted(rcards, key=pos.deck.cards.index)
            for c in rest:
                root[find(c)] = find(first)
        bound: dict[Card, list[tuple[str, int, frozenset[Card]]]] = {}
        for r in reqs:
            bound.setdefault(find(next(iter(r[2]))), []).append(r)
        members: dict[Card, list[Card]] = {}
        loose: dict[int, list[Card]] = {}
        for c in pos.unknown:
            top = find(c)
            if top in bound:
                members.setdefault(top, []).append(c)
            elif self.mask[c] == self.everyone:
                self.free.append(c)
            else:
                loose.setdefault(self.mask[c], []).append(c)
        for top, same in members.items():
            self.groups.append(self._book(same, bound[top]))
        self.zero = not all(g.terms for g in self.groups)  # the terms of a book cancelled out
        for m, same in loose.items():
            n = len(self.players)
            reach = tuple((len(same) if m == 1 << p else 0, len(same) if m >> p & 1 else 0) for p in range(n))
            self.groups.append(_Group(same, [(1, tuple(m for _ in same))], {0: same}, reach))

    def _book(self, cards: list[Card], reqs: list[tuple[str, int, frozenset[Card]]]) -> _Group:
        """One group with its signed terms; cards alike (same mask and requirements) share odds."""
        needs = tuple(
            (kind == "at", bit, sum(1 << i for i, c in enumerate(cards) if c in rcards)) for kind, bit, rcards in reqs
        )
        kinds, terms, reach = _book_terms(tuple(self.mask[c] for c in cards), needs, len(self.players))
        order = [cards[i] for same in kinds for i in same[:1]] + [cards[i] for same in kinds for i in same[1:]]
        return _Group(order, list(terms), {k: [cards[i] for i in same] for k, same in enumerate(kinds)}, reach)


@lru_cache(maxsize=4096)
def _book_terms(
    masks: tuple[int, ...], needs: tuple[tuple[bool, int, int], ...], n: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, tuple[int, ...]], ...], tuple[tuple[int, int], ...]]:
    """A book's cards alike (indices into ``masks``, same mask and requirements), its signed terms
    over the cards in the order of ``_Group.cards`` (one of each kind first), and its reach (both
    empty when no deal of its cards meets the requirements). ``needs`` as in ``_reach``.

    The same book under the same requirements comes back at many steps of a game: made once."""
    alike: dict[tuple[int, tuple[bool, ...]], list[int]] = {}
    for i, m in enumerate(masks):
        alike.setdefault((m, tuple(bool(cards >> i & 1) for _, _, cards in needs)), []).append(i)
    kinds = tuple(tuple(same) for same in alike.values())
    order = [same[0] for same in kinds] + [i for same in kinds for i in same[1:]]
    # Every set of requirements taken as broken, with its sign; choosing more requirements
    # only takes players away from cards, so a set leaving a card to nobody ends its line.
    terms: dict[tuple[int, ...], int] = {}
    lines = [(0, tuple(masks[i] for i in order), 1)]
    while lines:
        j, now, sign = lines.pop()
        if j == len(needs):
            terms[now] = terms.get(now, 0) + sign
            continue
        lines.append((j + 1, now, sign))
        at, bit, cards = needs[j]
        keep = ~bit if at else bit
        narrowed = tuple(m & keep if cards >> i & 1 else m for i, m in zip(order, now, strict=True))
        if all(narrowed):
            lines.append((j + 1, narrowed, -sign))
    kept = tuple((coef, now) for now, coef in terms.items() if coef)
    place = {i: k for k, i in enumerate(order)}
    reach = _reach(
        tuple(masks[i] for i in order),
        tuple((at, bit, sum(1 << place[i] for i in range(len(masks)) if cards >> i & 1)) for at, bit, cards in needs),
        n,
    )
    if reach is None:
        return kinds, (), ()  # no deal of these cards meets the requirements
    return kinds, kept, reach


@lru_cache(maxsize=4096)
def _reach(
    masks: tuple[int, ...], needs: tuple[tuple[bool, int, int], ...], n: int
) -> tuple[tuple[int, int], ...] | None:
    """Per player, the fewest and the most of these cards it holds in a deal of them that meets
    the requirements; None when no deal does.

    ``needs`` are (at least one?, player bit, card bits): at least one of the cards, or not all
    of them, with the player. A walk over the cards keeps, per state of the requirements (which
    "at least one" are met, which "not all" the player still holds every card of so far), the
    fewest and the most cards of each player.
    """
    full = sum(1 << j for j, (at, _, _) in enumerate(needs) if not at)
    states: dict[int, tuple[list[int], list[int]]] = {full: ([0] * n, [0] * n)}
    for i, allowed in enumerate(masks):
        nxt: dict[int, tuple[list[int], list[int]]] = {}
        for state, (low, high) in states.items():
            for q in range(n):
                if not allowed >> q & 1:
                    continue
                s = state
                for j, (at, bit, cards) in enumerate(needs):
                    if cards >> i & 1:
                        if at and bit == 1 << q:
                            s |= 1 << j
                        elif not at and bit != 1 << q:
                            s &= ~(1 << j)
                lo = low[:]
                hi = high[:]
                lo[q] += 1
                hi[q] += 1
                if s in nxt:
                    seen_lo, seen_hi = nxt[s]
                    lo = list(map(min, seen_lo, lo))
                    hi = list(map(max, seen_hi, hi))
                nxt[s] = (lo, hi)
        states = nxt
    done = sum(1 << j for j, (at, _, _) in enumerate(needs) if at)
    ends = [bounds for state, bounds in states.items() if state == done]
    if not ends:
        return None
    return tuple((min(lo[p] for lo, _ in ends), max(hi[p] for _, hi in ends)) for p in range(n))


# ---------------------------------------------------------------- the plan

Factor = tuple[tuple[int, int], ...]  # (sign, dim) terms of a card factor; dim -1 is S
Terms = list[tuple[int, list[Factor]]]  # (coefficient, factor of each card of the group)


class _Box:
    """Exponent vectors with values ``low[t] .. low[t] + ranges[t] - 1`` in dim t, row-major.

    When there are several dims, each row of the last dim ends in one pad state kept at zero,
    so that moving the last dim by one is a move by one in memory and never carries over.
    """

    def __init__(self, low: list[int], high: list[int]) -> None:
        self.low = low
        self.high = high
        self.ranges = ranges = [max(0, h - lo + 1) for lo, h in zip(low, high, strict=True)]
        self.extents = [*ranges[:-1], ranges[-1] + 1] if len(ranges) > 1 else list(ranges)
        self.size = math.prod(self.extents)
        self.last = len(ranges) - 1
        self.padded = len(ranges) > 1

    @cached_property
    def views(self) -> list[tuple[int, int, int]]:
        """Per dim t: the (before, dim, after) shape that moves dim t in a 3-d view."""
        e = self.extents
        return [(math.prod(e[:t]), e[t], math.prod(e[t + 1 :])) for t in range(len(e))]

    @staticmethod
    def size_of(low: list[int], high: list[int]) -> int:
        """The size of the box from ``low`` to ``high``, without making it (0 when empty, which
        ``size`` is not: the plans only use this for their cost)."""
        n = 1
        for lo, h in zip(low, high, strict=True):
            n *= max(0, h - lo + 1)
        return n if len(low) < 2 else n // max(1, high[-1] - low[-1] + 1) * (max(0, high[-1] - low[-1] + 1) + 1)


class _Plan:
    """Which players are direct, pooled or tracked; every card factor; the groups' order and boxes.

    A tracked direct player's exponent counts the cards it gets; a tracked pooled player's counts
    the cards it is singled out of. Between groups the box holds the states the groups so far
    can reach and the rest can still complete: a direct player gets from each group between the
    fewest and the most cards a deal of it can give, and must be able to fill its slots from the
    groups left and the free cards. A pooled player gets room for one more, for a card
    forced onto it (the odds). A group works in the box from the lower bounds before it to the
    upper bounds after it. Groups go in the order that keeps that box smallest.

    So a group's box and the box after the group before it start at the same lower bounds, and a
    group's box and the box after it end at the same upper bounds: the sparse way back relies on
    both.
    """

    def __init__(self, model: _Model, direct: int, bound: float = math.inf) -> None:
        """The plan with ``direct`` players; left unfinished (its cost past ``bound``, the rest
        unset) once its cost so far is past ``bound``, as it cannot be the cheaper one then."""
        self.model = model
        self.direct = direct
        self.pool = pool = model.everyone & ~direct
        n = len(model.players)
        table = model.table
        moved = [_moved(m, direct, pool) for m in table.masks]  # per mask, the players its factor singles out
        mentioned = direct
        for who in moved:
            mentioned |= who
        self.mentioned = mentioned
        tracked = [p for p in range(n) if mentioned >> p & 1]
        dim = {p: t for t, p in enumerate(tracked)}
        d = len(tracked)
        at = np.array(tracked, dtype=np.int64)
        singles = (np.array(moved, dtype=np.int64)[:, None] >> at) & 1  # (mask, dim)
        is_direct = [bool(direct >> p & 1) for p in tracked]
        on = np.array(is_direct, dtype=np.bool_)
        # Per group and dim: the most any term gives it, and the least every deal of the group
        # gives a direct player; per group, the array moves of the forward walk. A direct
        # player's exponent is its share of the group's cards: what a deal of them meeting the
        # requirements can give it bounds the box both ways.
        if table.terms:
            most_a = np.maximum.reduceat(table.counts @ singles, table.starts, axis=0)
            ops = np.add.reduceat(table.counts @ singles.sum(axis=1), table.starts).tolist()
        else:
            most_a, ops = np.zeros((0, d), dtype=np.int64), []
        most_a = np.where(on, np.minimum(most_a, table.reach_high[:, at]), most_a)
        least_a = np.where(on, table.reach_low[:, at], 0)
        dots = (table.kind_players[:, at].sum(axis=1)).tolist()
        slots = [model.slots[p] for p in tracked]
        total = most_a.sum(axis=0).tolist()
        most: list[list[int]] = most_a.tolist()
        least: list[list[int]] = least_a.tolist()
        free = len(model.free)

        def low(so_far: list[int], given: list[int]) -> list[int]:
            return [max(given[t], slots[t] - (total[t] - so_far[t]) - free) if is_direct[t] else 0 for t in range(d)]

        def high(so_far: list[int]) -> list[int]:
            return [min(slots[t], so_far[t] + (0 if is_direct[t] else 1)) for t in range(d)]

        self.tracked = tracked
        self.dim = dim
        self.start = _Box([0] * d, [0] * d)
        self.impossible = any(low([0] * d, [0] * d))
        so_far = [0] * d
        given = [0] * d
        left = list(range(len(model.groups)))
        self.order: list[int] = []
        self.bounds: dict[int, tuple[list[int], list[int], list[int]]] = {}  # low, high, low after
        self.cost = 0
        self.count_cost = 0  # the cost without the odds: the way forward only
        extra = [0 if x else 1 for x in is_direct]  # (a pooled player's room for one more)
        while left:
            floor = low(so_far, given)
            # Each group left's box after the groups so far: the smallest goes next.
            lim = [s - lo + 1 for s, lo in zip(slots, floor, strict=True)]
            base = [x + e - lo + 1 for x, e, lo in zip(so_far, extra, floor, strict=True)]
            sizes = [math.prod(max(0, min(c, b + y)) for c, b, y in zip(lim, base, most[g], strict=True)) for g in left]
            best = left[min(range(len(left)), key=lambda k: (sizes[k], -ops[left[k]]))]
            left.remove(best)
            so_far = [x + y for x, y in zip(so_far, most[best], strict=True)]
            given = [x + y for x, y in zip(given, least[best], strict=True)]
            self.order.append(best)
            top = high(so_far)
            self.bounds[best] = (floor, top, low(so_far, given))
            box = _Box.size_of(floor, top)
            self.cost += box * (2 * ops[best] + 2 * dots[best] + table.terms[best])
            self.count_cost += box * (ops[best] + table.terms[best])
            if self.cost > bound:
                return
        self.impossible = self.impossible or any(
            lo > hi for _, top, after in self.bounds.values() for lo, hi in zip(after, top, strict=True)
        )

    @cached_property
    def by_mask(self) -> dict[int, Factor]:
        """Each card mask's factor: signed player variables (``_factor``)."""
        n = len(self.model.players)
        return {m: _factor(m, self.direct, self.pool, n) for m in self.model.table.masks}

    @cached_property
    def work(self) -> dict[int, _Box]:
        """The box each group works in."""
        return {g: _Box(low, high) for g, (low, high, _) in self.bounds.items()}

    @cached_property
    def after(self) -> dict[int, _Box]:
        """The box after each group."""
        return {g: _Box(after, high) for g, (_, high, after) in self.bounds.items()}

    @property
    def final(self) -> _Box:
        return self.after[self.order[-1]] if self.order else self.start

    @property
    def biggest(self) -> int:
        """The states of the biggest box the count goes through."""
        return max(b.size for b in [self.final, *self.work.values()])

    @cached_property
    def factors(self) -> list[Terms]:
        """Per group, its terms with each card's factor over the dims of the box."""
        dims = {m: tuple((s, self.dim[p] if p >= 0 else -1) for s, p in f) for m, f in self.by_mask.items()}
        return [[(coef, [dims[m] for m in masks]) for coef, masks in g.terms] for g in self.model.groups]


@lru_cache(maxsize=4096)
def _factor(allowed: int, direct: int, pool: int, n: int) -> tuple[tuple[int, int], ...]:
    """A card allowed to ``allowed`` as signed player variables; player -1 stands for ``S``.

    Direct players appear as themselves. The pooled players allowed appear as ``S`` minus those
    left out, or as themselves, whichever singles out fewer players.
    """
    both = allowed & direct
    out = [(1, p) for p in range(n) if both >> p & 1]
    mine = allowed & pool
    if mine == pool:
        out.append((1, -1))
    elif mine:
        left = pool & ~mine
        if left.bit_count() <= mine.bit_count():
            out += [(1, -1)] + [(-1, p) for p in range(n) if left >> p & 1]
        else:
            out += [(1, p) for p in range(n) if mine >> p & 1]
    return tuple(out)


def _moved(allowed: int, direct: int, pool: int) -> int:
    """The players ``_factor`` singles out of a card allowed to ``allowed`` (as bits): those it
    moves the count of."""
    mine = allowed & pool
    if not mine or mine == pool:
        return allowed & direct
    left = pool & ~mine
    return allowed & direct | (left if left.bit_count() <= mine.bit_count() else mine)


def _plan(model: _Model, search: bool = True, plain: _Plan | None = None) -> _Plan:
    """The cheapest of a few plans: the players most often ruled out of cards made direct first
    (without ``search``, the better of the two plainest, which a search starts from: ``plain``
    when already made).

    A pooled player's dimension grows with the cards it is singled out of, a direct player's
    with the cards it may get; everyone but one player direct is the plain count by players.
    """
    n = len(model.players)
    if not model.groups:
        return _Plan(model, 0)
    # Per player, over the groups, the most cards of a term allowed to it and the most not.
    table = model.table
    inside = table.counts @ ((np.array(table.masks, dtype=np.int64)[:, None] >> np.arange(n)) & 1)  # (term, player)
    cards = np.array([len(g.cards) for g in model.groups], dtype=np.int64)[:, None]
    out_of = (cards - np.minimum.reduceat(inside, table.starts, axis=0)).sum(axis=0).tolist()
    into = np.maximum.reduceat(inside, table.starts, axis=0).sum(axis=0).tolist()

    def gain(p: int) -> tuple[float, int]:
        pooled = min(model.slots[p], out_of[p] + 1) + 1 if out_of[p] else 1
        return (pooled / (min(model.slots[p], into[p]) + 1), out_of[p])

    order = sorted(range(n), key=gain, reverse=True)
    candidates = [0]
    for p in order[:-1]:
        candidates.append(candidates[-1] | 1 << p)
    # The two ends first; the others (and every choice of the one player left out of the plain
    # count) only when the count is big enough to pay for trying them.
    # (A plan is left unfinished once it costs more than the best so far: see ``_Plan``.)
    if plain is None:
        last = _Plan(model, candidates[-1])
        first = _Plan(model, candidates[0], bound=last.cost)
        plain = first if first.cost <= last.cost else last
    best = plain
    if not search:
        return best
    if best.cost > _WORTH_PLANNING:
        candidates += [model.everyone & ~(1 << p) for p in order[:-1]]
        for d in candidates[1:-1]:
            plan = _Plan(model, d, bound=best.cost)
            if plan.cost < best.cost:
                best = plan
    # For the biggest counts, then move one player at a time while that helps.
    tried = set(candidates)
    while best.cost > _WORTH_SEARCHING:
        moves = [best.direct ^ 1 << p for p in range(n)]
        plans = [_Plan(model, d, bound=best.cost) for d in moves if d not in tried and d != model.everyone]
        tried.update(moves)
        better = min(plans, key=lambda plan: plan.cost, default=best)
        if better.cost >= best.cost:
            break
        best = better
    return best


# ---------------------------------------------------------------- books as one polynomial

# A polynomial over the dims of a box: exponent vectors packed _BITS bits a dim, to coefficients.
Poly = tuple[tuple[int, int], ...]
_BITS = 8
_SLICED = 1.75  # a shifted multiply-add over several dims costs about this many whole-box moves
_DOT = 1.4  # ... and a dot product moved in one dim
_CORRELATE = 4  # ... and one moved in several dims
# Nanoseconds (fitted on this project's machine) of going through a group, forward and back
# with the odds: through the whole box, per state and prime for each move, and per move;
# sparsely, per live (or needed) state, prime and monomial, and once. The values needed back in
# all of a box cost per state, prime and monomial. ``Routes.sparse_bias_ns`` moves the choice.
_NS_FORWARD = (0.8, 17_000, 6.5, 200_000)
_NS_BACK = (1.4, 6_600, 7.0, 300_000)
_NS_SLICE = 6.0
_FEW_MONOMIALS = 20  # fewer monomials than this are rare: no need to expand to find out
_MOST_READS = 8  # moved states (with repeats) past this many times a box's size surely cover most of it
_RUN_STATES = 1 << 20  # below _ONE_A_RUN, a run takes as many primes as keep the biggest box within this many states
_ONE_A_RUN = 200_000  # from a box of this many states, a prime a run
# From a box of this many states, 2**64 first, in a run of its own. Timed on the slow views of
# the whole 8-player jokers games the book-by-book count takes, best of two in alternation: from
# 2**16 rather than from _ONE_A_RUN, the 56 views of 60 ms or more took 0.93 of the time (boxes
# of 65,536 to 200,000 states 0.77 to 0.9); from 2**14, 131 views of 12 to 80 ms took 0.97, but
# some 1.12 to 1.16 times as long.
_WRAP_FROM = 1 << 16
_SLICE = 1 << 18  # states a dot product over the final box takes at once
_MAX_GATHER = 1 << 23  # states times monomials times primes gathered at once, at most
# Bytes of the walks inside groups the forward pass keeps for the way back (which walks the rest
# again): on the biggest views they were most of the memory, 200-450 MiB, for a tenth of the time.
_KEEP_BYTES = 48 << 20
# Bytes of the states moved by each monomial (``_Engine._targets``) kept for the other runs of a
# count, which move the same live states by the same monomials.
_KEEP_TARGETS = 64 << 20


def _times(poly: dict[int, int], factor: Factor) -> dict[int, int]:
    """``poly`` times one card factor (dim -1, the ``S``, moves nothing)."""
    out: dict[int, int] = {}
    for sign, t in factor:
        shift = 1 << (_BITS * t) if t >= 0 else 0
        for key, c in poly.items():
            k = key + shift
            out[k] = out.get(k, 0) + (c if sign > 0 else -c)
    return out


def _expand_into(total: dict[int, int], terms: Sequence[tuple[int, Sequence[Factor]]]) -> None:
    """Add up the expanded products of the terms; terms sharing their first factors (once sorted)
    share those partial products."""
    keyed = sorted((sorted(factors), coef) for coef, factors in terms)
    stack: list[tuple[Factor, dict[int, int]]] = []
    for factors, coef in keyed:
        common = 0
        while common < len(stack) and common < len(factors) and stack[common][0] == factors[common]:
            common += 1
        del stack[common:]
        poly = stack[-1][1] if stack else {0: 1}
        for f in factors[common:]:
            poly = _times(poly, f)
            stack.append((f, poly))
        for k, c in poly.items():
            total[k] = total.get(k, 0) + coef * c


@lru_cache(maxsize=64)
def _simplex(n: int, d: int) -> tuple[Array, list[tuple[Array, Array]]]:
    """The exponent vectors of d dims with sum at most n (a book's polynomials have no more):
    their packed keys, and per dim the (from, to) indices of moving by one in it."""
    vectors: list[tuple[int, ...]] = [()]
    for _ in range(d):
        vectors = [(*v, x) for v in vectors for x in range(n + 1 - sum(v))]
    index = {v: i for i, v in enumerate(vectors)}
    keys = np.array([sum(x << (_BITS * t) for t, x in enumerate(v)) for v in vectors], dtype=np.int64)
    moves = []
    for t in range(d):
        pairs = [(i, index[(*v[:t], v[t] + 1, *v[t + 1 :])]) for i, v in enumerate(vectors) if sum(v) < n]
        moves.append((np.array([a for a, _ in pairs], dtype=np.intp), np.array([b for _, b in pairs], dtype=np.intp)))
    return keys, moves


# Books are expanded monomial by monomial when the rows (terms times exponent vectors) would be
# too many, or so few that numpy's overhead would not pay.
_SIMPLEX_MOST = 1 << 16


def _rows(factors: Sequence[Sequence[Factor]], least: int, skip: int | None = None) -> tuple[Array, Array] | None:
    """Every term's product of card factors (card ``skip`` left out) as a row of coefficients
    over the exponent vectors of a simplex, all terms at once; with the simplex's packed keys.
    None when the rows would be too many or too few."""
    n = len(factors[0]) - (skip is not None)
    d = 1 + max((t for fs in factors for f in fs for _, t in f), default=-1)
    if not least <= math.comb(n + d, d) * len(factors) <= _SIMPLEX_MOST:
        return None
    keys, moves = _simplex(n, d)
    rows = np.zeros((len(factors), len(keys)), dtype=np.int64)
    rows[:, 0] = 1
    for c in range(len(factors[0])):
        if c == skip:
            continue
        signs = np.zeros((len(factors), d + 1), dtype=np.int64)  # column d: the S
        for r, fs in enumerate(factors):
            for sign, t in fs[c]:
                signs[r, t] = sign  # t = -1 is column d
        out = rows * signs[:, d : d + 1]
        for t in range(d):
            if signs[:, t].any():
                src, dst = moves[t]
                out[:, dst] += rows[:, src] * signs[:, t : t + 1]
        rows = out
    return rows, keys


def _poly_of(coefs: Array, keys: Array, shift: int = 0) -> Poly:
    nonzero = np.flatnonzero(coefs)
    return tuple(zip((keys[nonzero] + shift).tolist(), coefs[nonzero].tolist(), strict=True))


@lru_cache(maxsize=1024)
def _expand(terms: tuple[tuple[int, tuple[Factor, ...]], ...], least: int) -> Poly:
    """The sum of the terms' products as a polynomial, its zero coefficients dropped."""
    rows = _rows([fs for _, fs in terms], least)
    if rows is None:
        total: dict[int, int] = {}
        _expand_into(total, terms)
        return tuple((k, c) for k, c in total.items() if c)
    products, keys = rows
    return _poly_of(np.array([coef for coef, _ in terms], dtype=np.int64) @ products, keys)


@dataclass(frozen=True)
class _OddsPolys:
    """A group's odds polynomials (``_expand_odds``): which (card i, player q) each is for, the
    monomials of all of them (sorted), and their coefficients as a table (monomials x polys)."""

    which: list[tuple[int, int]]
    keys: list[int]
    packed: Array  # the keys as an array
    table: Array


@lru_cache(maxsize=1024)
def _odds_polys(
    terms: tuple[tuple[int, tuple[Factor, ...], tuple[int, ...]], ...],
    kinds: int,
    dims: tuple[tuple[int, int], ...],
    least: int,
) -> _OddsPolys:
    """``_expand_odds`` as a table over the monomials, made once per group of cards alike."""
    polys = _expand_odds(terms, kinds, dims, least)
    keys = sorted({key for _, poly in polys for key, _ in poly})
    column = {key: j for j, key in enumerate(keys)}
    table = np.zeros((len(keys), len(polys)), dtype=np.int64)
    for j, (_, poly) in enumerate(polys):
        table[[column[key] for key, _ in poly], j] = _coefficients(poly)
    return _OddsPolys([which for which, _ in polys], keys, np.array(keys, dtype=np.int64), table)


def _expand_odds(
    terms: tuple[tuple[int, tuple[Factor, ...], tuple[int, ...]], ...],
    kinds: int,
    dims: tuple[tuple[int, int], ...],
    least: int,
) -> tuple[tuple[tuple[int, int], Poly], ...]:
    """Per card i of the first ``kinds`` and tracked player q (with its dim t in ``dims``): the
    polynomial of the terms with card i at q, that is ``x_q`` times the other cards' factors,
    over the terms allowing q card i."""
    out = []
    coefs = np.array([coef for coef, _, _ in terms], dtype=np.int64)
    for i in range(kinds):
        rows = _rows([fs for _, fs, _ in terms], least, skip=i)
        if rows is None:
            out += _expand_odds_by_dicts(terms, i, dims)
            continue
        products, keys = rows
        for q, t in dims:
            allowed = np.array([masks[i] >> q & 1 for _, _, masks in terms], dtype=np.int64)
            poly = _poly_of((coefs * allowed) @ products, keys, 1 << (_BITS * t))
            if poly:
                out.append(((i, q), poly))
    return tuple(out)


def _expand_odds_by_dicts(
    terms: tuple[tuple[int, tuple[Factor, ...], tuple[int, ...]], ...], i: int, dims: tuple[tuple[int, int], ...]
) -> list[tuple[tuple[int, int], Poly]]:
    """As ``_expand_odds`` for card i, monomial by monomial (for books too big for a simplex);
    terms giving card i the same players are expanded once."""
    by_mask: dict[int, list[tuple[int, list[Factor]]]] = {}
    for coef, factors, masks in terms:
        by_mask.setdefault(masks[i], []).append((coef, [*factors[:i], *factors[i + 1 :]]))
    expanded: dict[int, dict[int, int]] = {}
    for m, ts in by_mask.items():
        expanded[m] = {}
        _expand_into(expanded[m], ts)
    out = []
    for q, t in dims:
        total: dict[int, int] = {}
        for m, part in expanded.items():
            if m >> q & 1:
                for k, c in part.items():
                    total[k] = total.get(k, 0) + c
        shift = 1 << (_BITS * t)
        poly = tuple((k + shift, c) for k, c in total.items() if c)
        if poly:
            out.append(((i, q), poly))
    return out


def _unpack(key: int, d: int) -> list[int]:
    mask = (1 << _BITS) - 1
    return [key >> (_BITS * t) & mask for t in range(d)]


# ---------------------------------------------------------------- counting


class BookCount:
    """Counts deals (and deals with each card at each player) book by book, modulo primes (and
    2**64, on big boxes), then exactly."""

    def __init__(self, pos: Position, routes: Routes = DEFAULT, odds: bool = True) -> None:
        self.model = _Model(pos)
        self.routes = routes
        self.odds = odds  # whether the costs are of a count with the odds
        self.unknown = len(pos.allowed)

    @cached_property
    def plain(self) -> _Plan | None:
        """The better of the two plainest plans (None when no deal fits the model): the plan
        itself unless the count is big enough to pay for searching for a cheaper one."""
        return None if self.model.zero else _plan(self.model, search=False)

    @cached_property
    def plan(self) -> _Plan | None:
        """The cheapest plan found (or ``plain``, once ``take_plain``); None when no deal fits for
        a reason seen before counting."""
        plain = self.plain
        if plain is None:
            return None
        small = plain.cost <= min(_WORTH_PLANNING, _WORTH_SEARCHING)  # (no search would be made)
        plan = plain if small else _plan(self.model, plain=plain)
        return None if plan.impossible else plan

    def take_plain(self) -> None:
        """Count with ``plain`` as it is, without searching for a cheaper plan (the router, where
        the search would likely not pay: ``Routes.plain_is_quick``, ``plain_beats_folds``,
        ``plain_will_do``). Callers check first that it fits (``plain_cost`` is not None)."""
        plain = self.plain
        self.__dict__["plan"] = None if plain is None or plain.impossible else plain
        self.__dict__.pop("biggest", None)  # (of the plan it replaces, if already read)

    @property
    def plain_cost(self) -> int | None:
        """The cost of ``plain`` (the plan's is at most that), when it is possible and fits the
        memory bound: what the router weighs before searching for a cheaper plan."""
        plain = self.plain
        if plain is None or plain.impossible:
            return None
        if plain.biggest > self.routes.max_states:
            return None
        return plain.cost if self.odds else plain.count_cost

    @cached_property
    def biggest(self) -> int:
        """The states of the biggest box the count goes through."""
        return 0 if self.plan is None else self.plan.biggest

    @property
    def fits(self) -> bool:
        """Whether the count stays within the memory bound."""
        return self.biggest <= self.routes.max_states

    @property
    def cost(self) -> int:
        """The plan's estimated cost (about array element steps), with the odds or not
        (``odds``)."""
        if self.plan is None:
            return 0
        return self.plan.cost if self.odds else self.plan.count_cost

    def run(self, odds: bool) -> tuple[int, dict[Card, dict[str, int]]]:
        """The fitting deals and, with ``odds``, the deals with each card at each player;
        ``TooLarge`` past the memory bound."""
        model, plan = self.model, self.plan
        if plan is None:
            return 0, {}
        if not self.fits:
            raise TooLarge(f"{self.biggest:,} states book by book")
        # From ``_WRAP_FROM`` states, 2**64 first, in a run of its own: 64 bits a row where a prime
        # gives 31, and nothing to reduce. The primes go as many a run as ``_run_primes`` says.
        sequence = (WRAP, *PRIMES) if self.biggest >= _WRAP_FROM else PRIMES
        moduli = primes_for(model.bound, sequence)
        engine = _Engine(plan, moduli, self.routes)
        first = 1 if moduli[0] == WRAP else 0
        step = _run_primes(self.biggest, len(moduli) - first)
        spans = [(0, 1)] * first + [(r, min(r + step, len(moduli))) for r in range(first, len(moduli), step)]

        def forward(lo: int, hi: int) -> tuple[Array, _Ran | None]:
            one = engine.primes_from(lo, hi)
            total, ahead = one.forward(odds)
            one.live = {}  # (the way back finds them again for the moduli it needs)
            return total, (one, ahead) if odds else None

        # The runs at once, in threads (``parallel``), the primes' first (2**64's has nothing to
        # reduce), on big boxes alone: as many as keep their boxes together within the memory
        # bound (``Routes.max_states``), where one run alone might take a box up to it.
        room = self.routes.max_states // max(1, self.biggest)
        workers = max(1, min(parallel.threads(), len(spans), room)) if self.biggest >= _WRAP_FROM else 1

        def ready() -> None:
            """The polynomials of the odds the way back applies (made once, kept for the next
            views): made here while the ways forward go."""
            for g in engine.back_polys if odds else ():
                engine._odds_polys(g)

        weights = [run_weight(engine.primes[lo:hi]) for lo, hi in spans]
        done = parallel.run_all([partial(forward, lo, hi) for lo, hi in spans], workers, weights, ready)
        deals = _crt(np.concatenate([total for total, _ in done]), moduli)
        engine.gathers.forget("forward")  # (the ways back move other states, or by other monomials)
        runs = [ran for _, ran in done if ran is not None]
        del done
        if not odds or deals == 0:
            return deals, {}
        # Every count from here on is at most ``deals``: fewer moduli will do.
        k = len(primes_for(deals, moduli))
        ends = list(itertools.accumulate(one.k for one, _ in runs))
        waiting = dict(enumerate(runs[: sum(1 for end in ends if end < k) + 1]))  # (not the moduli past those)
        del runs

        def backward(r: int) -> tuple[int, dict[tuple[Card, int], Array]]:
            one, ahead = waiting.pop(r)  # (its forward pass let go of once gone back through)
            use = min(one.k, k - (ends[r] - one.k))
            return use, one.primes_from(0, use).backward(ahead, use)

        heavy = [run_weight(one.primes) for one, _ in waiting.values()]
        counted = parallel.run_all([partial(backward, r) for r in waiting], workers, heavy)
        # Where moduli went different ways through a group (their states not zero differ), a
        # pair one of them left out is a pair no deal has: zero.
        keys = set().union(*(ways for _, ways in counted))
        nothing = {use: np.zeros(use, dtype=np.int64) for use, _ in counted}
        found = {key: np.concatenate([ways.get(key, nothing[use]) for use, ways in counted]) for key in keys}
        return deals, _shares(model, plan, deals, found, moduli[:k])


# With the odds, what a run's way forward leaves for its way back (``BookCount.run``): its engine
# and its forward pass.
_Ran = tuple["_Engine", "_Forward"]


def _run_primes(biggest: int, k: int) -> int:
    """How many of the count's ``k`` primes a run takes, forward and back, its biggest box having
    ``biggest`` states: one from ``_ONE_A_RUN`` states; below, as many as keep the box within
    ``_RUN_STATES`` states (which with the four or five primes of a count is all of them: a run
    a prime only repeats the work of going through the plan).

    Timed: on arrays a fourth or fifth the size, a prime a run was about a third faster than
    all at once, and the biggest views need half the memory (one after another: runs in threads
    hold the boxes of several at once, as many as the memory bound allows). On the 8-player jokers game's
    public views after events 42 to 60 (boxes of 265,000 to 296,000 states), three primes a run
    once took 0.67 to 0.95 of the time of one (docs/speed-history.md, "The fold's big boxes a few primes a
    run"). Timed again since, in alternation in one process, on the 143 views of the 8-player
    probing games that go book by book through boxes of 2**16 states or more (the openings,
    seeds 0 to 3; the whole jokers games, seeds 0 to 2, standard, seeds 0 and 1, and
    must-declare, seed 0): the 33 with boxes of 200,000 states or more went a prime a run in
    0.82 to 0.96 of the time the rule before took, 14.8 -> 13.3 s in all, and one prime was the
    quickest (or within 2%) on 28 of them; on the 110 others, all primes at once took 12.6 s in
    all, a prime a run 14.1 s (up to 1.39 times as long on one view)."""
    if biggest >= _ONE_A_RUN:
        return 1
    return max(1, min(k, _RUN_STATES // max(1, biggest)))


@dataclass
class _Sparse:
    """The live states of a box (flat indices and coordinates, dims first) with the group's
    polynomial; going back, the states where values are needed (None: all)."""

    live: Array
    coords: Array
    poly: Poly
    needed: Array | None = None


@dataclass
class _Forward:
    """What the forward pass leaves for the way back: the count of deals (per prime), the counts
    before each group, each walked group's first steps per term, and the weights of the final
    states. (The free cards' odds need none of it: ``_shares``.)"""

    total: Array
    before: dict[int, Array]
    ahead: dict[int, list[list[Array]]]
    weight: Array


class _Targets:
    """The states each live state of a group goes to by each monomial (``_Engine._targets``), made
    once for all the runs of a count: each run (a modulus or a few) moves the live states of a
    sparse group by the same monomials, and the live states are the same for every modulus but
    where a count happens to be a multiple of one. On the slowest sparse views (seed 0's public
    view after event 50 of the 8-player jokers game) they were made seven times a group, 13 to
    16 ms each.

    Runs go in threads (``parallel``): the first to ask for a group's states makes them and the
    others wait for it, then check that their live states are the same (else they make their
    own). At most ``_KEEP_TARGETS`` bytes are kept; past that, each run makes its own."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[tuple[int, str], _Made] = {}
        self._bytes = 0

    def get(self, key: tuple[int, str], live: Array, make: Callable[[], Array]) -> Array:
        """The states for ``key`` (a group and which monomials) from the states ``live``: kept
        ones, if made from the same states, or ``make()``."""
        with self._lock:
            made = self._kept.get(key)
            mine = made is None
            if made is None:
                made = self._kept[key] = _Made(live)
        if not mine:
            made.done.wait()
            if made.targets is not None and np.array_equal(made.live, live):
                return made.targets
            return make()
        try:
            targets = make()
            with self._lock:
                if self._bytes + targets.nbytes <= _KEEP_TARGETS:
                    self._bytes += targets.nbytes
                    made.targets = targets
            return targets
        finally:
            made.done.set()  # (given up or failed: the runs waiting make their own)

    def forget(self, which: str) -> None:
        """Let go of the targets made for ``which`` (once every run is past them)."""
        with self._lock:
            for key in [key for key in self._kept if key[1] == which]:
                targets = self._kept.pop(key).targets
                self._bytes -= 0 if targets is None else targets.nbytes


@dataclass
class _Made:
    """A group's targets (``_Targets``), once made, from these live states."""

    live: Array
    targets: Array | None = None
    done: threading.Event = field(default_factory=threading.Event)


class _Engine:
    """The forward and backward passes over the boxes, for the engine's primes (one row each):
    all of them, or for a big box a few at a time (``primes_from``).

    Arrays are (primes, states). Moving the last dim by one is a move by one in memory (its pad
    is kept zero); moving another is a slice of a 4-d view (primes, before, dim, after).
    Values are reduced modulo the primes only as often as needed to stay clear of overflow; an
    engine modulo 2**64 (``wrap``) reduces nothing, and its dot products take one piece, the array itself.
    """

    def __init__(self, plan: _Plan, primes: Sequence[int], routes: Routes) -> None:
        self.routes = routes
        self.plan = plan
        self.model = plan.model
        self.primes = list(primes)
        self.k = len(primes)
        # The primes the ways through a group are chosen for (``_sparse``) and the forward pass's
        # memory for the way back is budgeted for: all of them, whichever an engine counts.
        self.rows = self.k
        # Modulo 2**64 (``WRAP``, in an engine of its own: ``primes_from``) nothing is reduced:
        # int64 wraps. Its row of ``p`` holds 0, never used as a modulus (``_rem``).
        self.wrap = self.primes == [WRAP]
        self.p = np.array([0 if q == WRAP else q for q in primes], dtype=np.int64)
        self.column = self.p[:, None]
        # A dot product adds up box-size products of a piece of ``piece`` bits and |b| < p *
        # dot_scale: it stays below 2**63.
        biggest = plan.biggest
        self.piece = min(16, 32 - biggest.bit_length())
        largest = max((q for q in primes if q != WRAP), default=1)
        self.dot_scale = max(1, ((1 << (63 - self.piece)) - 1) // (biggest * largest))
        # Books whose terms cost more to walk than their expanded polynomial costs to apply, on
        # the way forward (``polys``) and on the way back with the odds (``back_polys``); costs
        # in moves of a whole box.
        self.polys: dict[int, Poly] = {}
        self.back_polys: dict[int, Poly] = {}
        # What each group costs through its whole box, forward and back with the odds.
        self.costs: dict[int, tuple[float, float]] = {}
        self.odds_polys: dict[int, _OddsPolys] = {}
        self.expandable: dict[int, bool] = {}
        self.live: dict[int, Array] = {}  # per group, the states where the counts before it are not zero
        self.gathers = _Targets()  # (shared by the engines ``primes_from`` makes: the runs of one count)
        for g, terms in enumerate(plan.factors):
            group = self.model.groups[g]
            kinds = len(group.kinds)
            moves = [[sum(1 for _, t in f if t >= 0) for f in fs] for _, fs in terms]
            steps = sum(m + 0.5 for ms in moves for m in ms if m)
            walk = steps + len(terms) / 2
            dots = sum((m & plan.mentioned).bit_count() for m in group.kind_masks)
            walk_back = walk + sum(m + 0.5 for ms in moves for m in ms[: kinds - 1] if m) + _DOT * dots
            self.costs[g] = (walk, walk_back)
            if len(terms) < 2 or not self._expandable(g):
                continue
            poly = self._poly(g)
            cost = _SLICED * sum(1 if abs(c) == 1 else 2 for _, c in poly)
            if cost < walk:
                self.polys[g] = poly
            if cost + _CORRELATE * len(poly) < walk_back:
                self.back_polys[g] = poly
            self.costs[g] = (min(walk, cost), min(walk_back, cost + _CORRELATE * len(poly)))

    def _expandable(self, g: int) -> bool:
        """Whether the group's polynomials have small enough coefficients to expand: their sum
        is at most the terms' coefficients times the products of the factors' sizes, kept below
        2**31 so that no product or sum of the arrays' residues by them leaves int64 (big loose
        groups, say 30 cards each allowed to all but two players, do not pass)."""
        if len(self.model.groups[g].cards) >= 1 << (_BITS - 1):
            return False
        if g not in self.expandable:
            bound = sum(abs(coef) * math.prod(len(f) for f in factors) for coef, factors in self.plan.factors[g])
            self.expandable[g] = bound < 1 << 31
        return self.expandable[g]

    def _poly(self, g: int) -> Poly:
        """The group's polynomial over the dims of the box (``S`` moves nothing)."""
        return _expand(tuple((coef, tuple(fs)) for coef, fs in self.plan.factors[g]), self.routes.simplex_least)

    def _odds_polys(self, g: int) -> _OddsPolys:
        """Per kind of card i and tracked player q: the polynomial of the group with card i at q."""
        if g not in self.odds_polys:
            plan = self.plan
            group = self.model.groups[g]
            kinds = len(group.kinds)
            key = tuple(
                (coef, tuple(fs), masks[:kinds])
                for (coef, fs), (_, masks) in zip(plan.factors[g], group.terms, strict=True)
            )
            dims = tuple((q, plan.dim[q]) for q in plan.tracked)
            self.odds_polys[g] = _odds_polys(key, kinds, dims, self.routes.simplex_least)
        return self.odds_polys[g]

    def _odds_keys(self, g: int) -> list[int]:
        """The monomials of all the odds polynomials of a group, sorted."""
        return self._odds_polys(g).keys

    def _sparse(
        self, g: int, a: Array, box: _Box, needed: Array | None = None, keep: _Box | None = None
    ) -> _Sparse | None:
        """When few states of ``a`` are not zero (early on, the deals so far reach few of the
        box's states), those states and the group's polynomial, if moving each of them by each
        monomial costs less than going through the whole box; else None.

        Going back (``keep`` given: the box the pass goes on in), the values before the group
        are needed at the states ``needed`` (coordinates in ``keep``) or, when None, in all of
        ``keep``; they are computed there only.
        """
        if not self._expandable(g) or not box.ranges:
            return None
        rows = self.rows
        back = keep is not None
        # Going through the whole box: its states for each move, and a fixed cost per move.
        per_state, per_move, per_live, fixed = _NS_BACK if back else _NS_FORWARD
        whole = self.costs[g][back] * (per_state * box.size * rows + per_move)
        bias = self.routes.sparse_bias_ns
        if whole < fixed + bias:
            return None
        if g not in self.live:  # ``a`` is always the counts before group g, for this engine's primes
            self.live[g] = np.flatnonzero(a.any(axis=0))
        live = self.live[g]
        per_monomial = per_live * live.size * rows
        if keep is not None:
            assert keep.low == box.low, "the pass goes on in a box starting where the group's does"
            per_monomial += (_NS_SLICE * keep.size if needed is None else per_live * needed.shape[1]) * rows
        if fixed + bias + per_monomial * _FEW_MONOMIALS >= whole:
            return None
        poly = self._poly(g)
        if fixed + bias + per_monomial * len(poly) >= whole:
            return None
        # What is gathered at once: live (or needed) states moved by each monomial, per prime (the
        # odds' monomials going back are about as many as the group's).
        if max(live.size, 0 if needed is None else needed.shape[1]) * len(poly) * rows > _MAX_GATHER:
            return None
        return _Sparse(live, _coords(live, box), poly, needed)

    def _reads(self, g: int, sparse: _Sparse, after: _Box) -> Array:
        """The states of ``after`` (coordinates) whose values a sparse pass back through group g
        reads: the live states moved by the odds' monomials, the needed ones by the group's.

        Moves are taken on flat indices, so a move out of the box through one dim may land on
        another state: that only adds states, whose values are then computed for nothing.
        """
        box = self.plan.work[g]
        assert sparse.needed is not None
        marked = np.zeros(box.size, dtype=bool)
        reads = ((sparse.live, self._odds_polys(g).packed), (_flat(sparse.needed, box), [k for k, _ in sparse.poly]))
        for flat, keys in reads:
            moved = (flat[None, :] + _offsets(box, keys)[:, None]).ravel()
            marked[moved[moved < box.size]] = True
        coords = _coords(np.flatnonzero(marked), box)
        coords += np.array(box.low, dtype=np.int64)[:, None] - np.array(after.low, dtype=np.int64)[:, None]
        inside = np.all((coords >= 0) & (coords < np.array(after.ranges, dtype=np.int64)[:, None]), axis=0)
        return coords[:, inside]

    @staticmethod
    def _targets(live: Array, coords: Array, box: _Box, keys: Sequence[int] | Array) -> Array:
        """Per monomial and live state: the state moved by the monomial (a flat index), or
        ``box.size`` where that leaves the box."""
        d = len(box.ranges)
        # A monomial fits a state when it is at most the room left in every dim. Room and
        # monomial are packed alike (_BITS a dim, values below 2**(_BITS - 1)): with the top bit
        # of each field set in the room, the subtraction clears it exactly where a dim overflows.
        # (Unsigned: with 8 dims the top field's top bit is bit 63.)
        top = np.uint64(sum(1 << (_BITS * t + _BITS - 1) for t in range(d)))
        shifts = np.array([_BITS * t for t in range(d)], dtype=np.uint64)
        rooms = (np.array(box.ranges, dtype=np.int64)[:, None] - 1 - coords).astype(np.uint64)
        room = (rooms << shifts[:, None]).sum(axis=0, dtype=np.uint64) | top
        packed = np.asarray(keys, dtype=np.int64).astype(np.uint64)
        inside = (room[None, :] - packed[:, None]) & top == top
        return np.where(inside, live[None, :] + _offsets(box, keys)[:, None], box.size)

    def _moved(self, g: int, which: str, live: Array, coords: Array, box: _Box, keys: Sequence[int] | Array) -> Array:
        """``_targets`` of group g's states ``live`` by its monomials ``which`` (those of the
        group's polynomial from its live or its needed states, or of its odds), made once for all
        the runs of the count (``_Targets``)."""
        return self.gathers.get((g, which), live, partial(self._targets, live, coords, box, keys))

    def _apply_sparse(self, g: int, a: Array, box: _Box, sparse: _Sparse) -> Array:
        """``a`` (reduced, zero outside the live states) times group g's polynomial: each live
        state moved by each monomial."""
        coefs = _coefficients(sparse.poly)  # each state gets at most one product per monomial
        where = self._moved(g, "forward", sparse.live, sparse.coords, box, [key for key, _ in sparse.poly]).ravel()
        out = np.zeros((len(a), box.size + 1), dtype=np.int64)
        values = a[:, sparse.live]
        for row in range(len(a)):
            np.add.at(out[row], where, (coefs[:, None] * values[row][None, :]).ravel())
        return self._reduce(out[:, :-1])

    # -- arrays

    def _reduce(self, a: Array) -> Array:
        return a if self.wrap else residues(a, self.primes[: len(a)], 0)

    def _rem(self, a: Array, p: Array) -> Array:
        """``a % p`` (``p`` the engine's primes, shaped to broadcast), or ``a`` itself modulo
        2**64."""
        return a if self.wrap else a % p

    @staticmethod
    def _view(a: Array, box: _Box, t: int) -> Array:
        return a.reshape((len(a), *box.views[t]))

    def _step(self, a: Array, box: _Box, factor: Factor, back: bool) -> Array:
        """Multiply by one card factor (forward), or apply its adjoint (backward).

        Returns ``a`` itself for a factor that is ``S`` alone: callers never write into it.
        """
        moves = [(sign, t) for sign, t in factor if t >= 0]
        if not moves:
            return a
        out = np.empty_like(a)
        start = "x" if len(moves) < len(factor) else "zero"  # (S is a term: the first move is fused with it)
        for sign, t in moves:
            if t == box.last:  # (a move by one in memory: the pad takes what passes the end)
                move(out, a, 1, back, sign, start)
            else:
                move(self._view(out, box, t), self._view(a, box, t), 2, back, sign, start)
            start = ""
        if box.padded and any(t == box.last for _, t in moves):
            self._view(out, box, box.last)[:, :, -1, :] = 0
        return out

    def _walk(self, a: Array, box: _Box, factors: Sequence[Factor], back: bool, scale: int = 1) -> tuple[Array, int]:
        """Apply factors in turn (last first when going back), reducing only to avoid overflow.

        ``scale`` bounds |values| / p on the way in, and is returned for the way out.
        """
        for f in reversed(factors) if back else factors:
            if scale * len(f) > _REDUCE_AT:
                a, scale = self._reduce(a), 1
            a = self._step(a, box, f, back)
            scale *= len(f)
        return a, scale

    def _scales(self, k: int) -> Array:
        """Per piece j (rows) and prime (columns): 2 ** (j * piece) modulo the prime, to add up
        sums made piece by piece (modulo 2**64, ones: a piece, the array itself)."""
        if self.wrap:
            return np.ones((1, k), dtype=np.int64)
        return np.array([[(1 << (j * self.piece)) % q for q in self.primes[:k]] for j in range(-(-31 // self.piece))])

    def _pieces(self, f: Array) -> Iterator[Array]:
        """A reduced array split in pieces of ``piece`` bits, so that no dot product overflows
        (modulo 2**64, overflow is the reduction: one piece, ``f`` itself), made as they are used."""
        return iter([f]) if self.wrap else bit_pieces(f, self.piece)

    def _dots(self, f: Array, b: Array, box: _Box, ts: Sequence[int]) -> list[Array]:
        """``_dot(_pieces(f), b, box, t)`` for each t: ``f`` (reduced) in two pieces of 16 bits,
        made one at a time into one array (a piece is a whole box), each product summed over at
        most ``_BLOCK`` states at a time. Those sums stay below 2**63 where ``_dot``'s do: its
        pieces of ``piece`` bits are summed over the biggest box (``biggest`` states), and a
        block has at most min(2**15, biggest) states, where 2**16 * min(2**15, biggest) is at
        most 2**piece * biggest. On big boxes that is a third fewer pieces, and
        made without fresh memory: the dots of the jokers game's public view after event 27 went
        from 0.69 to 0.37 s (profiled)."""
        if self.wrap:
            return [self._dot([f], b, box, t) for t in ts]
        out = [np.zeros(len(b), dtype=np.int64) for _ in ts]
        p = self.p[: len(b)]
        piece = np.empty_like(f)
        for j in range(2):
            if j == 0:
                np.bitwise_and(f, 0xFFFF, out=piece)
            else:
                np.right_shift(f, 16, out=piece)
            for x, t in enumerate(ts):
                part = _blocked_dot(piece, b, box.extents, t, p)
                out[x] = (out[x] + (part if j == 0 else part * ((1 << 16) % p) % p)) % p
        return out

    def _dot(self, pieces: Iterable[Array], b: Array, box: _Box, t: int = -1) -> Array:
        """Sum over states s of f[s] * b[s + one in dim t] (t = -1: no move), modulo each prime.

        ``pieces`` is ``_pieces(f)``; |b| < p * dot_scale.
        """
        p = self.p[: len(b)]
        scales = self._scales(len(b))
        out = np.zeros(len(b), dtype=np.int64)
        for j, h in enumerate(pieces):
            if t < 0:
                part = np.einsum("ki,ki->k", h, b)
            elif t == box.last:
                part = np.einsum("ki,ki->k", h[:, :-1], b[:, 1:])
            else:
                x = self._view(h, box, t)[:, :, :-1, :]
                y = self._view(b, box, t)[:, :, 1:, :]
                part = np.einsum("kabc,kabc->k", x, y)
            out += self._rem(self._rem(part, p) * scales[j], p)
        return self._rem(out, p)

    @staticmethod
    def _resize(a: Array, old: _Box, new: _Box) -> Array:
        """The same states in another box: zeros where the old box had none, and states the new
        box lacks are dropped."""
        if old.low == new.low and old.high == new.high:
            return a
        out = np.zeros((len(a), new.size), dtype=np.int64)
        src: list[slice] = [slice(None)]
        dst: list[slice] = [slice(None)]
        for lo_a, hi_a, lo_b, hi_b in zip(old.low, old.high, new.low, new.high, strict=True):
            lo, hi = max(lo_a, lo_b), min(hi_a, hi_b)
            if lo > hi:
                return out
            src.append(slice(lo - lo_a, hi - lo_a + 1))
            dst.append(slice(lo - lo_b, hi - lo_b + 1))
        out.reshape((len(a), *new.extents))[tuple(dst)] = a.reshape((len(a), *old.extents))[tuple(src)]
        return out

    def _sum(self, parts: Iterable[tuple[int, Array, int]], weight: int) -> Array:
        """The reduced sum of coefficient * array, given each array's scale; ``weight`` is the sum
        of the coefficients' sizes. The parts are added as they come (each is a whole box: kept
        all at once, they were most of a big view's memory)."""
        room = _REDUCE_AT // weight
        out: Array | None = None
        for coef, a, scale in parts:
            if out is None:
                out = np.zeros_like(a)
            add_scaled(out, self._reduce(a) if scale > room else a, coef)
            del a  # (else it stays alive while the next part is made)
        assert out is not None, "a group has terms"
        return out if self.wrap else residues(out, self.primes[: len(out)], 0, out=out)

    def _apply(self, a: Array, box: _Box, poly: Poly, back: bool) -> Array:
        """Multiply a reduced ``a`` by a polynomial (forward), or apply its adjoint (backward):
        one shifted multiply-add per monomial. States moved out of the box are dropped."""
        out = np.zeros_like(a)
        shape = (len(a), *box.extents)
        src_all, dst_all = a.reshape(shape), out.reshape(shape)
        d = len(box.ranges)
        room = _REDUCE_AT
        for key, coef in poly:
            v = _unpack(key, d)
            if any(x >= r for x, r in zip(v, box.ranges, strict=True)):
                continue
            src: list[slice] = [slice(None)]
            dst: list[slice] = [slice(None)]
            for t, (x, r) in enumerate(zip(v, box.ranges, strict=True)):
                if x == 0 and t == box.last:
                    src.append(slice(None))  # the pad too: zero in both
                    dst.append(slice(None))
                elif back:
                    src.append(slice(x, r))
                    dst.append(slice(0, r - x))
                else:
                    src.append(slice(0, r - x))
                    dst.append(slice(x, r))
            if abs(coef) > room:
                out = self._reduce(out)
                dst_all = out.reshape(shape)
                room = _REDUCE_AT
            room -= abs(coef)
            add_scaled(dst_all[tuple(dst)], src_all[tuple(src)], coef)
        return self._reduce(out)

    def _correlate(self, pieces: Array, b: Array, box: _Box, key: int) -> Array:
        """Sum over states s of f[s] * b[s + v] modulo each prime, v unpacked from ``key``;
        ``pieces`` is ``_pieces(f)`` stacked and |b| < p * dot_scale."""
        p = self.p[: len(b)]
        shape = (len(b), *box.extents)
        v = _unpack(key, len(box.ranges))
        if any(x >= r for x, r in zip(v, box.ranges, strict=True)):
            return np.zeros(len(b), dtype=np.int64)
        src = (slice(None), slice(None), *(slice(0, r - x) for x, r in zip(v, box.ranges, strict=True)))
        dst = (slice(None), *(slice(x, r) for x, r in zip(v, box.ranges, strict=True)))
        y = b.reshape(shape)[dst].reshape(len(b), -1)
        h = pieces.reshape((len(pieces), *shape))[src].reshape(len(pieces), len(b), -1)
        parts = self._rem(np.einsum("jki,ki->jk", h, y), p)
        return np.asarray(self._rem(self._rem(parts * self._scales(len(b)), p).sum(axis=0), p), dtype=np.int64)

    def _group(
        self,
        a: Array,
        box: _Box,
        terms: Terms,
        poly: Poly | None = None,
        ahead: list[list[Array]] | None = None,
        first: int = 0,
    ) -> Array:
        """The state after a group: the signed sum of its terms, reduced.

        Given ``ahead`` (one list per term, when walking the terms), each term's states after
        each of its ``first`` cards, reduced, are appended to its list for the way back.
        """
        if poly is not None:
            return self._apply(a, box, poly, back=False)

        def walked_terms() -> Iterator[tuple[int, Array, int]]:
            for j, (coef, factors) in enumerate(terms):
                walked, scale = a, 1
                kept = first if ahead is not None else 0
                for f in factors[:kept]:
                    walked, scale = self._walk(walked, box, [f], back=False)
                    if scale > 1:
                        walked, scale = self._reduce(walked), 1
                    assert ahead is not None
                    ahead[j].append(walked)
                walked, scale = self._walk(walked, box, factors[kept:], back=False, scale=scale)
                yield coef, walked, scale

        return self._sum(walked_terms(), sum(abs(coef) for coef, _ in terms))

    # -- weights of the free cards and the pool, per state

    def _weights(self) -> Array:
        """Ways to finish from each state of the final box: the free cards and the pool's share.

        A state gives each direct player r cards and each tracked pooled player an exponent d;
        the other card factors were ``S``. The free cards give each direct player its missing
        slots - r and the rest to the pool, and the pool's ``S`` factors are shared out as a
        multinomial over (slots - d).

        The weight is a product of one factor per dim (1 / (slots - exponent)!) and a function
        of two sums (the exponents of the direct players, and of all): built by outer products
        and one lookup in a table of those sums, for the engine's primes at once. Modulo 2**64,
        where nothing divides: ``_whole_weights``.
        """
        if self.wrap:
            return self._whole_weights()
        model, plan, box = self.model, self.plan, self.plan.final
        top = sum(model.slots) + 2
        k = self.k
        column = self.column
        free = len(model.free)
        picks0 = sum(len(g.cards) for g in model.groups)  # picks = picks0 - all
        to_pool0 = free - sum(model.slots[p] for p in plan.tracked if plan.direct >> p & 1)  # + direct
        fact, inv = stacked_tables(self.primes, top)
        # Per dim t: 1 / (slots - exponent)! (zero past the slots or in the pad).
        factors: list[Array] = []
        for _, _, x, ok in self._final_dims():
            factors.append(np.where(ok, inv[:, np.clip(x, 0, top)], 0))
        const = np.ones(k, dtype=np.int64)
        for p in range(len(model.players)):
            if plan.pool >> p & 1 and p not in plan.dim:
                const = const * inv[:, model.slots[p]] % self.p
        const = const * fact[:, free] % self.p

        def outer(vectors: list[Array]) -> Array:
            acc = const[:, None]
            for v in vectors:
                acc = (acc[:, :, None] * v[:, None, :]).reshape(k, -1)
                acc %= column
            return acc

        # The two sums of each state, as an index into a table of functions of them.
        sum_direct = np.zeros(1, dtype=np.int64)
        sum_all = np.zeros(1, dtype=np.int64)
        for t, p in enumerate(plan.tracked):
            e = np.arange(box.extents[t], dtype=np.int64) + box.low[t]
            sum_all = (sum_all[:, None] + e[None, :]).reshape(-1)
            step = e if plan.direct >> p & 1 else np.zeros_like(e)
            sum_direct = (sum_direct[:, None] + step[None, :]).reshape(-1)
        lo_d, hi_d = int(sum_direct.min()), int(sum_direct.max())
        lo_a, hi_a = int(sum_all.min()), int(sum_all.max())
        span = hi_a - lo_a + 1
        index = (sum_direct - lo_d) * span + (sum_all - lo_a)
        del sum_direct, sum_all
        grid_d = np.arange(lo_d, hi_d + 1, dtype=np.int64)[:, None]
        grid_a = np.arange(lo_a, hi_a + 1, dtype=np.int64)[None, :]
        to_pool = (to_pool0 + grid_d + 0 * grid_a).reshape(-1)
        picks = (picks0 - grid_a + 0 * grid_d).reshape(-1)
        pool = picks + to_pool
        ok = (to_pool >= 0) & (picks >= 0)
        table = np.where(ok, inv[:, np.clip(to_pool, 0, top)] * fact[:, np.clip(pool, 0, top)] % column, 0)
        # (In place: each of these is as big as the final box, for every prime.)
        weight = np.ascontiguousarray(outer(factors))
        weight *= np.take(table, index, axis=1)
        weight %= column
        return weight

    def _final_dims(self) -> Iterator[tuple[int, Array, Array, npt.NDArray[np.bool_]]]:
        """Per dim of the final box, in order: its player, the exponents along it, the player's
        slots left (slots - exponent), and which of those are states (not past the slots, nor
        the last dim's pad)."""
        box = self.plan.final
        for t, p in enumerate(self.plan.tracked):
            e = np.arange(box.extents[t], dtype=np.int64) + box.low[t]
            x = self.model.slots[p] - e
            ok = x >= 0
            if t == box.last:
                ok &= np.arange(box.extents[t]) < box.ranges[t]
            yield p, e, x, ok

    def _whole_weights(self) -> Array:
        """``_weights`` modulo 2**64, in whole numbers: a multinomial is dealt out a player at a
        time as binomials (sums alone: ``arithmetic.binomials``). The free cards: C(free, M), M
        of them to the direct players, and per direct player C(its missing + the missing of the
        direct players before it, its missing); the pool's share of the ``S`` factors: per
        tracked pooled player C(its slots left + those of the pooled players before it, its
        slots left), starting from the slots of the pooled players no group tracks, dealt those
        by a multinomial. Chained along the dims, as a state's sums so far decide its factor."""
        model, plan = self.model, self.plan
        free = len(model.free)
        picks0 = sum(len(g.cards) for g in model.groups)
        top = sum(model.slots) + 2
        table = binomials((WRAP,), top)[0]  # C(n, k) at [n, k]
        untracked = [model.slots[p] for p in range(len(model.players)) if plan.pool >> p & 1 and p not in plan.dim]
        weight = np.full(1, wrapped(deal_bound(untracked)), dtype=np.int64)  # (their multinomial)
        missing = np.zeros(1, dtype=np.int64)  # the free cards the direct players take, so far
        pool = np.full(1, sum(untracked), dtype=np.int64)  # the pool's cards, so far
        sum_all = np.zeros(1, dtype=np.int64)
        for p, e, x, ok in self._final_dims():
            x = np.clip(x, 0, top)
            direct = bool(plan.direct >> p & 1)
            so_far = (missing if direct else pool)[:, None] + x[None, :]
            factor = np.where(ok[None, :], table[np.clip(so_far, 0, top), x[None, :]], 0)
            weight = (weight[:, None] * factor).reshape(-1)
            if direct:
                missing, pool = so_far.reshape(-1), np.repeat(pool, len(x))
            else:
                missing, pool = np.repeat(missing, len(x)), so_far.reshape(-1)
            sum_all = (sum_all[:, None] + e[None, :]).reshape(-1)
        ok_all = (sum_all <= picks0) & (missing <= free)  # (no state takes more cards than there are)
        del sum_all
        weight *= np.where(ok_all, table[free, np.clip(missing, 0, top)], 0)
        return weight[None, :]

    # -- the passes

    def forward(self, odds: bool) -> tuple[Array, _Forward]:
        """The count of fitting deals modulo each prime, and what the way back needs (with
        ``odds``; else the counts before each group are not kept)."""
        assert self.wrap or WRAP not in self.primes, "2**64 goes in an engine of its own"
        plan, model = self.plan, self.model
        a = np.zeros((self.k, plan.start.size), dtype=np.int64)
        a[:, 0] = 1
        before: dict[int, Array] = {}
        ahead: dict[int, list[list[Array]]] = {}  # per group walked forward, per term (see _group)
        box = plan.start
        kept = 0
        for g in plan.order:
            parallel.checkpoint()  # (a count given up, in a thread: stop here)
            a = self._resize(a, box, plan.work[g])
            if odds:
                before[g] = a
            sparse = self._sparse(g, a, plan.work[g])
            if sparse:
                a = self._apply_sparse(g, a, plan.work[g], sparse)
            else:
                # Walking a group's terms, keep what the way back would walk again.
                first = len(model.groups[g].kinds) - 1
                keeping = len(plan.factors[g]) * first * a.nbytes // len(a) * self.rows  # (for all primes)
                if odds and g not in self.polys and g not in self.back_polys and kept + keeping <= _KEEP_BYTES:
                    ahead[g] = [[] for _ in plan.factors[g]]
                    kept += keeping
                a = self._group(a, plan.work[g], plan.factors[g], self.polys.get(g), ahead.get(g), first)
            a = self._resize(a, plan.work[g], plan.after[g])
            box = plan.after[g]
        weight = self._weights()
        # A slice of the states at a time (a piece of the whole is as big as the final box).
        total = np.zeros(self.k, dtype=np.int64)
        for lo in range(0, a.shape[1], _SLICE):
            part = self._dot(self._pieces(a[:, lo : lo + _SLICE]), weight[:, lo : lo + _SLICE], plan.final)
            total = self._rem(total + part, self.p)
        return total, _Forward(total, before, ahead, weight)

    def primes_from(self, lo: int, hi: int) -> _Engine:
        """This engine for its primes lo to hi - 1 alone: the plan and what was made of it shared,
        but not the states found not zero (a count can be zero modulo one prime and not another).
        The ways through a group are chosen as for all the primes, so gathers stay as small."""
        one = copy.copy(self)
        one.primes = self.primes[lo:hi]
        one.k = len(one.primes)
        one.p = self.p[lo:hi]
        one.column = one.p[:, None]
        one.wrap = one.primes == [WRAP]
        assert one.wrap or WRAP not in one.primes, "2**64 goes in an engine of its own"
        one.live = {}
        return one

    def backward(self, forward: _Forward, k: int) -> dict[tuple[Card, int], Array]:
        """The deals with each kind of card at each player but the free cards (``_shares``),
        modulo the first k moduli."""
        assert self.wrap or WRAP not in self.primes, "2**64 goes in an engine of its own"
        plan = self.plan
        before, ahead, weight, total = forward.before, forward.ahead, forward.weight, forward.total
        found: dict[tuple[Card, int], Array] = {}
        # Which groups to go back through sparsely, first to last: a group's values before it are
        # needed only where the sparse group before it reads them.
        sparse_back: dict[int, _Sparse | None] = {}
        needed: Array | None = np.zeros((len(plan.tracked), 1), dtype=np.int64)  # the start
        for i, g in enumerate(plan.order):
            keep = plan.after[plan.order[i - 1]] if i else plan.start
            if needed is None and keep.size <= self.routes.small_keep and keep.ranges:
                needed = np.indices(keep.ranges).reshape(len(keep.ranges), -1).astype(np.int64)
            sparse_back[g] = sparse = self._sparse(g, before[g], plan.work[g], needed, keep)
            # A group gone back through whole, or sparse with all of ``keep`` needed, reads all;
            # so does one whose reads would be most of the box anyway.
            needed = None
            nothing = np.zeros((len(plan.tracked), 0), dtype=np.int64)
            if (
                sparse
                and sparse.needed is not None
                and i + 1 < len(plan.order)
                # ... and the group after can go sparse when little of its box is needed
                and self._sparse(
                    plan.order[i + 1], before[plan.order[i + 1]], plan.work[plan.order[i + 1]], nothing, plan.after[g]
                )
            ):
                moved = sparse.live.size * len(self._odds_keys(g)) + sparse.needed.shape[1] * len(sparse.poly)
                if moved < _MOST_READS * plan.after[g].size:  # else surely most of the box, many times over
                    needed = self._reads(g, sparse, plan.after[g])
                    if 2 * needed.shape[1] > plan.after[g].size:
                        needed = None
        b = weight[:k]
        for i in range(len(plan.order) - 1, -1, -1):
            parallel.checkpoint()
            g = plan.order[i]
            after = self._resize(b, plan.after[g], plan.work[g])
            keep = plan.after[plan.order[i - 1]] if i else plan.start
            sparse = sparse_back[g]
            if sparse:
                b = self._odds_sparse(g, before[g][:k], after, found, sparse, keep)
            else:
                walked = [[x[:k] for x in xs] for xs in ahead[g]] if g in ahead else None
                b = self._resize(self._odds_in_group(g, before[g][:k], after, found, walked), plan.work[g], keep)
        assert np.array_equal(b[:, 0], total[:k]), "the forward and backward passes disagree"
        return found

    def _odds_in_group(
        self,
        g: int,
        start: Array,
        after: Array,
        found: dict[tuple[Card, int], Array],
        walked: list[list[Array]] | None = None,
    ) -> Array:
        """Back through one group; on the way, the deals with each kind of card at each player.

        The first cards of a group are one of each kind, so the walk forward inside the group
        stops early; ``walked`` has that walk already, when the forward pass kept it.
        """
        plan = self.plan
        group, box = self.model.groups[g], plan.work[g]
        if g in self.back_polys:
            return self._odds_by_poly(g, start, after, found)
        kinds = len(group.kinds)
        p = self.p[: len(start)]
        sums: dict[tuple[Card, int], Array] = {}
        terms = list(zip(plan.factors[g], group.terms, strict=True))

        def walked_back() -> Iterator[tuple[int, Array, int]]:
            for j, ((coef, factors), (_, masks)) in enumerate(terms):
                ahead = self._ahead(start, box, factors[: kinds - 1], None if walked is None else walked[j])
                b, scale = self._walk(after, box, factors[kinds:], back=True)
                for i in range(kinds - 1, -1, -1):
                    if scale > self.dot_scale:
                        b, scale = self._reduce(b), 1
                    card = group.kinds[i][0]
                    holders = [q for q in plan.tracked if masks[i] >> q & 1]
                    for q, got in zip(
                        holders, self._dots(ahead(i), b, box, [plan.dim[q] for q in holders]), strict=True
                    ):
                        sums[(card, q)] = sums.get((card, q), 0) + got * coef
                    b, scale = self._walk(b, box, [factors[i]], back=True, scale=scale)
                yield coef, b, scale
                del b, ahead  # (else they stay alive while the next term is walked)

        out = self._sum(walked_back(), sum(abs(coef) for (coef, _), _ in terms))
        found.update({key: self._rem(np.asarray(v), p) for key, v in sums.items()})
        return out

    def _ahead(
        self, start: Array, box: _Box, factors: Sequence[Factor], walked: list[Array] | None
    ) -> Callable[[int], Array]:
        """The states after a term's first i cards (``factors``), asked for i from the last down to
        0: those the forward pass kept, or walked now. In a big box, only every c-th is kept and
        the others are walked again from it a stretch at a time (about 2 sqrt(n) arrays instead
        of n, for n more steps)."""
        if walked is not None:
            return [start, *walked].__getitem__

        def step(a: Array, f: Factor) -> Array:
            moved, scale = self._walk(a, box, [f], back=False)
            return self._reduce(moved) if scale > 1 else moved

        n = len(factors) + 1
        if start.nbytes * n <= _KEEP_BYTES:
            kept = [start]
            for f in factors:
                kept.append(step(kept[-1], f))
            return kept.__getitem__
        c = math.isqrt(n - 1) + 1
        marks = {0: start}
        a = start
        for i, f in enumerate(factors, 1):
            a = step(a, f)
            if i % c == 0:
                marks[i] = a
        stretch: dict[int, Array] = {}

        def at(i: int) -> Array:
            if i not in stretch:
                base = i - i % c
                assert base in marks, "the states are asked for from the last card down"
                stretch.clear()
                for later in [m for m in marks if m > base]:  # (asked for in descending order)
                    del marks[later]
                stretch[base] = a = marks[base]
                for t in range(base, min(base + c - 1, n - 1)):
                    stretch[t + 1] = a = step(a, factors[t])
            return stretch[i]

        return at

    def _odds_by_poly(self, g: int, start: Array, after: Array, found: dict[tuple[Card, int], Array]) -> Array:
        """Back through a group applied as one polynomial. The deals with card i at q add up,
        over the monomials v of its polynomial, coefficient times sum of start[s] * after[s + v]."""
        box = self.plan.work[g]
        keys = self._odds_keys(g)
        if keys:
            pieces = np.stack(list(self._pieces(start)))
            self._odds_from_sums(g, np.stack([self._correlate(pieces, after, box, v) for v in keys], axis=1), found)
        return self._apply(after, box, self.back_polys[g], back=True)

    def _odds_from_sums(self, g: int, sums: Array, found: dict[tuple[Card, int], Array]) -> None:
        """The deals with each kind of card of group g at each player, from ``sums`` (primes x the
        group's odds monomials, sorted): per monomial v, the sum over states s of the counts
        before the group at s times the ways to go on from s + v."""
        kinds = self.model.groups[g].kinds
        odds = self._odds_polys(g)
        ways = self._rem(sums @ odds.table, self.p[: len(sums), None])  # each column's |coefficients| < 2**31
        for j, (i, q) in enumerate(odds.which):
            found[(kinds[i][0], q)] = ways[:, j]

    def _odds_sparse(
        self, g: int, start: Array, after: Array, found: dict[tuple[Card, int], Array], sparse: _Sparse, keep: _Box
    ) -> Array:
        """Back through a group from the few live states of ``start`` (all the forward pass
        reached), as ``_odds_by_poly`` does, reading ``after`` only at live states moved by each
        monomial; the values before the group come out in ``keep``, the box the pass goes on in:
        in all of it, or with ``sparse.needed`` right at those states only (zero elsewhere, where
        the group back from here never reads)."""
        box = self.plan.work[g]
        k = len(start)
        p = self.p[:k]
        padded = np.zeros((k, box.size + 1), dtype=np.int64)
        padded[:, :-1] = after
        keys = self._odds_polys(g).packed
        # (primes, monomials, states); np.take gathers several times faster than indexing
        moved = np.take(padded, self._moved(g, "odds", sparse.live, sparse.coords, box, keys), axis=1)
        sums = np.zeros((k, len(keys)), dtype=np.int64)
        scales = self._scales(k)
        for j, piece in enumerate(self._pieces(start[:, sparse.live])):
            part = self._rem(np.einsum("kn,kun->ku", piece, moved), p[:, None])
            sums = self._rem(sums + part * scales[j][:, None], p[:, None])
        self._odds_from_sums(g, sums, found)
        if sparse.needed is None:
            return self._adjoint(after, box, keep, sparse.poly)
        # Only at the needed states: each moved by each monomial, read from ``after``.
        coefs = _coefficients(sparse.poly)
        at = _flat(sparse.needed, box)
        where = self._moved(g, "needed", at, sparse.needed, box, [key for key, _ in sparse.poly])
        out = np.zeros((k, keep.size), dtype=np.int64)
        out[:, _flat(sparse.needed, keep)] = self._rem(
            np.einsum("u,kun->kn", coefs, np.take(padded, where, axis=1)), p[:, None]
        )
        return out

    def _adjoint(self, after: Array, box: _Box, keep: _Box, poly: Poly) -> Array:
        """The values before a group, in ``keep`` (a box with the same lower bounds inside the
        group's): the adjoint of multiplying by the polynomial, one shifted multiply-add of a
        ``keep``-sized slice per monomial."""
        k = len(after)
        src = after.reshape((k, *box.extents))
        out = np.zeros((k, *keep.extents), dtype=np.int64)
        room = _REDUCE_AT
        for key, coef in poly:
            v = _unpack(key, len(box.ranges))
            ends = [min(r, x + q) for x, r, q in zip(v, box.ranges, keep.ranges, strict=True)]
            if any(x >= e for x, e in zip(v, ends, strict=True)):
                continue
            if abs(coef) > room:
                out = self._reduce(out)
                room = _REDUCE_AT
            room -= abs(coef)
            part = src[(slice(None), *(slice(x, e) for x, e in zip(v, ends, strict=True)))]
            add_scaled(out[(slice(None), *(slice(0, e - x) for x, e in zip(v, ends, strict=True)))], part, coef)
        return self._reduce(out.reshape(k, keep.size))


_BLOCK = 1 << 15  # the most states the odds' products are summed over at once (``_dots``)


def _blocked_dot(h: Array, b: Array, extents: Sequence[int], t: int, p: Array) -> Array:
    """Per prime (a row of ``h``, ``b`` and ``p``), the sum over the states of a box of these
    ``extents`` of ``h[s] * b[s + one in dim t]`` (t = -1: no move) modulo the prime, made of
    sums over at most ``_BLOCK`` states, each reduced: the caller sees that such a sum stays
    inside int64. Each sum runs along memory: over the whole box cut in blocks when there is no
    move or the move is along the last dim (one state on in memory: the last dim's pad state is
    zero in ``h``, so nothing carries from one row to the next), else over the dims after t."""
    k = len(b)
    if t < 0 or t == len(extents) - 1:
        shift = int(t >= 0)
        n = h.shape[1] - shift
        x, y = h[:, :n], b[:, shift:]
        whole = n // _BLOCK * _BLOCK
        sums = [np.einsum("kqb,kqb->kq", x[:, :whole].reshape(k, -1, _BLOCK), y[:, :whole].reshape(k, -1, _BLOCK))]
        if whole < n:
            sums.append(np.einsum("kn,kn->k", x[:, whole:], y[:, whole:])[:, None])
        parts = np.concatenate(sums, axis=1)
    else:
        before, dim, after = math.prod(extents[:t]), extents[t], math.prod(extents[t + 1 :])
        x = h.reshape(k, before, dim, after)[:, :, :-1]
        y = b.reshape(k, before, dim, after)[:, :, 1:]
        if (dim - 1) * after <= _BLOCK:
            parts = np.einsum("kadc,kadc->ka", x, y)
        elif after <= _BLOCK:
            parts = np.einsum("kadc,kadc->kad", x, y).reshape(k, -1)
        else:  # (the dims after t, cut where what follows is a block or less)
            inner = 1
            for e in reversed(extents[t + 1 :]):
                if inner * e > _BLOCK:
                    break
                inner *= e
            shape = (k, before, dim - 1, after // inner, inner)
            parts = np.einsum("kadxy,kadxy->kadx", x.reshape(shape), y.reshape(shape)).reshape(k, -1)
    parts %= p[:, None]
    out: Array = parts.sum(axis=1) % p
    return out


def _coefficients(poly: Poly) -> Array:
    """The coefficients of a polynomial, in its order. Their absolute sum stays below 2**31
    (``_Engine._expandable``), so sums of their products with residues stay inside int64."""
    coefs = np.array([c for _, c in poly], dtype=np.int64)
    assert int(np.abs(coefs).sum()) < 1 << 31, "a group's coefficients stay small"
    return coefs


def _shares(
    model: _Model, plan: _Plan, deals: int, found: dict[tuple[Card, int], Array], primes: Sequence[int]
) -> dict[Card, dict[str, int]]:
    """Exact deals per card and player; pooled players nobody singles out share the rest
    in proportion to their slots (they differ in nothing else).

    The free cards (anyone may hold them, no requirement names them) are alike, and no count
    gives their deals: every deal gives each player as many of the never-shown cards as its
    slots, so a player's deals with a free card are its slots times the deals, less its deals
    with each other card, shared among the free cards."""
    players = model.players
    untracked = [p for p in range(len(players)) if p not in plan.dim]
    untracked_slots = sum(model.slots[p] for p in untracked)
    nothing = np.zeros(len(primes), dtype=np.int64)
    result: dict[Card, dict[str, int]] = {}
    held = [model.slots[p] * deals for p in range(len(players))]  # less the deals with each other card
    for g in model.groups:
        for i, same in g.kinds.items():
            mask = model.mask[g.cards[i]]
            ways: dict[str, int] = {}
            rest = deals
            for p in plan.tracked:
                if mask >> p & 1:
                    ways[players[p]] = w = _crt(found.get((same[0], p), nothing), primes)
                    rest -= w
                    held[p] -= w * len(same)
            shared = [p for p in untracked if mask >> p & 1]
            for p in shared:
                part, left = divmod(rest * model.slots[p], untracked_slots)
                assert left == 0, "untracked pooled players share in proportion to their slots"
                ways[players[p]] = part
                held[p] -= part * len(same)
            assert shared or rest == 0, "every deal puts the card somewhere"
            for c in same:
                result[c] = ways
    if model.free:
        ways = {}
        for p, name in enumerate(players):
            ways[name], left = divmod(held[p], len(model.free))
            assert left == 0 and ways[name] >= 0, "the free cards share what the others leave"
        for c in model.free:
            result[c] = ways
    return result


def _offsets(box: _Box, keys: Sequence[int] | Array) -> Array:
    """The flat move of each monomial in a box (keys packed as in ``Poly``, so below 2**63)."""
    packed = np.asarray(keys, dtype=np.int64)
    out = np.zeros(packed.shape, dtype=np.int64)
    stride = 1
    for t in range(len(box.ranges) - 1, -1, -1):
        out += (packed >> (_BITS * t) & ((1 << _BITS) - 1)) * stride
        stride *= box.extents[t]
    return out


def _flat(coords: Array, box: _Box) -> Array:
    """Flat indices of coordinates (dims x states) in a box."""
    strides = np.array([math.prod(box.extents[t + 1 :]) for t in range(len(box.extents))], dtype=np.int64)
    return np.asarray(strides @ coords, dtype=np.int64)


def _coords(flat: Array, box: _Box) -> Array:
    """Coordinates (dims x states) of flat indices of a box."""
    return np.stack(np.unravel_index(flat, box.extents)).astype(np.int64).reshape(len(box.extents), -1)
