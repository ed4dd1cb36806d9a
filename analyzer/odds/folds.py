"""Counting deals book by book, each player folded into the total once no later book concerns it.

The third counter, for the openings people play: many asks, each in a different book, so that
every player is concerned by a few books but no book by every player. It counts the same
generating function as ``books`` (a factor per card, the deals the coefficient of
``prod x_p ** slots[p]``), written another way:

- *Cards as exceptions.* With ``X`` the sum of every player's ``x``, a card allowed to the
  players ``m`` is ``X - (the x of the players not in m)`` (its *complement form*), or the sum of
  the x of ``m`` when those are fewer (its *direct form*, as a card forced onto one player). A
  product of such factors is a sum of ``X ** a * prod x_p ** r_p``, and the coefficient of
  ``prod x_p ** slots[p]`` in that is the multinomial ``a! / prod (slots[p] - r_p)!`` with
  ``a = n - sum r_p``: so the count only needs, per player, how many of its x were picked
  (``r_p``, at most its slots), and a player no card singles out needs nothing at all.
- *Players folded.* Groups (a book's cards under requirements, or look-alike loose cards, as in
  ``books``) are taken in turn. A player's count starts at the first group that concerns it and,
  after the last, is folded into the total ``t`` of the counts of players done with. The
  multinomial is dealt out a player at a time, in whole numbers. The cards no factor singled
  out that go to the players folded so far (and to those no group concerns, dealt theirs
  first) number ``dealt - t``, ``dealt`` their slots and ``t`` their total; folding a player
  chooses its ``slots - r_p`` of them, ``C(dealt - t, slots - r_p)`` ways. Once all are
  folded, every such card is dealt. So the box holds the players between their first and last
  group and the total, not every player: the order of the groups is the one keeping those
  boxes smallest (searched exactly when they are few).
- *Least and most counts.* Requirements cancel whole ranges of counts: a group requiring a
  player to hold one of its cards takes away its ways with none of them, which cancel every
  way the player is singled out by none of the cards (``_raises``), and with requirements on
  several players the top counts cancel likewise (``_most``). Each axis starts at its player's
  least count so far (``_Step.low``; the total at the least of the players folded) and ends at
  its most: on the slowest probing openings, the boxes a third of the size, or less.
- *Groups multiplied out.* Under several requirements a group's terms cancel once multiplied
  out (``monomials``): a book under four requirements, 16 terms of 5 card factors, often sums
  to a handful of monomials. Where the card factors would take many steps of a box, the group
  is multiplied out as the count starts, and each way through it that is then likely less work
  goes monomial by monomial (``_Step.multiplied``): a shifted copy of the box per monomial.
- *Odds.* The deals with card ``c`` at ``p`` are the count with ``c``'s factor replaced by
  ``x_p``. Inside ``c``'s group that is a forward pass (the groups before, and the group's other
  cards) against a backward pass (the groups after) moved by one in ``p``'s count. For a player
  whose count is already folded, or not started, the forward pass carries a *family* per folded
  player with its card forced at the fold (its count one higher: the same fold, moved by one),
  and the backward pass one per player not started, made where it starts (the states where its
  count is one, read as zero). One player started late is given no such family: before it
  starts, every other player's deals with a card are counted, and the card is with someone in
  every deal, so its deals are the deals less theirs (``by_difference``). Nor is the first
  player folded (or those no group concerns, when there are any): a card forced on any player
  folded adds one to the total and takes one of the cards dealt it at the fold, so all the
  forward families together are the base moved by one in the total (where the players dealt
  have a slot left); that player's deals are those less the other families' (``by_sum``).

All arithmetic is modular, in numpy arrays of int64 with a row per modulus: primes below 2**31
and, on big boxes where every player is concerned by a group, 2**64 (int64's own wrapping, a
run of its own; ``arithmetic.WRAP``), which needs no division (whole-number weights
throughout) and gives 64 bits a row where a prime gives 31: on the slowest views, the odds in
three rows where primes alone take four; and where 2**64 and a prime below 2**31 fall a few
bits short of the odds, a prime of up to 48 bits (``arithmetic.WIDE_PRIMES``) instead of two
primes: two rows, and two runs that share two cores evenly. Sums of its residues still have
room in int64 between reductions; its products go by pieces (``arithmetic.times``, ``_Run._dot``).
The exact integers come back by the Chinese remainder theorem.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..knowledge import Position
from . import monomials, parallel
from .arithmetic import (
    PRIMES,
    WRAP,
    add_scaled,
    binomials,
    bit_pieces,
    crt,
    deal_bound,
    inverses,
    move,
    primes_for,
    residues,
    run_weight,
    times,
    wide_prime,
    wrapped,
)
from .books import _Group, _Model
from .routes import DEFAULT, Routes, TooLarge

Array = npt.NDArray[np.int64]

_EXACT_ORDER = 10  # up to this many groups, the order is the best of all; past it, greedy
_SAFE = 1 << 62  # values stay below this between reductions
_APART = 1 << 16  # from a box of this many states, the odds take the primes the deals likely need
_RUN_STATES = 1 << 20  # a run takes as many primes at once as keep its biggest box within this many states
_UNTOUCHED = -2  # the forward family of a card forced onto a player no group concerns
_MARGIN = 4  # bits over the guess of the deals (``_Model.likely_bits``) planned for
_MULTIPLY_FROM = 1 << 20  # a group whose card factors take this many steps of a box is multiplied out
_THREADS_MEMORY = 2  # runs in threads hold up to this many times the memory bound at once
_THREADED_LONG_MS = 350  # from a count the router's law puts at this long, a prime a run in threads
_COPY_WEIGHT = 1.5  # a state of a monomial's shifted copy, in steps of a card factor
_MONOMIAL_STEPS = 4000  # a monomial's numpy calls, in steps of a card factor
# Groups multiplied out with coefficients' sizes summing below this: residues below 2**31 times
# them add up inside int64; a wide prime is taken only where its residues times them do
# (``FoldCount._sequence``; 2,645 at most on the whole jokers games' slowest views).
_COEFFICIENTS = 1 << 31
_WIDE_BLOCK = 1 << 16  # the most states a sum of products modulo a wide prime takes at once (``_Run._wide_dot``)


Form = tuple[bool, int]  # (complement form?, the players its factor singles out)
Pieces = tuple[int, list[Array]]  # bits per piece, the pieces highest first
_Counted = tuple[Array, dict[Card, dict[str, Array]]]  # a run's deals, and its odds per card (``_Run.count``)
_Slices = tuple[slice, ...]
_LEAD = (slice(None),) * 3  # the family, the prime, the total


def _forms(group: _Group, everyone: int) -> dict[int, Form]:
    """The form of each card mask of a group: the complement form, but the direct form where it
    singles out fewer players not already singled out by the group (a card forced onto one)."""
    masks = {m for _, ms in group.terms for m in ms}
    seen = 0
    for m in masks:
        if (everyone & ~m).bit_count() <= m.bit_count():
            seen |= everyone & ~m
    forms: dict[int, Form] = {}
    for m in sorted(masks, key=int.bit_count):
        rest = everyone & ~m
        if rest.bit_count() > m.bit_count() and (m & ~seen).bit_count() < (rest & ~seen).bit_count():
            forms[m] = (False, m)
            seen |= m
        else:
            forms[m] = (True, rest)
            seen |= rest
    return forms


KindTerm = tuple[int, tuple[Form, ...], tuple[int, ...]]  # a coefficient, per kind its form and its cards


def _kind_terms(group: _Group, forms: dict[int, Form]) -> list[KindTerm]:
    """The group's terms kind by kind: cards alike (``books._Model._book``: the first cards are
    one of each kind) have the same mask in every term, so a term is its coefficient, each
    kind's form in it and how many cards each kind has."""
    kinds = len(group.kinds)
    sizes = tuple(len(same) for same in group.kinds.values())
    return [(coef, tuple(forms[m] for m in masks[:kinds]), sizes) for coef, masks in group.terms]


def _raises(terms: Sequence[KindTerm], q: int) -> bool:
    """Whether the group's sum of terms (``_kind_terms``) vanishes at ``x_q = 0``, term by term:
    with q taken out of every factor (a direct factor of q alone is then zero, and its term
    with it), the terms with the same factors have coefficients summing to zero. Then every
    state the group gives has q's count one higher than the state it came from or more (a
    player the group requires to hold one of its cards: its ways with none, taken away, cancel
    the ways it holds none of them in the rest), and so does each product with a card's factor
    replaced by a player's ``x`` (the odds): for another player, the terms cancelling have the
    same factor at that card, less q, which says whether the player may hold it, so they are
    kept or dropped together; for q, ``x_q`` is a factor."""
    bit = 1 << q
    sums: dict[tuple[Form, ...], int] = {}
    for coef, fs, _ in terms:
        if any(not complement and who == bit for complement, who in fs):
            continue  # (a factor is x_q: the term vanishes)
        key = tuple((complement, who & ~bit) for complement, who in fs)
        sums[key] = sums.get(key, 0) + coef
    return not any(sums.values())


def _top_power(terms: Sequence[KindTerm], q: int, most: int) -> int:
    """The highest power of ``x_q``, at most ``most``, whose coefficient in the sum of these
    terms (``_kind_terms``) does not vanish term by term. The coefficient of ``x_q ** k`` takes
    ``x_q`` from k of the cards singling q out (less it, in the complement form; from ``c`` of a
    kind's ``n`` cards in ``n choose c`` ways) and the rest of each factor from the others;
    products with the same number of ``x_q`` from each kind and the same rest of each kind's
    factor cancel when their coefficients sum to zero."""
    bit = 1 << q
    for k in range(most, 0, -1):
        sums: dict[tuple[object, ...], int] = {}
        for coef, fs, sizes in terms:
            singled = [i for i, (_, who) in enumerate(fs) if who & bit]
            for taken in itertools.product(*(range(sizes[i] + 1) for i in singled)):
                if sum(taken) != k:
                    continue
                counts = [0] * len(fs)
                for i, c in zip(singled, taken, strict=True):
                    counts[i] = c
                value = coef
                key: list[object] = []
                for (complement, who), c, n in zip(fs, counts, sizes, strict=True):
                    value *= math.comb(n, c) * (-1 if complement and c % 2 else 1)
                    rest = (complement, who & ~bit)
                    if c < n and not complement and rest[1] == 0:
                        break  # (the rest of x_q alone is zero)
                    key.append((rest if c < n else None, c))
                else:
                    sums[tuple(key)] = sums.get(tuple(key), 0) + value
        if any(sums.values()):
            return k
    return 0


def _most(terms: Sequence[KindTerm], q: int) -> int:
    """The most the group raises q's count in the products the count makes, less the one a
    card forced on q may add: the top power of ``x_q`` in the group's sum of terms
    (``_top_power``; requirements on several players cancel the top powers: the ways with none
    of the book at q and none at another player have fewer cards to give q), and in each
    product for the odds. With a card's factor replaced by another player's ``x``, the terms
    cancelling have the same rest of that card's factor, which says whether the player may
    hold it, so it cancels along; with ``x_q``, one more than the top power in the other
    cards' factors, over the terms where q may hold the card."""
    bit = 1 << q

    def singling(fs: tuple[Form, ...], sizes: tuple[int, ...]) -> int:
        return sum(n for (_, who), n in zip(fs, sizes, strict=True) if who & bit)

    top = _top_power(terms, q, max(singling(fs, sizes) for _, fs, sizes in terms))
    for i in range(len(terms[0][1])):  # (a card of each kind forced on q)
        rest = [
            (coef, fs, (*sizes[:i], sizes[i] - 1, *sizes[i + 1 :]))
            for coef, fs, sizes in terms
            if fs[i][0] != bool(fs[i][1] & bit)  # (q may hold it: not singled out by a complement, or by a direct form)
        ]
        most = max((singling(fs, sizes) for _, fs, sizes in rest), default=0)
        if most > top:
            top = max(top, _top_power(rest, q, most))
    return top


@lru_cache(maxsize=1 << 12)
def _bounds(terms: tuple[KindTerm, ...], q: int) -> tuple[int, bool]:
    """``_most`` and ``_raises`` of a group's terms for player q. Remembered: a book's terms
    come back unchanged from view to view and event to event (over every view of the 8-player
    jokers game, 4,782 distinct among 92,932), and over a game's views most of the planning
    of the fold was these bounds."""
    return _most(terms, q), _raises(terms, q)


@dataclass
class _Step:
    """A group's place in the order: the players tracked while it is counted (those it starts,
    then those tracked before: the axes of the box in that order, so that the counts of players
    just started, which the way back cuts most, are the outer axes, cut in long runs; as inner
    axes, the cut's copies took 4 to 6 ns a state), the ranges of their counts
    on the way back (with room for a card forced on one of them), forward, and on the way in
    (before the group's cards: a player it starts has count 0), the range of the total before
    it, the players it starts and those it ends. Each range starts at the player's least count
    on the way in (``low``; the total's at ``total_low``): index i of an axis is count low + i."""

    group: _Group
    forms: dict[int, Form]
    work: list[int]
    ranges: list[int]
    forward: list[int]
    inward: list[int]
    total: int
    born: list[int]
    dying: list[int]
    low: list[int]  # per tracked player, its least count on the way in: index 0 of its axis
    rise: list[int]  # per tracked player, how much the group raises its least count
    total_low: int  # the least total on the way in: index 0 of the total's axis
    multiply: bool | None = None  # multiplied out: by the work (None), wherever it can be (True), never (False)

    def out_low(self, p: int) -> int:
        """Tracked player p's least count out of the group."""
        d = self.work.index(p)
        return self.low[d] + self.rise[d]

    @property
    def states(self) -> int:
        return self.total * math.prod(self.ranges)

    @cached_property
    def term_sizes(self) -> int:
        """The sizes of the group's terms' coefficients summed (1 at least): the sum over its
        terms adds up a reduced value times this much (``_Run._through``, ``_Run._back_through``)."""
        return max(1, sum(abs(k) for k, _ in self.group.terms))

    @cached_property
    def ahead(self) -> int:
        """The states of the forward box."""
        return self.total * math.prod(self.forward)

    @cached_property
    def coming(self) -> int:
        """The states of the box on the way in: the forward pass into the group is zero past it."""
        return self.total * math.prod(self.inward)

    @property
    def coming_box(self) -> list[slice]:
        """The box on the way in, as slices of the total and the tracked players' counts."""
        return [slice(0, self.total), *(slice(0, x) for x in self.inward)]

    @cached_property
    def cards(self) -> int:
        """The card factors of the group's terms."""
        return sum(len(ms) for _, ms in self.group.terms)

    @cached_property
    def sums(self) -> int:
        """The ways back with a card left out that the odds read: one per kind and set of players
        reading the same (``readers``)."""
        return sum(len(readers) for readers in self.readers)

    @cached_property
    def masks(self) -> int:
        """The ways back with a card left out that the way back makes: one per kind and mask."""
        kinds = len(self.group.kinds)
        return len({(i, ms[i]) for _, ms in self.group.terms for i in range(kinds)})

    @cached_property
    def readers(self) -> list[list[tuple[int, list[int]]]]:
        """Per kind, the players whose deals with its card read the same way back, and the masks
        it sums: a player's is the way back with the card left out summed over the terms where
        the card may go to it, that is over the masks holding it. Players alike (those no
        requirement of the group names, or all those a card may not go to) share one sum, made
        once and read against the forward pass once: on a group of four requirements, a fifth
        of the sums and a third of the reads of one per mask."""
        out = []
        for i in range(len(self.group.kinds)):
            masks = sorted({ms[i] for _, ms in self.group.terms})
            players: dict[tuple[int, ...], int] = {}
            for p in range(max(masks).bit_length()):
                key = tuple(m for m in masks if m >> p & 1)
                if key:
                    players[key] = players.get(key, 0) | 1 << p
            out.append([(who, list(key)) for key, who in players.items()])
        return out

    @cached_property
    def newborn(self) -> int:
        """The players the group starts, as bits over the players."""
        return sum(1 << p for p in self.born)

    def starts(self, mask: int) -> int:
        """The players the group starts that a card of this mask singles out."""
        return self.forms[mask][1] & self.newborn

    @cached_property
    def start_box(self) -> list[int]:
        """The forward box before the group's first card: a player it starts is at count 0 there,
        and joins the box at the first card singling it out (``_Run._through``)."""
        return [1 if p in self.born else x for p, x in zip(self.work, self.forward, strict=True)]

    def forward_order(self, masks: tuple[int, ...]) -> list[int]:
        """A term's cards (by their place) in the order the way forward takes them: those singling
        out a player the group starts last, so that the others go through a box without it."""
        return sorted(range(len(masks)), key=lambda i: self.starts(masks[i]) != 0)

    @cached_property
    def back_order(self) -> list[int]:
        """The group's cards (by their place in its terms) in the order the way back takes them,
        last first: the cards past the first of each kind, then one of each kind. The way back
        with a kind's card left out goes through the kinds before it again: those whose factors
        move the fewest counts over all the terms come first. (On the jokers game's public views
        after events 22 and 24, the slowest of the probing openings, a fifth fewer of those moves.)
        In each of those two parts, the cards singling out a player the group starts in some term
        come last, so that the way back takes them early and needs few of its counts after them
        (``tops``)."""
        kinds = len(self.group.kinds)
        terms = self.group.terms

        def starting(i: int) -> bool:
            return any(self.starts(ms[i]) for _, ms in terms)

        def moves(i: int) -> tuple[bool, int]:
            return starting(i), sum(self.forms[ms[i]][1].bit_count() for _, ms in terms)

        return sorted(range(kinds), key=moves) + sorted(range(kinds, len(self.group.cards)), key=starting)

    @cached_property
    def _factors(self) -> list[tuple[monomials.Factor, int]]:
        """Per kind, its card's factor in each term over the tracked players, and its cards."""
        forms = [[self.forms[ms[i]] for _, ms in self.group.terms] for i in range(len(self.group.kinds))]
        return [
            (
                monomials.Factor(
                    np.array([complement for complement, _ in each], dtype=np.bool_),
                    np.array([[bool(who >> p & 1) for p in self.work] for _, who in each], dtype=np.bool_),
                ),
                len(same),
            )
            for each, same in zip(forms, self.group.kinds.values(), strict=True)
        ]

    @cached_property
    def whole_sum_back(self) -> tuple[npt.NDArray[np.int64], Array] | None:
        """The group's sum of terms multiplied out (``monomials.expand``) over the counts of the
        way back (``ranges``): its monomials' exponents and coefficients; None past the
        coefficients' bound."""
        made = monomials.expand([coef for coef, _ in self.group.terms], self._factors, self.ranges)
        return None if made is None else made.total()

    @cached_property
    def whole_sum(self) -> tuple[npt.NDArray[np.int64], Array] | None:
        """``whole_sum_back`` over the forward box."""
        if self.whole_sum_back is None:
            return None
        exps, coefs = self.whole_sum_back
        keep = (exps < np.array(self.forward, dtype=np.int64)).all(axis=1)
        return exps[keep], coefs[keep]

    @cached_property
    def left_out(self) -> dict[tuple[int, int], tuple[npt.NDArray[np.int64], Array]] | None:
        """Per kind and set of players reading the same (``readers``), the sum of the terms
        with a card of the kind left out, multiplied out over the counts of the way back (over
        the terms where the card may go to those players); None past the coefficients' bound."""
        coefs = [coef for coef, _ in self.group.terms]
        out = {}
        for i, readers in enumerate(self.readers):
            kinds = list(self._factors)
            kinds[i] = (kinds[i][0], kinds[i][1] - 1)
            masks, marks = np.unique([ms[i] for _, ms in self.group.terms], return_inverse=True)
            made = monomials.expand(coefs, kinds, self.ranges, marks.reshape(-1))
            if made is None:
                return None
            for who, mine in readers:
                out[(i, who)] = made.total(np.isin(masks, mine))
        return out

    @cached_property
    def multiplied_work(self) -> tuple[int | None, int | None]:
        """The work of one family through the group multiplied out, forward and back, in the
        units of the card factors' (None where it is not weighed: a coefficient too big, or a
        group whose card factors take fewer than ``_MULTIPLY_FROM`` steps of a box, not worth
        multiplying out, which takes a few milliseconds). Each monomial is a shifted copy of the
        box, over the box on the way in forward, over the counts needed back, at
        ``_COPY_WEIGHT`` times a step of a card factor (its rows are short), and
        ``_MONOMIAL_STEPS`` more (numpy's call). Forward, one product of the box per size of
        coefficient; back, a product per copy, and the sums against the forward pass. The sums
        with a card left out are multiplied out only when the way back through the whole sum,
        once per sum, would be at most twice the card factors' work (they have about as many
        monomials; multiplying them out takes milliseconds). With this bound set at twice
        ``back_moves`` instead, many more groups would be multiplied out, and few of them would
        gain."""
        small = max(self.forward_work, self.back_work) < _MULTIPLY_FROM
        if self.multiply is False or (self.multiply is None and small):
            return None, None
        if self.whole_sum is None or self.whole_sum_back is None:
            return None, None
        exps, coefs = self.whole_sum
        forward: int | None = None
        if monomials.coefficient_sum(coefs) < _COEFFICIENTS:
            copies = monomials.shifted_work(exps, self.inward, self.forward)
            scaled = len(np.unique(np.abs(coefs))) * math.prod(self.inward)
            forward = int(self.total * (_COPY_WEIGHT * copies + scaled) + _MONOMIAL_STEPS * len(coefs))

        def back(sums: list[tuple[npt.NDArray[np.int64], Array]]) -> int:
            copies = sum(monomials.shifted_work(e, self.needed, self.ranges) for e, _ in sums)
            steps = _MONOMIAL_STEPS * sum(len(c) for _, c in sums)
            return int(self.total * _COPY_WEIGHT * copies + steps) + self.sums * self.coming

        likely = back([self.whole_sum_back] * (1 + self.sums))
        if not (self.multiply or likely <= 2 * self.back_work) or self.left_out is None:
            return forward, None
        sums = [self.whole_sum_back, *self.left_out.values()]
        return forward, back(sums) if all(monomials.coefficient_sum(c) < _COEFFICIENTS for _, c in sums) else None

    @property
    def coefficients(self) -> int:
        """The largest sum of the coefficients' sizes of what goes monomial by monomial (0 when
        the group goes card factor by card factor): a shifted copy times each adds up to it
        times a residue."""
        forward, back = self.multiplied
        sums = [self.whole_sum] if forward else []
        if back:
            assert self.left_out is not None
            sums += [self.whole_sum_back, *self.left_out.values()]
        return max((monomials.coefficient_sum(made[1]) for made in sums if made is not None), default=0)

    @property
    def run_work(self) -> tuple[int, int]:
        """The work of one family forward and back as the count goes: the card factors', or the
        monomials' where the group is ``multiplied`` out. Back, in the unit of ``back_work``,
        which the fold's law was fitted on (``Routes``): the monomials' work is weighed against
        the moves (``back_moves``), so it is scaled by the ratio of the two."""
        (ahead, behind), (forward, back) = self.multiplied_work, self.multiplied
        return (
            ahead if forward and ahead is not None else self.forward_work,
            behind * self.back_work // max(1, self.back_moves) if back and behind is not None else self.back_work,
        )

    @cached_property
    def multiplied(self) -> tuple[bool, bool]:
        """Whether the way forward, and the way back, go monomial by monomial: where that is
        likely less work than the card factors (or as ``Routes.multiply`` forces). Asked once
        the count is under way, and by the router only of its slowest views
        (``FoldCount.multiplied_cost``): it weighs the card factors' work (``forward_work``,
        ``back_moves``), so that weighing most views never multiplies out."""
        forward, back = self.multiplied_work
        return (
            forward is not None and (self.multiply or forward < self.forward_work),
            back is not None and (self.multiply or back < self.back_moves),
        )

    @cached_property
    def copies_forward(self) -> list[tuple[int, list[tuple[bool, _Slices, _Slices]]]]:
        """The way forward through the group multiplied out (``_Run._multiplied``): per size of
        coefficient, each of its monomials' sign and where its copy of the box on the way in
        goes in the forward box, and from where (as far as it fits)."""
        assert self.whole_sum is not None
        exps, coefs = self.whole_sum
        out = []
        for size in np.unique(np.abs(coefs)).tolist():
            copies = []
            for e, coef in zip(exps.tolist(), coefs.tolist(), strict=True):
                if abs(coef) == size:
                    dst, src = _copy(e, self.inward, self.forward)
                    copies.append((coef < 0, dst, src))
            out.append((size, copies))
        return out

    @cached_property
    def copies_back(self) -> list[list[tuple[int, _Slices, _Slices]]]:
        """The way back through the group multiplied out, then each of ``left_out``
        (``_Run._multiplied_back``): each monomial's coefficient, and where it reads the way back
        into the counts needed (as far as the way back goes) and from where."""
        assert self.whole_sum_back is not None and self.left_out is not None
        out = []
        for exps, coefs in [self.whole_sum_back, *self.left_out.values()]:
            copies = []
            for e, coef in zip(exps.tolist(), coefs.tolist(), strict=True):
                src, dst = _copy(e, self.needed, self.ranges)
                copies.append((coef, dst, src))
            out.append(copies)
        return out

    @cached_property
    def forward_work(self) -> int:
        """The work of one family forward: each term's card factors through the forward box,
        a player the group starts counted from its first card in the term (``_Run._through``)."""
        sizes: dict[int, int] = {}

        def size(waiting: int) -> int:  # (the box with the players still waiting at count 0)
            if waiting not in sizes:
                sizes[waiting] = self.total * math.prod(
                    1 if waiting >> p & 1 else x for p, x in zip(self.work, self.forward, strict=True)
                )
            return sizes[waiting]

        work = 0
        for _, masks in self.group.terms:
            waiting = self.newborn
            for i in self.forward_order(masks):
                waiting &= ~self.starts(masks[i])
                work += size(waiting)
        return work

    @cached_property
    def needed(self) -> list[int]:
        """Per tracked player, the counts the way back must have right once past the group (from
        its least count on the way in): those of the box on the way in and one more (the odds read
        the way back there moved by one in the player's count, and the group before reads no more:
        its range is at most this)."""
        return [min(x, y + 1) for x, y in zip(self.ranges, self.inward, strict=True)]

    @cached_property
    def singled(self) -> npt.NDArray[np.int64]:
        """Per term, how many of its cards up to each place of ``back_order`` single out each
        tracked player (a row per place, from none to all: terms x (cards + 1) x players)."""
        order = self.back_order
        who = np.array([[self.forms[masks[i]][1] for i in order] for _, masks in self.group.terms], dtype=np.int64)
        bits = (who[:, :, None] >> np.array(self.work, dtype=np.int64)) & 1
        out = np.zeros((bits.shape[0], bits.shape[1] + 1, bits.shape[2]), dtype=np.int64)
        np.cumsum(bits, axis=1, out=out[:, 1:])
        return out

    def tops(self, term: int, start: int, end: int) -> list[int]:
        """Per tracked player, the counts a product on the way back needs before the cards of a
        term at places ``start`` up to (not with) ``end`` of ``back_order``: ``needed``, and one
        more for each of them singling the player out (a state takes from the one above it at
        each such card, and from nothing higher)."""
        key = (term, start, end)
        made = self._tops
        if key not in made:  # (asked for once per card and prime)
            rows = self.singled[term]
            made[key] = self._counts(rows[end], rows[start]).tolist()
        return made[key]

    def _counts(self, end: Array, start: Array) -> Array:
        """``tops`` of rows of ``singled`` (any shape, players last): the counts ``needed``, and
        one more for each card from ``start`` to ``end`` singling the player out, within its range."""
        counts: Array = np.minimum(self._needed + end - start, self._ranges)
        return counts

    @cached_property
    def _tops(self) -> dict[tuple[int, int, int], list[int]]:
        return {}

    @cached_property
    def _needed(self) -> npt.NDArray[np.int64]:
        return np.array(self.needed, dtype=np.int64)

    @cached_property
    def _ranges(self) -> npt.NDArray[np.int64]:
        return np.array(self.ranges, dtype=np.int64)

    @cached_property
    def back_work(self) -> int:
        """The work of one family on the way back: the card factors and the cards left out
        through its box, each over the counts still needed (``tops``; ``_Run._back_through``),
        and its sums against the forward pass on the way in."""
        kinds = len(self.group.kinds)
        rows = self.singled
        on = self._counts(rows[:, 1:], rows[:, :1])  # (the way on)
        work = int(on.prod(axis=2).sum())
        if kinds > 1:  # (each kind left out: through the kinds before it)
            before, kind = np.triu_indices(kinds, 1)
            out = self._counts(rows[:, kind], rows[:, before])
            work += int(out.prod(axis=2).sum())
        return self.total * work + self.masks * self.coming

    @cached_property
    def back_moves(self) -> int:
        """The card factors' work on the way back as ``_Run._back_through`` makes it: each product
        over its own counts (``tops``), times the players its card singles out (a move of the
        box each, ``move``; none for a card every player may hold), and the sums against the
        forward pass. The way back monomial by monomial (``multiplied_work``) is weighed against
        this. ``back_work``, a step per card, put a book under three requirements, most of whose
        cards move three to five counts, at half its work or less. Over 694 heavy groups of the
        8-player probing games' public views that went back card by card, a unit of this took
        6.1 ns at the median (of ``back_work``, 8.3 ns); over the 91 of them whose way back
        multiplied out is weighed, a unit of the monomials' work took 5.7 ns. Going monomial by
        monomial where that is less than this, those 91 took 5.6 s where the card factors took
        8.2 s (the quicker way for each: 5.5 s)."""
        kinds = len(self.group.kinds)
        rows = self.singled
        moves = (rows[:, 1:] - rows[:, :-1]).sum(axis=2)  # (term, place): the counts its card moves
        on = self._counts(rows[:, :-1], rows[:, :1])  # (the way on)
        work = int((on.prod(axis=2) * moves).sum())
        if kinds > 1:  # (each kind left out: through the cards before it)
            before, kind = np.triu_indices(kinds, 1)
            out = self._counts(rows[:, kind], rows[:, before + 1])
            work += int((out.prod(axis=2) * moves[:, before]).sum())
        return self.total * work + self.masks * self.coming


def _copy(e: list[int], inner: list[int], outer: list[int]) -> tuple[_Slices, _Slices]:
    """A monomial's copy between the box ``inner`` and the box ``outer``, as far as it fits
    (its exponents are below ``outer``): the states of ``outer`` moved up by the exponents, and
    those of ``inner`` they pair with (forward, the first take the second; back, the second read
    the first)."""
    spans = [min(n, top - k) for n, top, k in zip(inner, outer, e, strict=True)]
    moved = _LEAD + tuple(slice(k, k + n) for k, n in zip(e, spans, strict=True))
    return moved, _LEAD + tuple(slice(0, n) for n in spans)


class FoldCount:
    """Counts deals (and deals with each card at each player) book by book, folding players into
    the total, modulo primes, then exactly."""

    def __init__(self, pos: Position, routes: Routes = DEFAULT, model: _Model | None = None, odds: bool = True) -> None:
        self.model = model = _Model(pos) if model is None else model
        self.routes = routes
        self.odds = odds  # whether the cost and the memory bound are of a count with the odds
        self.n = len(pos.allowed)
        players = len(model.players)
        self.forms = [_forms(g, model.everyone) for g in model.groups]
        # Per group and player: the most of the group's cards whose factor singles it out in a term.
        self.most: list[list[int]] = []
        for g, forms in zip(model.groups, self.forms, strict=True):
            most = [0] * players
            for _, masks in g.terms:
                got = [0] * players
                for m in masks:
                    who = forms[m][1]
                    for p in range(players):
                        got[p] += who >> p & 1
                most = list(map(max, most, got))
            self.most.append(most)
        self.touch = [sum(1 << p for p, k in enumerate(most) if k) for most in self.most]
        kind_terms = [tuple(_kind_terms(g, forms)) for g, forms in zip(model.groups, self.forms, strict=True)]
        # Per group and player: the most the group raises its count (``_most``: no more than
        # ``most``, which says which players it concerns), and how much it raises its least
        # count (``_raises``).
        self.tops = [
            [_bounds(terms, p)[0] if k else 0 for p, k in enumerate(most)]
            for terms, most in zip(kind_terms, self.most, strict=True)
        ]
        self.rises = [
            [int(bool(touch >> p & 1) and _bounds(terms, p)[1]) for p in range(players)]
            for terms, touch in zip(kind_terms, self.touch, strict=True)
        ]
        # Per player: the most exceptions all the groups can give it, at most its slots.
        self.whole = [min(s, sum(m[p] for m in self.tops)) for p, s in enumerate(model.slots)]
        self.order = [] if model.zero else self._order()[0]
        self.steps = self._steps()

    # ------------------------------------------------------------ the order

    def _order(self) -> tuple[list[int], int]:
        """The order of the groups keeping the work least (the sum over groups of their box
        times their card factors), and that work: the best of all orders by dynamic programming
        over the sets of groups done, up to ``_EXACT_ORDER`` groups, else greedy. On a tie, the
        exact search ends each set with the group listed first; greedy takes the group listed
        first next."""
        k = len(self.model.groups)
        full = (1 << k) - 1
        if k > _EXACT_ORDER:
            order: list[int] = []
            done, cost = 0, 0
            for _ in range(k):
                work = self._works(np.array([done], dtype=np.int64))[0]
                i = min((i for i in range(k) if not done >> i & 1), key=lambda i: int(work[i]))
                cost += int(work[i])
                order.append(i)
                done |= 1 << i
            return order, cost
        # Sets of groups as bit masks, all the sets of one size at once: the best way to a set
        # ends with the group whose way in, from the best way to the rest, costs least.
        masks = np.arange(full + 1, dtype=np.int64)
        work = self._works(masks)
        best = np.zeros(full + 1, dtype=np.int64)
        last = np.zeros(full + 1, dtype=np.int64)  # the group each best way ends with
        groups = np.arange(k)[:, None]
        sizes = (masks[:, None] >> groups.T & 1).sum(axis=1)
        for size in range(1, k + 1):
            sets = masks[sizes == size]
            before = sets ^ (1 << groups)  # (a group, a set): the set without the group
            ways = np.where(sets >> groups & 1 == 1, best[before] + work[before, groups], np.iinfo(np.int64).max)
            last[sets] = ways.argmin(axis=0)
            best[sets] = ways.min(axis=0)
        order, mask = [], full
        while mask:
            order.append(int(last[mask]))
            mask ^= 1 << order[-1]
        return order[::-1], int(best[full])

    def _works(self, done: Array) -> Array:
        """Per set of groups done (a bit mask, one per row) and group next (a column): the next
        group's work, its card factors times its box. The box holds the players the next group
        concerns and those some group done and some group to come concern, each from the least
        count the groups done leave it to the most they and the next can give it, with room for a
        forced card, and the range of the total of the players folded. (Where the next group is
        among those done, the entry means nothing: the search does not read it.)"""
        k, slots = len(self.model.groups), np.array(self.model.slots, dtype=np.int64)
        players, groups = np.arange(len(slots)), np.arange(k)
        touch = np.array(self.touch, dtype=np.int64)
        most = np.array(self.tops, dtype=np.int64).reshape(k, len(slots))
        ops = np.array([sum(len(ms) for _, ms in g.terms) for g in self.model.groups], dtype=np.int64)

        def concern(sets: Array) -> Array:
            """The players the groups of each set concern."""
            who: Array = np.bitwise_or.reduce(np.where(sets[..., None] >> groups & 1 == 1, touch, 0), axis=-1)
            return who

        seen = concern(done)[:, None]
        active = (seen & concern(((1 << k) - 1) & ~done[:, None] & ~(1 << groups))) | touch  # (set, next)
        rises = np.array(self.rises, dtype=np.int64).reshape(k, len(slots))
        got = (done[:, None] >> groups & 1) @ most  # per player, the most the groups done give it
        low = (done[:, None] >> groups & 1) @ rises  # and its least count
        # (set, next, player)
        ranges = np.maximum(1, np.minimum(slots, got[:, None, :] + most + 1) + 1 - low[:, None, :])
        size = np.where(active[..., None] >> players & 1 == 1, ranges, 1).prod(axis=-1)
        folded = (seen & ~active)[..., None] >> players & 1
        total = np.minimum(self.n, 1 + folded @ np.array(self.whole, dtype=np.int64)) + 1
        total = np.maximum(1, total - folded @ rises.sum(axis=0))
        out: Array = size * total * ops
        return out

    def _steps(self) -> list[_Step]:
        slots = self.model.slots
        self.first: dict[int, int] = {}  # per player concerned, the step it starts at
        first = self.first
        last: dict[int, int] = {}
        for j, g in enumerate(self.order):
            for p, k in enumerate(self.most[g]):
                if k:
                    first.setdefault(p, j)
                    last[p] = j
        whole = self.whole
        got = [0] * len(slots)
        low = [0] * len(slots)  # per player, its least count so far (``_raises``)
        tracked: list[int] = []
        folded = 1  # room for a forced card
        total_low = 0

        def size(top: int, least: int) -> int:
            """The states from count ``least`` to ``top``; one at least (past a player's slots,
            or past n for the total, every weight is zero: a view whose least counts pass them
            has no deal)."""
            return max(1, top + 1 - least)

        steps = []
        for j, g in enumerate(self.order):
            born = [p for p in range(len(slots)) if first.get(p) == j]
            work = born + tracked
            inward = [size(min(slots[p], got[p]), low[p]) for p in work]
            got = [a + b for a, b in zip(got, self.tops[g], strict=True)]
            dying = [p for p in work if last[p] == j]
            rise = [self.rises[g][p] for p in work]
            steps.append(
                _Step(
                    self.model.groups[g],
                    self.forms[g],
                    work,
                    [size(min(slots[p], got[p] + 1), low[p]) for p in work],
                    [size(min(slots[p], got[p]), low[p]) for p in work],
                    inward,
                    size(min(self.n, folded), total_low),
                    born,
                    dying,
                    [low[p] for p in work],
                    rise,
                    total_low,
                    self.routes.multiply,
                )
            )
            for p, r in zip(work, rise, strict=True):
                low[p] += r
            tracked = [p for p in work if p not in dying]
            folded += sum(whole[p] for p in dying)
            total_low += sum(low[p] for p in dying)
        self.end_total = size(min(self.n, folded), total_low)
        self.end_low = total_low
        self.untouched = [p for p in range(len(slots)) if p not in first]
        return steps

    @cached_property
    def moduli(self) -> list[int]:
        """What the count is made modulo, enough for their product to pass the deals' bound: on
        big boxes (``apart``) where every player is concerned by a group, 2**64 first (int64's
        own wrapping: 64 bits for a row of the arrays, and nothing to reduce), then primes; else
        primes alone. Small boxes go all their moduli in one run, where 2**64 would take a run
        of its own; players no group concerns share their odds out by a division."""
        return primes_for(self._bound, self._sequence)

    @property
    def _sequence(self) -> Sequence[int]:
        """Primes alone, or on big boxes 2**64 first; then, where the odds would take 2**64 and two
        primes below 2**31 but one wider prime passes the guess of the deals with 2**64
        (``arithmetic.wide_prime``), that prime: the odds in two runs where they took three."""
        if not self.apart or self.untouched:
            return PRIMES
        wide = wide_prime(self._planned >> 64)
        if wide is None or wide * self._growth > _SAFE or wide * self._coefficients > _SAFE:
            return (WRAP, *PRIMES)
        return (WRAP, wide, *PRIMES)

    @cached_property
    def _coefficients(self) -> int:
        """The largest sum of coefficients' sizes a group multiplied out adds a residue times
        (``_Step.coefficients``)."""
        return max((step.coefficients for step in self.steps), default=0)

    @cached_property
    def _growth(self) -> int:
        """How far a group's terms can take a reduced value before the next reduction: the
        sizes of its terms' coefficients summed, times what a card's factor multiplies by (the
        passes reduce before a card's factor would pass ``_SAFE`` over the first)."""
        return (len(self.model.players) + 1) * max((step.term_sizes for step in self.steps), default=1)

    @cached_property
    def by_difference(self) -> int | None:
        """The player started after the first group whose family on the way back would cost the
        most, or None: it is not made, as before the player starts every other player's deals
        with a card are counted, and a card is with someone in every deal, so the player's are
        the deals less the others'."""
        saved: dict[int, int] = {}
        work = 0  # the way back through the groups so far, one family
        for step in self.steps:
            for p in step.born:
                if step is not self.steps[0]:
                    saved[p] = work
            work += step.back_work
        return max(saved, key=saved.__getitem__, default=None)

    @cached_property
    def by_sum(self) -> int | None:
        """The forward family not made, or None: that of the players no group concerns
        (``_UNTOUCHED``), else that of the first player folded, the one the way forward would
        carry furthest. Its deals with a card are those of all the forward families together
        less the others', and all together need no family of their own (``_Run._weighed``).
        When it is also ``by_difference``, it is counted by difference before it starts and so
        once folded."""
        if self.untouched:
            return _UNTOUCHED
        return next((step.dying[0] for step in self.steps if step.dying), None)

    @cached_property
    def slots_out(self) -> list[int]:
        """Per group, then at the end: the slots of the players folded before it and of the
        players no group concerns."""
        out = [sum(self.model.slots[p] for p in self.untouched)]
        for step in self.steps:
            out.append(out[-1] + sum(self.model.slots[p] for p in step.dying))
        return out

    @cached_property
    def dealt(self) -> list[list[int]]:
        """Per group, after each player it folds: the slots of the players folded so far (that
        one included) and of those no group concerns (``_Run._weights``)."""
        return [
            list(itertools.accumulate((self.model.slots[p] for p in step.dying), initial=before))[1:]
            for step, before in zip(self.steps, self.slots_out, strict=False)
        ]

    def _families(self) -> Iterator[tuple[_Step, int, int]]:
        """Per group: its step and the families of the way forward into it and of the way back
        from it (``by_sum`` and ``by_difference`` have none)."""
        forward = 1 + (bool(self.untouched) and self.by_sum != _UNTOUCHED)
        back = 1 + len({p for step in self.steps for p in step.born} - {self.by_difference})
        for step in self.steps:
            back -= len([p for p in step.born if p != self.by_difference])
            yield step, forward, back
            forward += len([p for p in step.dying if p != self.by_sum])

    @property
    def cost(self) -> int:
        """The work of the count (about array element steps, over every modulus): per group, its
        card factors through the forward box for each forward family, and with the odds, through
        the box of the way back for each family there, with the cards left out for the odds and
        their dots with the forward pass; the odds in as many rows as the router's law was
        fitted with, the deals alone in the others (``_law_rows``). (Where the guess of the
        deals falls short, the count also takes the odds in the moduli missing: this leaves that
        out.) The dots are weighed one per kind and mask, as when the fold's law was fitted
        (``Routes``): reading the sums per set of players (``_Step.readers``) only makes the
        count quicker than that."""
        return self._cost(lambda step: (step.forward_work, step.back_work))

    @property
    def multiplied_cost(self) -> int:
        """``cost`` with each group weighed as the count will go through it, multiplied out
        where that is likely less work (``_Step.multiplied``): asked by the router only of the
        slowest views, as it multiplies their heavy groups out."""
        return self._cost(lambda step: step.run_work)

    def _cost(self, works: Callable[[_Step], tuple[int, int]]) -> int:
        count = sum(works(step)[0] for step in self.steps)
        rows, odds_rows = self._law_rows
        if not self.odds:
            return count * rows
        work = 0
        for step, forward, back in self._families():
            ahead, behind = works(step)
            work += forward * ahead + back * behind
            work += step.masks * step.coming * (forward + len(step.work))
        return work * odds_rows + count * (rows - odds_rows)

    @cached_property
    def _law_rows(self) -> tuple[int, int]:
        """The rows of the count and of its odds as the router's law for the fold was fitted:
        modulo primes alone. With 2**64 the odds of the slowest views take three rows where
        they took four (two, where the deals need 93 to 95 bits), and went 30% to 45% quicker,
        not a quarter to a half less of the law's time: weighed in the rows they take, on the
        whole 8-player jokers games the router took the fold multiplied out for views the
        book-by-book count took in less than half the time (after event 61 of seed 0, 530 ms
        against 187). Weighed as before, the router chooses as before, and the fold is quicker
        than its law says."""
        bound = deal_bound(self.model.slots)  # (the law was fitted before ``_Model.bound``)
        rows = len(primes_for(bound))
        return rows, len(primes_for(min(self._guess, bound))) if self.apart else rows

    @cached_property
    def _bound(self) -> int:
        return self.model.bound

    @cached_property
    def _planned(self) -> int:
        """What the moduli of the odds are planned to pass: a guess of the deals
        (``_Model.likely_bits``, and ``_MARGIN`` bits over), at most the bound."""
        return min(self._guess, self._bound)

    @cached_property
    def _guess(self) -> int:
        return 1 << max(0, math.ceil(self.model.likely_bits() + _MARGIN))

    @cached_property
    def odds_moduli(self) -> int:
        """How many moduli the odds are planned in; the others count the deals alone (``run``).
        The odds are at most the deals: their moduli need only exceed the deals, and those of
        the slow views are far below the bound the moduli are for. On big boxes, the moduli a
        guess of the deals needs (``_Model.likely_bits``, and ``_MARGIN`` bits over); small ones
        go all at once (``apart``)."""
        return len(primes_for(self._planned, self._sequence)) if self.apart else len(self.moduli)

    @property
    def biggest(self) -> int:
        """About the most array elements the count holds at once: ``workers`` runs of ``chunk``
        primes each."""
        return self._biggest(self.chunk * self.workers)

    @property
    def fits(self) -> bool:
        """Whether the count stays within the memory bound, a run at a time: eight times
        ``Routes.max_states`` array elements (the book-by-book count's bound is in states of a
        box, each of a few rows). Runs in threads (``workers``) may hold twice that at once."""
        return self._biggest(self.chunk) <= self.routes.max_states * 8

    def _biggest(self, rows: int) -> int:
        """About the most array elements the count holds at once, a run taking ``rows`` primes:
        the more of: on the way forward, the passes kept so far and the way through the group
        (its way in, a card's product and factor, the sum over the terms; every family); on the
        way back, every pass kept (over the box on the way in) and, for the group where it is
        most, the way back, its way through the group and its cards left out, summed per kind and
        mask, every family of each, and six boxes of one family more, an allowance fitted to
        measured peaks. Against ``tracemalloc`` peaks of 547 probing views, a prime a run: those
        it puts at 30 MiB or more peak at 0.57-0.95 of it, the smallest at up to 1.11 times it.
        (Measured before the players a group starts joined late and the way back was cut to the
        counts it needs, which can only lower the peaks: the bound errs higher now; and more so
        with several primes a run, the allowance growing with them: the 8-player jokers opening's
        public view after event 22, four primes a run, is put at 119 MiB, and no view of that
        opening peaks over 35 MiB.) Without the odds: the forward box where it is biggest, about
        four times."""
        if not self.odds:
            return 4 * max((step.ahead for step in self.steps), default=0) * rows
        kept, ahead, most = 0, 0, 0
        for step, forward, back in self._families():
            ahead = max(ahead, kept + forward * step.coming + 4 * forward * step.ahead)
            kept += forward * step.coming
            most = max(most, ((step.masks + 3) * back + 6) * step.states)
        return max(ahead, kept + most) * rows

    @cached_property
    def most_states(self) -> int:
        """The states of the biggest box (0 with no group)."""
        return max((s.states for s in self.steps), default=0)

    @property
    def apart(self) -> bool:
        """Whether the odds take only the moduli the deals likely need (``odds_moduli``), the
        others counting the deals alone: where the biggest box has ``_APART`` states or more."""
        return self.most_states >= _APART

    @cached_property
    def chunk(self) -> int:
        """How many moduli a run takes at once (``run``): every one on small boxes (``apart``);
        on big ones, a prime a run where the runs go in threads and the count is long
        (``_threaded_long``), so that they share the cores evenly; else as many as keep the
        biggest box within ``_RUN_STATES`` states and the arrays within the memory bound
        (``fits``), one at least. 2**64 always goes alone. A run makes the same numpy calls
        whatever its moduli, each on arrays a row per modulus (these figures from before 2**64,
        with primes alone): on four slow probing views (boxes of 81,000 to 423,360 states), runs
        of two or four primes took 0.75 to 0.86 of the time of runs of one, but four primes on
        the biggest (1.7 million states an array) 1.09 times."""
        if not self.apart:
            return len(self.moduli)
        if self._threaded_long:
            return 1
        return max(1, min(len(self.moduli), _RUN_STATES // self.most_states, self._room))

    @cached_property
    def _threaded_long(self) -> bool:
        """Whether the runs go in threads a prime each: where more than one thread is allowed
        and the router's law puts the count at ``_THREADED_LONG_MS`` or more. Below, runs of a
        prime are short numpy calls on small boxes, and threads contend for Python's lock: on
        the 8-player openings' public views of 50 to 100 ms (the law says 120 to 210), a prime a
        run on four threads took up to a third longer than one thread, and up to 1.7 times the
        processor time, where the runs one thread makes, in threads, took 0.85 to 0.97 of the
        time; on the whole jokers games' views of 200 to 350 ms (the law, 530 to 850), a prime a
        run on four threads took 0.62 to 0.79 of the time of one thread (those runs, 0.73 to
        0.81). Where it is shorter, the runs as one thread would make them go in threads."""
        if parallel.threads() <= 1:
            return False
        return self.routes.likely_folds_ns(self.cost) >= _THREADED_LONG_MS * 1e6

    @cached_property
    def workers(self) -> int:
        """How many runs go at once, each in a thread of its own (``parallel``): on big boxes
        (``apart``), as many as the threads a count may take, their arrays within
        ``_THREADS_MEMORY`` times the memory bound; else one."""
        if not self.apart:
            return 1
        room = _THREADS_MEMORY * self.routes.max_states * 8 // max(1, self._biggest(self.chunk))
        return max(1, min(parallel.threads(), room, len(self.moduli)))

    @cached_property
    def _room(self) -> int:
        """How many moduli the memory bound allows at once: eight times ``Routes.max_states``
        elements, over those of one modulus."""
        return self.routes.max_states * 8 // max(1, self._biggest(1))

    # ------------------------------------------------------------ the count

    def run(self, odds: bool) -> tuple[int, dict[Card, dict[str, int]]]:
        """The fitting deals and, with ``odds``, the deals with each card at each player;
        ``TooLarge`` past the memory bound, ``ValueError`` for the odds of a count planned
        without them."""
        if odds and not self.odds:
            raise ValueError("a count planned without the odds cannot give them")
        if self.model.zero:
            return 0, {}
        if not self.fits:
            raise TooLarge(f"{self.biggest * 8 / 2**20:,.0f} MiB of arrays with players folded")
        moduli = self.moduli
        step = self.chunk

        def spans(these: list[int]) -> list[list[int]]:
            alone = [[q] for q in these[:1] if q == WRAP]  # (2**64 in a run of its own)
            rest = these[len(alone) :]
            return alone + [rest[r : r + step] for r in range(0, len(rest), step)]

        def runs(*batches: tuple[list[int], bool]) -> list[list[_Counted]]:
            """Per batch of moduli (with the odds or not), its runs: all of them at once, in
            ``workers`` threads, the longest first (the odds before the deals alone, a row of
            primes before 2**64's, which has nothing to reduce)."""
            jobs = [(b, these, odds) for b, (mine, odds) in enumerate(batches) for these in spans(mine)]
            done = parallel.run_all(
                [partial(_Run(self, these).count, odds) for _, these, odds in jobs],
                self.workers,
                [(6 if odds else 1) * run_weight(these) for _, these, odds in jobs],  # (the deals alone, a sixth)
            )
            out: list[list[_Counted]] = [[] for _ in batches]
            for (b, _, _), counted in zip(jobs, done, strict=True):
                out[b].append(counted)
            return out

        if not odds:
            (counted,) = runs((moduli, False))
            return crt(np.concatenate([d for d, _ in counted]), moduli), {}
        # The moduli planned for the odds take them, the others count the deals alone (a sixth
        # of the work or less); should the guess of the deals fall short, the moduli missing
        # take the odds once the deals are known.
        k = self.odds_moduli
        parts, alone = runs((moduli[:k], True), (moduli[k:], False))
        deals = crt(np.concatenate([d for d, _ in parts + alone]), moduli)
        if deals == 0:
            return 0, {}
        need = len(primes_for(deals, self._sequence))
        parts += runs((moduli[k:need], True))[0]
        moduli = moduli[: max(k, need)]
        at: dict[Card, dict[str, int]] = {}
        exact: dict[int, dict[str, int]] = {}
        for card, first in parts[0][1].items():
            if id(first) not in exact:
                exact[id(first)] = {p: crt(np.concatenate([a[card][p] for _, a in parts]), moduli) for p in first}
            at[card] = exact[id(first)]
        return deals, at


@lru_cache(maxsize=512)  # (a few KiB each)
def _fold_weights(moduli: tuple[int, ...], n: int, most: int, counts: int, left: int, size: int) -> Array:
    """``C(left - k, most - i)`` modulo each modulus, for i below ``counts`` and k below ``size``
    (0 where the second is negative or over the first): ``_Run._weights``, kept for the views of
    a game, which fold alike again and again."""
    table = binomials(moduli, n)
    top = table.shape[1] - 1
    cards = (left - np.arange(size))[None, :]
    taken = (most - np.arange(counts))[:, None]
    ways = table[:, np.clip(cards, 0, top), np.clip(taken, 0, top)]
    ways[:, (taken < 0) | (taken > cards)] = 0
    ways.flags.writeable = False
    return ways


def _folded_total(n: int, low: int, total: int, counts: int) -> int:
    """The states of the total once a player's ``counts`` states are folded into its ``total``,
    the total's axis starting at ``low``: room for every sum and a forced card, up to n cards,
    and one state at least (past n, the end weighs nothing). The way forward and the way back
    fold alike."""
    return max(1, min(n + 1 - low, total + counts))


def _plus(total: Array | None, coef: int, x: Array, ours: bool) -> Array:
    """``total`` (None: nothing yet) plus ``coef`` times ``x``: in place, and without a product
    where ``coef`` is 1 or -1; ``x`` itself, or negated in place, as the first part when it is
    ``ours`` (made here: no one else reads it after)."""
    if total is None:
        if ours and abs(coef) == 1:
            return x if coef == 1 else np.negative(x, out=x)
        return coef * x
    add_scaled(total, x, coef)
    return total


class _Run:
    """One count: arrays of (family, modulus, total, the tracked players' counts...)."""

    def __init__(self, count: FoldCount, moduli: list[int]) -> None:
        self.fold = count
        self.moduli = moduli
        # Modulo ``WRAP`` (a run of its own), int64's wrapping does every reduction.
        self.wrap = moduli == [WRAP]
        if WRAP in moduli and not self.wrap:
            raise ValueError("2**64 takes a run of its own")
        if self.wrap and count.untouched:
            raise ValueError("the players no group concerns share their odds out by a division: not modulo 2**64")
        self._primes = np.array([] if self.wrap else moduli, dtype=np.int64)
        # A bound on reduced values, which ``_card`` and the passes track to reduce in time;
        # modulo 2**64 there is nothing to reduce (``_mod`` leaves values as they are).
        self.top = 1 if self.wrap else int(self._primes.max())
        # Modulo a prime over 2**31 (``arithmetic.WIDE_PRIMES``) a product of residues passes
        # int64: products go by pieces (``times``, ``_dot``).
        self.wide = self.top >= 1 << 31
        self.slots = count.model.slots

    @property
    def prime(self) -> Array:
        """The primes, a row each (none of them modulo 2**64, where nothing is reduced)."""
        if self.wrap:
            raise AssertionError("modulo 2**64 nothing is reduced")
        return self._primes

    def _mod(self, a: Array) -> Array:
        return a if self.wrap else residues(a, self.moduli, 1, out=a)

    def _rem(self, a: Array) -> Array:
        """``a`` (a row per modulus) reduced: modulo each prime, or as it is modulo 2**64."""
        return a if self.wrap else a % self.prime.reshape((-1,) + (1,) * (a.ndim - 1))

    def _residues(self, values: Sequence[int]) -> Array:
        """Exact integers modulo each modulus: a row per modulus."""
        if self.wrap:
            return np.array([[wrapped(v) for v in values]], dtype=np.int64)
        return np.array([[v % q for v in values] for q in self.moduli], dtype=np.int64)

    def _weights(self, p: int, counts: int, low: int, dealt: int, total_low: int, size: int) -> Array:
        """The weights of folding player p, per modulus, count (its index, from ``low``) and total
        after (its index, from ``total_low``): the ways to give it the cards no factor singled
        out, ``C(dealt - t, slots - r)``, ``dealt`` the slots of every player folded so far (it
        included) and of those no group concerns, ``t`` their total (0 past its slots). Read
        only."""
        return _fold_weights(tuple(self.moduli), self.fold.n, self.slots[p] - low, counts, dealt - total_low, size)

    def _scaled(self, a: Array, w: Array) -> Array:
        """``a`` (family, modulus, total, ...) times a weight per modulus and total (``w``, its
        totals as many as ``a``'s), reduced."""
        w = w.reshape((1, *w.shape) + (1,) * (a.ndim - 3))
        return a * w if self.wrap else times(a, w, self.moduli, 1)

    @staticmethod
    def _fit(a: Array, shape: tuple[int, ...]) -> Array:
        """``a`` cut or padded with zeros to ``shape``."""
        if a.shape == shape:
            return a
        out = np.zeros(shape, dtype=np.int64)
        part = tuple(slice(0, min(x, y)) for x, y in zip(a.shape, shape, strict=True))
        out[part] = a[part]
        return out

    def _factor(self, x: Array, form: Form, work: list[int], back: bool) -> Array:
        """``x`` times a card's factor (its transpose with ``back``): each player it singles out
        moves the count by one (subtracted in the complement form, whose ``X`` leaves it)."""
        complement, who = form
        axes = [3 + d for d, p in enumerate(work) if who >> p & 1]
        y = np.empty_like(x)
        first, *rest = axes
        if not complement:
            move(y, x, first, back, 1, start="zero")
            for ax in rest:
                move(y, x, ax, back, 1)
            return y
        # x less x moved, the first move written at once (no copy of x first).
        move(y, x, first, back, -1, start="x")
        for ax in rest:
            move(y, x, ax, back, -1)
        return y

    def _card(
        self, x: Array, size: int, form: Form, work: list[int], back: bool, limit: int, tops: list[int] | None = None
    ) -> tuple[Array, int]:
        """``x`` (its values below ``size`` in absolute value) times a card's factor, or its
        transpose with ``back``, reduced first (in place: the same residues) when the product
        could pass ``limit``; the product and the bound on its values. A card every player may
        hold (``X``, the complement form singling out no one) leaves ``x`` as it is. With
        ``tops`` (going back), the product is over those first counts of each tracked player
        where that saves an eighth of its states (as ``_cut``), made there alone."""
        if form == (True, 0):
            return (x if tops is None else self._cut(x, tops)), size
        shape = x.shape if tops is None else self._cut_shape(x, tops)
        grow = form[1].bit_count() + form[0]  # (every player it singles out is tracked)
        if size * grow > limit:
            x, size = self._mod(x), self.top
        if shape == x.shape:
            return self._factor(x, form, work, back), size * grow
        return self._factor_cut(x, form, work, shape), size * grow

    @staticmethod
    def _factor_cut(x: Array, form: Form, work: list[int], shape: tuple[int, ...]) -> Array:
        """``x`` times a card's transposed factor, over the first ``shape`` states of each axis
        alone: each state takes the one above it (in ``x``, which may go further) in each player
        the card singles out, less it in the complement form. Computing the states a cut would
        drop, then copying the rest, cost a fifth more on the slowest views."""
        complement, who = form
        y = np.empty(shape, dtype=np.int64)
        box = [slice(0, n) for n in shape]
        for k, ax in enumerate(3 + d for d, p in enumerate(work) if who >> p & 1):
            top = min(shape[ax], x.shape[ax] - 1)  # (the states with one above them in x)
            dst, src, edge = list(box), list(box), list(box)
            dst[ax], src[ax], edge[ax] = slice(0, top), slice(1, top + 1), slice(top, shape[ax])
            here, above = tuple(dst), x[tuple(src)]
            if k == 0:
                if complement:
                    np.subtract(x[here], above, out=y[here])
                    y[tuple(edge)] = x[tuple(edge)]
                else:
                    y[here] = above
                    y[tuple(edge)] = 0
            else:
                (np.subtract if complement else np.add)(y[here], above, out=y[here])
        return y

    def _split(self, a: Array) -> Pieces:
        """Residues in two pieces (of ``bits`` bits, 16 or more), highest first: a sum of a piece
        times residues over fewer than ``2 ** (32 - bits)`` states stays inside int64 (below
        ``2**bits * 2**31 * 2**(32 - bits)``), and ``_dot`` sums bigger boxes in blocks that size.
        Modulo 2**64, one piece: the whole of ``a``. Modulo a wide prime, its two halves."""
        if self.wrap:
            return 0, [a]
        if self.wide:  # (halves: ``_dot`` halves the other side too)
            bits = self._half
            return bits, [a >> bits, a & ((1 << bits) - 1)]
        bits = max(16, 32 - a.shape[-1].bit_length())
        return bits, list(bit_pieces(a, bits))[::-1]

    @property
    def _half(self) -> int:
        """The bits of the low half of a residue modulo a wide prime (``_split``)."""
        return (self.top.bit_length() + 1) // 2

    def _dot(self, pieces: Pieces, b: Array, lead: str, b_lead: str, out: str) -> Array:
        """Per modulus (the last index of ``out``), the sum over the states (the last axis) of
        ``a * b`` modulo it, ``a`` given in pieces (one, unreduced, modulo 2**64); ``lead`` and
        ``b_lead`` name the axes before the states (``k`` a family, ``p`` the modulus). On boxes
        of 65,536 states or more, in blocks of 65,535: two pieces of 16 bits, where one sum over
        the box would take three of 15 bits or fewer, a third more products."""
        bits, parts = pieces
        spec = f"{lead}n,{b_lead}n->{out}"
        if self.wrap:  # (the products and their sum wrap: modulo 2**64 as they come)
            wrapping: Array = np.einsum(spec, parts[0], b)
            return wrapping
        if self.wide:
            return self._wide_dot(pieces, b, spec)
        block = (1 << (32 - bits)) - 1
        total = np.zeros(1, dtype=np.int64)
        for part in parts:
            here = sum(
                np.einsum(spec, part[..., lo : lo + block], b[..., lo : lo + block]) % self.prime
                for lo in range(0, b.shape[-1], block)
            )
            total = (total * (1 << bits) + here) % self.prime
        return total

    def _wide_dot(self, pieces: Pieces, b: Array, spec: str) -> Array:
        """``_dot`` modulo wide primes: ``a`` and ``b`` in halves of ``bits`` bits, each product
        of halves below ``2 ** (2 * bits)``, summed over blocks of fewer than
        ``2 ** (63 - 2 * bits)`` states and at most ``_WIDE_BLOCK`` (``b`` halved a block at a
        time: no copy of a whole box); the sums, by how many low halves their products take, put
        together in Python's integers (a few values a family)."""
        bits, (a_high, a_low) = pieces
        mask = (1 << bits) - 1
        block = min(_WIDE_BLOCK, (1 << (63 - 2 * bits)) - 1)
        lows: list[Array | int] = [0, 0, 0]  # per product, by its low halves: none, one, two
        for lo in range(0, b.shape[-1], block):
            part = b[..., lo : lo + block]
            for i, a_half in enumerate((a_high, a_low)):
                for j, b_half in enumerate((part >> bits, part & mask)):
                    lows[i + j] += np.einsum(spec, a_half[..., lo : lo + block], b_half) % self.prime
        whole = sum(np.asarray(s, dtype=np.int64).astype(object) << (bits * (2 - k)) for k, s in enumerate(lows))
        out: Array = (whole % self.prime.astype(object)).astype(np.int64)
        return out

    # -------------------------------------------------------------- passes

    def count(self, odds: bool) -> tuple[Array, dict[Card, dict[str, Array]]]:
        """The fitting deals and, with ``odds``, the deals with each card at each player who may
        hold it, modulo each modulus (cards alike share one dict)."""
        c = self.fold
        model, steps, moduli = c.model, c.steps, self.moduli
        n = c.n
        # Forward: from one state (total 0) through the groups; with the odds, a family per
        # folded player (and one for all the players no group concerns) with a card forced on it,
        # but for ``by_sum``. It starts with the ways to deal the players no group concerns
        # their slots (as if folded first, each at count 0); their family, with a card forced on
        # one of them, as many (the card at any of them: ``_folded`` shares it out).
        families: list[int] = [-1]
        untouched = odds and bool(c.untouched) and c.by_sum != _UNTOUCHED
        f = np.zeros((1 + untouched, len(moduli), max(2, steps[0].total if steps else c.end_total)), np.int64)
        f[0, :, 0] = self._residues([deal_bound([self.slots[p] for p in c.untouched])])[:, 0]
        if untouched:
            f[1, :, 1] = f[0, :, 0]
            families.append(_UNTOUCHED)
        kept: list[tuple[Array, list[int]]] = []
        for j, step in enumerate(steps):
            parallel.checkpoint()  # (a count given up, in a thread: stop here)
            f = f.reshape(f.shape[:3] + (1,) * len(step.born) + f.shape[3:])
            # The pass is zero past the box on the way in (a player the group starts is at 0):
            # that box alone is kept for the way back, the forward box is its padding.
            f = self._fit(f, (f.shape[0], len(moduli), step.total, *step.inward))
            if odds:
                kept.append((f, list(families)))
            if step.multiplied[0]:
                f = self._multiplied(f, step)
            else:
                f = self._through(self._fit(f, (f.shape[0], len(moduli), step.total, *step.start_box)), step)
            # The states below the least counts out of the group are zero: cut off.
            f = f[(slice(None),) * 3 + tuple(slice(r, None) for r in step.rise)]
            tracked, total, low = list(step.work), step.total, step.total_low
            for p, dealt in zip(step.dying, c.dealt[j], strict=True):
                d = tracked.index(p)
                size, least = f.shape[3 + d], step.out_low(p)
                low += least
                total = _folded_total(n, low, total, size)
                made = odds and p != c.by_sum
                f = self._fold(f, 3 + d, p, total, made, least, dealt, low)
                if made:
                    families.append(p)
                tracked.remove(p)
        f = self._fit(f, (f.shape[0], len(moduli), c.end_total))
        # The end: once every player is folded (or no group concerns it), all the cards no factor
        # singled out are dealt (``slots_out[-1]`` is n): a total up to n weighs 1.
        end = np.zeros((len(moduli), c.end_total), np.int64)
        end[:, : max(0, n + 1 - c.end_low)] = 1
        finals = self._dot(self._split(f), end, "kp", "p", "kp")  # (f: family, modulus, total)
        if not odds:
            return finals[0], {}
        ways = self._backward(end, kept, finals[0])
        at: dict[Card, dict[str, Array]] = {}
        for (j, i), per in ways.items():
            shared = {model.players[p]: v for p, v in per.items()}  # (one dict for the cards of a kind)
            for card in list(steps[j].group.kinds.values())[i]:
                at[card] = shared
        if model.free:
            at.update(dict.fromkeys(model.free, self._free(f[0], end, finals, families)))
        return finals[0], at

    def _free(self, f0: Array, end: Array, values: Array, families: list[int]) -> dict[str, Array]:
        """The deals with a card no group concerns at each player: those of its family (for
        ``by_sum``, all the families together less the others), from the end of the way forward."""
        c = self.fold
        unit = None
        if self._summed_out(len(c.steps)):
            together = self._dot(self._split(f0), self._weighed(end, len(c.steps), up=False), "p", "p", "p")
            unit = self._by_sum(together, values, families)
        return {name: self._folded(p, unit, values, families) for p, name in enumerate(c.model.players)}

    def _summed_out(self, j: int) -> bool:
        """Whether the player of ``by_sum`` (or those no group concerns, for ``_UNTOUCHED``) is
        folded before group j (at the end for ``len(steps)``): its family, not made, is read
        from all of them together."""
        z = self.fold.by_sum
        return z == _UNTOUCHED or (z is not None and any(z in step.dying for step in self.fold.steps[:j]))

    def _weighed(self, a: Array, j: int, up: bool) -> Array:
        """``a`` (modulus, total, counts, on the way into group j, or at the end for
        ``len(steps)``) moved by one in the total where the lower total leaves the players dealt
        (``slots_out``) a slot, else zero: down (``a`` the way back, read one higher) or ``up``
        (``a`` the base forward pass, moved one higher), which against each other are the same
        sum: all the forward families together against the way back. A family has a card forced
        on a player folded (or one no group concerns): its total is one higher than the base's,
        and the player is dealt one card fewer at its fold (``_weights``). Over all the players,
        that is the base's deals with the card as one of those dealt, whoever has it: the same
        ways as the base's, one total lower. Up, it is made once per group where down would be
        made once per kind."""
        c = self.fold
        low = c.end_low if j == len(c.steps) else c.steps[j].total_low
        # Scaled by the ways to deal the players folded the cards no factor singled out
        # (``_weights``), the weight is 1 where the lower total leaves them a slot, else 0.
        room = max(0, min(a.shape[1] - 1, c.slots_out[j] - low))
        out = np.zeros(a.shape, dtype=np.int64)
        if up:
            out[:, 1 : 1 + room] = a[:, :room]
        else:
            out[:, :room] = a[:, 1 : 1 + room]
        return out

    def _by_sum(self, together: Array, known: Array, families: list[int]) -> Array:
        """The deals with a card at the player of ``by_sum`` (at any of the players no group
        concerns, for ``_UNTOUCHED``), per modulus: ``together``, those of all the forward
        families, less those of the families made (``known``, a row per family of ``families``;
        the family of the players no group concerns is made only when ``by_sum`` is None, as
        tests set it)."""
        return self._rem(together - sum(known[k] for k, p in enumerate(families) if p != -1))

    def _folded(self, p: int, unit: Array | None, values: Array, families: list[int]) -> Array:
        """The deals with a card at a player folded or no group concerns: ``unit`` for the player
        of ``by_sum``, else its family's ``values``; for a player no group concerns, those of
        the card at any of them (``unit`` for ``_UNTOUCHED``, or their family's), its share by
        its slots."""
        c = self.fold
        if p in c.untouched:  # (the card at any of them, shared out by their slots: never modulo 2**64)
            each = unit if unit is not None and c.by_sum == _UNTOUCHED else values[families.index(_UNTOUCHED)]
            share = self.slots[p] * inverses(c.slots_out[0], self.moduli) % self.prime
            return times(each, share, self.moduli, 0)
        return unit if unit is not None and p == c.by_sum else values[families.index(p)]

    def _through(self, a: Array, step: _Step) -> Array:
        """``a`` (over the group's ``start_box``) through a group: the sum over its terms of the
        product of its card factors, over the forward box. In each term a player the group starts
        joins the box at the first card singling it out, and those cards come last: the cards
        before go through a box without it."""
        total: Array | None = None
        limit = _SAFE // step.term_sizes
        whole = (*a.shape[:3], *step.forward)
        for coef, masks in step.group.terms:
            x, size = a, self.top
            for i in step.forward_order(masks):
                if step.starts(masks[i]):
                    x = self._fit(x, self._grown(x.shape, step, step.starts(masks[i])))
                x, size = self._card(x, size, step.forms[masks[i]], step.work, False, limit)
            x = self._fit(x, whole)
            total = _plus(total, coef, x, x is not a)
        assert total is not None  # (a group has a term)
        return self._mod(total)

    def _multiplied(self, a: Array, step: _Step) -> Array:
        """``a`` (over the box on the way in) through a group multiplied out (``_Step.whole_sum``),
        over the forward box: a shifted copy of ``a`` per monomial, times its coefficient (one
        product of ``a`` per coefficient, the copies added or taken away by its sign)."""
        out = np.zeros((*a.shape[:3], *step.forward), dtype=np.int64)
        for size, copies in step.copies_forward:
            scaled = a if size == 1 else a * size
            for negative, dst, src in copies:
                here = out[dst]
                (np.subtract if negative else np.add)(here, scaled[src], out=here)
        return self._mod(out)

    def _multiplied_back(self, b: Array, step: _Step) -> tuple[Array, dict[tuple[int, int], Array]]:
        """The way back through a group multiplied out, and the ways back with a card left out
        per kind and set of players reading the same (``_Step.left_out``), over the counts
        ``needed``: each state reads the states of ``b`` up by each monomial's exponents, times
        its coefficient."""
        shape = (*b.shape[:3], *step.needed)

        def back(copies: list[tuple[int, _Slices, _Slices]]) -> Array:
            out = np.zeros(shape, dtype=np.int64)
            for coef, dst, src in copies:
                add_scaled(out[dst], b[src], coef)
            return self._mod(out)

        whole, *left_out = step.copies_back
        assert step.left_out is not None
        return back(whole), {key: back(copies) for key, copies in zip(step.left_out, left_out, strict=True)}

    @staticmethod
    def _grown(shape: tuple[int, ...], step: _Step, players: int) -> tuple[int, ...]:
        """``shape`` with these players' counts over their forward ranges."""
        out = list(shape)
        for d, p in enumerate(step.work):
            if players >> p & 1:
                out[3 + d] = step.forward[d]
        return tuple(out)

    @staticmethod
    def _cut_shape(x: Array, tops: list[int]) -> tuple[int, ...]:
        """The shape of ``x`` over the first ``tops`` counts of each tracked player, when that is
        at most seven eighths of it (the moves it saves must pay for the cut), else its own."""
        shape = x.shape[:3] + tuple(min(x, y) for x, y in zip(x.shape[3:], tops, strict=True))
        return x.shape if math.prod(shape) * 8 > x.size * 7 else shape

    @staticmethod
    def _cut(x: Array, tops: list[int]) -> Array:
        """``x`` cut to ``_cut_shape`` (a copy), or itself."""
        shape = _Run._cut_shape(x, tops)
        return x if shape == x.shape else x[tuple(slice(0, n) for n in shape)].copy()

    def _fold(self, a: Array, ax: int, p: int, size: int, family: bool, low: int, dealt: int, total_low: int) -> Array:
        """Player p's count (axis ``ax``, from ``low``) folded into the total, weighted by
        ``_weights`` (``dealt`` and ``total_low`` after p is folded); with ``family``, a new
        family from the base family with a card forced on p (its count one higher). The total's
        axis starts ``low`` higher."""
        counts = a.shape[ax]
        w = self._weights(p, counts + 1, low, dealt, total_low, size)
        shape = list(a.shape)
        del shape[ax]
        shape[0] += family
        shape[2] = size
        out = np.zeros(shape, dtype=np.int64)
        families, before = a.shape[0], a.shape[2]
        for r in range(counts):
            part = np.take(a, r, axis=ax)
            # Every family at p's count r; with ``family``, the base at r + 1 (p's card forced).
            moves = [(r, slice(0, families), part)]
            if family:
                moves.append((r + 1, slice(families, families + 1), part[:1]))
            for shift, rows, src in moves:
                top = min(size, shift + before)
                if top > shift:
                    out[rows, :, shift:top] += self._scaled(src[:, :, : top - shift], w[:, shift, shift:top])
        return self._mod(out)

    def _unfold(self, b: Array, ax: int, p: int, counts: int, size: int, low: int, dealt: int, total_low: int) -> Array:
        """The way back through ``_fold`` (every family weighted as the base)."""
        w = self._weights(p, counts, low, dealt, total_low, b.shape[2])
        shape = list(b.shape)
        shape[2] = size
        shape.insert(ax, counts)
        out = np.zeros(shape, dtype=np.int64)
        for r in range(counts):
            top = min(size, b.shape[2] - r)
            if top > 0:
                dst = (slice(None), slice(None), slice(0, top)) + (slice(None),) * (ax - 3) + (r,)
                out[dst] = self._scaled(b[:, :, r : r + top], w[:, r, r : r + top])
        return out

    def _backward(
        self, end: Array, kept: list[tuple[Array, list[int]]], deals: Array
    ) -> dict[tuple[int, int], dict[int, Array]]:
        """The way back from the end, and per group, kind and player the deals with a card of the
        kind at the player (per modulus, as ``deals``)."""
        c = self.fold
        n, steps, moduli = c.n, c.steps, self.moduli
        b = end.reshape(1, len(moduli), -1).copy()
        families: list[int] = [-1]
        ways: dict[tuple[int, int], dict[int, Array]] = {}
        for j in reversed(range(len(steps))):
            parallel.checkpoint()
            step = steps[j]
            tracked = [p for p in step.work if p not in step.dying]
            # Out of the group, a tracked player's axis starts at its least count out of it.
            out = [r - k for r, k in zip(step.ranges, step.rise, strict=True)]
            sizes, lows = [step.total], [step.total_low]
            for p in step.dying:
                lows.append(lows[-1] + step.out_low(p))
                sizes.append(_folded_total(n, lows[-1], sizes[-1], out[step.work.index(p)]))
            b = self._fit(b, (b.shape[0], len(moduli), sizes[-1], *(out[step.work.index(q)] for q in tracked)))
            for k in reversed(range(len(step.dying))):
                p = step.dying[k]
                before = [q for q in step.work if q in tracked or q == p]
                counts, dealt = out[step.work.index(p)], c.dealt[j][k]
                b = self._unfold(b, 3 + before.index(p), p, counts, sizes[k], step.out_low(p), dealt, lows[k + 1])
                tracked = before
            b = self._fit(b, (b.shape[0], len(moduli), step.total, *out))
            if any(step.rise):  # (below the least counts out, nothing the way back meets: zeros)
                lowered: Array = np.zeros((b.shape[0], len(moduli), step.total, *step.ranges), dtype=np.int64)
                lowered[(slice(None),) * 3 + tuple(slice(k, None) for k in step.rise)] = b
                b = lowered
            b, sums = self._multiplied_back(b, step) if step.multiplied[1] else self._back_through(b, step)
            self._odds(j, kept.pop(), sums, families, ways)  # (each forward pass let go once used)
            del sums  # (not alive while the next group back makes its own)
            self._by_difference(j, deals, ways)
            for p in reversed(step.born):
                ax = 3 + step.work.index(p)
                if p == c.by_difference:
                    b = np.take(b, 0, axis=ax)
                    continue
                one = np.take(b[:1], 1, axis=ax)
                b = np.concatenate([np.take(b, 0, axis=ax), one])
                families.append(p)
        return ways

    def _by_difference(self, j: int, deals: Array, ways: dict[tuple[int, int], dict[int, Array]]) -> None:
        """In group j, before ``by_difference`` starts: its deals with each kind's card (one it
        may hold) are the deals less every other player's."""
        c = self.fold
        u, step = c.by_difference, c.steps[j]
        if u is None or j >= c.first[u]:
            return
        for i in range(len(step.group.kinds)):
            per = ways[(j, i)]
            if any(ms[i] >> u & 1 for _, ms in step.group.terms):
                per[u] = self._rem(deals - sum(v for p, v in per.items() if p != u))

    def _back_through(self, b: Array, step: _Step) -> tuple[Array, dict[tuple[int, int], Array]]:
        """The way back through a group, and per kind (its first card i) and mask of that card
        the way back with the card's factor left out, summed over the terms where it has that mask;
        both over the counts ``needed`` once past the group. Each product is made over the counts
        it still needs alone (``tops``, ``_factor_cut``): those needed and one more per card still
        to come singling the player out, so that, say, a player the group starts is at counts 0
        and 1 alone once past the cards singling it out, and one whose count the way in holds low
        is cut down likewise."""
        kinds = len(step.group.kinds)
        sums: dict[tuple[int, int], Array] = {}
        total: Array | None = None
        limit = _SAFE // step.term_sizes
        order = step.back_order
        for term, (coef, masks) in enumerate(step.group.terms):
            y, size = b, self.top
            for at in reversed(range(len(order))):
                i = order[at]
                if at < kinds:
                    r, rsize = (y, size) if at else (self._cut(y, step.tops(term, 0, at)), size)
                    for k, j in enumerate(order[:at]):
                        tops = step.tops(term, k + 1, at)
                        r, rsize = self._card(r, rsize, step.forms[masks[j]], step.work, True, limit, tops)
                    r = self._fit(r, (*r.shape[:3], *step.needed))
                    key = (i, masks[i])
                    sums[key] = _plus(sums.get(key), coef, r, r is not y and r is not b)  # (y goes on, b is not ours)
                y, size = self._card(y, size, step.forms[masks[i]], step.work, True, limit, step.tops(term, 0, at))
            y = self._fit(y, (*y.shape[:3], *step.needed))
            total = _plus(total, coef, y, y is not b)
        assert total is not None  # (a group has a term)
        return self._mod(total), self._read(sums, step)

    def _read(self, sums: dict[tuple[int, int], Array], step: _Step) -> dict[tuple[int, int], Array]:
        """The sums per kind and mask, summed per kind and set of players reading the same
        (``_Step.readers``): keyed by the kind and those players."""
        out: dict[tuple[int, int], Array] = {}
        for i, readers in enumerate(step.readers):
            mine = {m: self._mod(sums.pop((i, m))) for m in {m for _, masks in readers for m in masks}}
            for who, masks in readers:
                first, *rest = (mine[m] for m in masks)
                if rest:
                    first = sum(rest, first.copy())  # (reduced, so that a few add up inside int64)
                out[(i, who)] = self._mod(first) if rest else first
        return out

    def _odds(
        self,
        j: int,
        kept: tuple[Array, list[int]],
        sums: dict[tuple[int, int], Array],
        back_families: list[int],
        ways: dict[tuple[int, int], dict[int, Array]],
    ) -> None:
        """The deals with each kind's card at each player it may go to, in group j: the forward
        pass into the group against the way back with the card left out, moved by one in the
        player's count, or the family with the card forced on the player; for the player of
        ``by_sum`` once folded, all the forward families together less the others."""
        f, families = kept
        step = self.fold.steps[j]
        rows_of = len(self.moduli)
        # Over the box on the way in, where the forward pass was kept (a player the group starts
        # is at 0 there): on the slow views, a fifth of the forward box's states or less in all
        # (group by group, up to all of them).
        box: list[int | slice] = list(step.coming_box)
        summed = self._summed_out(j)
        if summed:  # (all the forward families together, as one more: ``_weighed``)
            f = np.concatenate([f, self._weighed(f[0], j, up=True)[None]])
        flat = self._split(f.reshape(f.shape[0], rows_of, -1))
        base = flat[0], [part[0] for part in flat[1]]
        others = len(back_families) - 1  # (the base family's way back is read against every forward family)
        for i in range(len(step.group.kinds)):
            ways.setdefault((j, i), {})  # (every kind has its entry, as when the sums were made per mask)
        for (i, mask), whole in sums.items():
            # The way back, over that box: as it is (against every forward family; the other
            # families of the way back against the base), and moved by one in the count of
            # each tracked player the card may go to (zero past its box), against the base.
            active = [p for p in step.work if mask >> p & 1]
            base_back = whole[(0, slice(None), *box)]
            rows = np.empty((others + len(active), rows_of, *f.shape[2:]), dtype=np.int64)
            rows[:others] = whole[(slice(1, None), slice(None), *box)]
            for k, p in enumerate(active):
                d = 1 + step.work.index(p)
                size = min(step.inward[d - 1], step.ranges[d - 1] - 1)
                here, there, past = list(box), list(box), list(box)
                here[d], there[d], past[d] = slice(0, size), slice(1, size + 1), slice(size, None)
                rows[(others + k, slice(None), *here)] = whole[(0, slice(None), *there)]
                rows[(others + k, slice(None), *past)] = 0
            by_forward = self._dot(flat, np.ascontiguousarray(base_back).reshape(rows_of, -1), "kp", "p", "kp")
            by_back = self._dot(base, rows.reshape(rows.shape[0], rows_of, -1), "p", "kp", "kp") if len(rows) else rows
            unit = self._by_sum(by_forward[-1], by_forward[:-1], families) if summed else None
            per = ways.setdefault((j, i), {})
            for p in range(len(self.slots)):
                if not mask >> p & 1:
                    continue
                if p in step.work:
                    v = by_back[others + active.index(p)]
                elif p in back_families:
                    v = by_back[back_families.index(p) - 1]
                elif p == self.fold.by_difference and j < self.fold.first[p]:
                    continue  # (``_by_difference``)
                else:  # folded, or no group concerns it
                    v = self._folded(p, unit, by_forward, families)
                per[p] = self._rem(per.get(p, 0) + v)
