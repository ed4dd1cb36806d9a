"""Counting deals over the board of forbidden (card, player) pairs: fast when the board is sparse.

A deal gives every never-shown card to a player allowed it, each player as many as their slots.
Early in a game few pairs are forbidden (an asked card to the asker and the player who said no),
and the requirements are few. This counter works on the forbidden pairs, not on the deal:

- *Rook polynomial.* The deals avoiding a board of forbidden pairs are, by inclusion-exclusion,
  the sum over placements R of cards on the board (each card at most once) of
  ``(-1)**|R| * (n - |R|)! / prod_p (slots_p - r_p)!`` (``r_p`` the cards R places at p).
- *Requirements* by inclusion-exclusion too: "p holds at least one of C" is all deals minus
  those with C added to p's row of the board; "p does not hold all of C" is all deals minus those
  with C *forced* onto p (taken out, with p's slots; counted as used like placed cards, unsigned).
  A player's requirements only touch that player, so the choice of which to break is made player
  by player.
- *Players one at a time.* The weight above is a product of one factor per player (of the cards
  it used) and one of the total used, so the players are walked in turn with a polynomial in the
  total (only the totals the players walked so far can reach). Cards are classes (the same
  forbidden players and requirements); a class that concerns one player only is settled in that
  player's step by a binomial. A class that concerns several
  players (a card forbidden to two, or in two players' requirements) couples them: while the walk
  is between its first and last such player, the state records how many of its cards are left.
  The walk's order is the one keeping those states fewest (one per seat in a round of asks).
- *Odds.* The deals with a card at a player are the same count with the card forced there: one
  more card used by that player, one fewer in its class, and the requirements it settles
  switched off. All of them go through the walk at once as a batch, along one axis of the arrays.

Cards that concern nobody (allowed to all, in no requirement) never appear: they are part of the
multinomial. All arithmetic is modulo primes below 2**31 (``arithmetic``), one row each.

Its cost grows with the classes open at once and each player's requirements (``estimate``); the
book-by-book counter (``books``) is the other way, for positions where many cards are forbidden
to several players.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import Card
from ..knowledge import Position
from .arithmetic import SMALL_PRIMES, Array, crt, deal_bound, fit_bound, inverses, primes_for, stacked_tables

_SUMS = 120  # products of two residues below 2**28 that add up below 2**63
# Nanoseconds of the walk on this project's machine, as fitted before its steps went array-wise
# (kept: the routes weigh the book-by-book count against these): fixed, per way a player's step
# goes from a state, and per array element each of those goes through. The walk now takes about
# a third of this on small views and an eighth to a tenth on the biggest.
_NS_FIXED = 3_000_000
_NS_WAY = 30_000
_NS_ELEMENT = 3.0


@dataclass
class _Class:
    """Cards alike: forbidden to the same players (``board``, bits over players with slots) and in
    the same requirements (indices into ``Board.reqs``)."""

    cards: list[Card]
    board: int
    reqs: frozenset[int]
    involved: int  # players the class concerns: its board and its requirements' players
    in_reqs: int = 0  # its requirements, as bits over ``Board.reqs``


class Board:
    """A position as a board of forbidden pairs, classes of cards and requirements."""

    def __init__(self, pos: Position) -> None:
        self.players = tuple(p for p in pos.players if pos.slots.get(p, 0) > 0)
        index = {p: i for i, p in enumerate(self.players)}
        self.slots = [pos.slots[p] for p in self.players]
        self.n = len(pos.allowed)
        self.zero = any(s < 0 for s in pos.slots.values()) or sum(self.slots) != self.n
        everyone = (1 << len(self.players)) - 1
        self.everyone = everyone
        mask: dict[Card, int] = {}
        for c, ps in pos.allowed.items():
            mask[c] = sum(1 << index[p] for p in ps if p in index)
            self.zero = self.zero or mask[c] == 0
        self.mask = mask
        # (at least one?, player, cards): "at least one" keeps only the cards the player may hold
        # (the others are on its row of the board anyway).
        reqs: list[tuple[bool, int, frozenset[Card]]] = []
        for r in pos.at_least:
            if r.player not in index:
                self.zero = True
                continue
            q = index[r.player]
            cards = frozenset(c for c in r.cards if c in mask and mask[c] >> q & 1)
            if not cards:
                self.zero = True
            reqs.append((True, q, cards))
        for r in pos.binding_not_all():
            cards = frozenset(r.cards)
            if not cards:
                self.zero = True
            elif r.player in index:
                q = index[r.player]
                if all(c in mask and mask[c] >> q & 1 for c in cards):
                    reqs.append((False, q, cards))
            # else the player cannot have been dealt them all: the requirement always holds
        self.reqs = reqs
        self.reqs_by_player = [sum(1 << j for j, r in enumerate(reqs) if r[1] == q) for q in range(len(self.players))]
        keyed: dict[tuple[int, frozenset[int]], list[Card]] = {}
        self.free: list[Card] = []
        for c in pos.allowed:
            key = (everyone & ~mask[c], frozenset(j for j, (_, _, cs) in enumerate(reqs) if c in cs))
            if key == (0, frozenset()):
                self.free.append(c)
            else:
                keyed.setdefault(key, []).append(c)
        self.classes: list[_Class] = []
        for (board, rs), same in keyed.items():
            involved = board
            for j in rs:
                involved |= 1 << reqs[j][1]
            self.classes.append(_Class(same, board, rs, involved, sum(1 << j for j in rs)))
        self.order = self._order()

    def _order(self) -> list[int]:
        """The players in the order that keeps the coupling classes open at once fewest: greedily,
        from the best first player."""
        n = len(self.players)
        coupling = [k for k in self.classes if k.involved.bit_count() > 1]
        best: tuple[tuple[int, int], list[int]] | None = None
        if not coupling:
            return list(range(n))
        sizes: dict[int, int] = {}

        def size_after(placed: int) -> int:
            if placed not in sizes:
                sizes[placed] = self._open_states(coupling, placed)
            return sizes[placed]

        for first in range(n):
            order = [first]
            placed = 1 << first
            worst = total = size_after(placed)
            while len(order) < n:
                nxt = min((p for p in range(n) if not placed >> p & 1), key=lambda p: (size_after(placed | 1 << p), p))
                order.append(nxt)
                placed |= 1 << nxt
                size = size_after(placed)
                worst = max(worst, size)
                total += size
            if best is None or (worst, total) < best[0]:
                best = ((worst, total), order)
        return best[1] if best else []

    def _open_states(self, coupling: Sequence[_Class], placed: int, before: int | None = None) -> int:
        """The states of the classes open once ``placed`` are walked (or, given ``before``, open
        during the step from ``before`` to ``placed``). Open classes alike for every player still
        to come are one count (``_Walk`` merges them)."""
        done = placed if before is None else before
        reqs_done = self.reqs_of(done)
        seen = placed if before is None else before | placed
        merged: dict[tuple[int, int], int] = {}
        for k in coupling:
            if k.involved & seen and k.involved & ~done:
                key = (k.board & ~done, k.in_reqs & ~reqs_done)
                merged[key] = merged.get(key, 0) + len(k.cards)
        return math.prod(left + 1 for left in merged.values())

    def openings(self) -> dict[int, list[int]]:
        """The classes that couple players, by the player before whose step the walk starts
        recording them: their first in the walk's order."""
        position = {q: i for i, q in enumerate(self.order)}
        first: dict[int, list[int]] = {}
        for i, cls in enumerate(self.classes):
            if cls.involved.bit_count() > 1:
                at = min(position[q] for q in range(len(self.players)) if cls.involved >> q & 1)
                first.setdefault(self.order[at], []).append(i)
        return first

    def regroup(self, active: Sequence[_Slot], done: int) -> list[list[int]]:
        """Once the players ``done`` are walked: the open slots still recorded, those alike for
        every player to come together (classes no player to come is concerned by go with the
        multinomial)."""
        alike: dict[tuple[int, int], list[int]] = {}
        for t, (i, _) in enumerate(active):
            cls = self.classes[i]
            if cls.involved & ~done:
                alike.setdefault(self.future(cls, done), []).append(t)
        return list(alike.values())

    def alone(self) -> dict[int, dict[int, int]]:
        """Per player, the classes the walk records on their own at its step (not merged with
        others), and where among the open slots."""
        members: list[list[int]] = []
        out: dict[int, dict[int, int]] = {}
        first = self.openings()
        done = 0
        nothing = np.zeros(0, dtype=np.int64)
        for q in self.order:
            members += [[i] for i in first.get(q, [])]
            out[q] = {m[0]: t for t, m in enumerate(members) if len(m) == 1}
            done |= 1 << q
            groups = self.regroup([(m[0], nothing) for m in members], done)
            members = [[i for t in g for i in members[t]] for g in groups]
        return out

    def reqs_of(self, players: int) -> int:
        """The requirements of these players, as bits over ``reqs``."""
        return sum(bits for q, bits in enumerate(self.reqs_by_player) if players >> q & 1)

    def future(self, k: _Class, done: int) -> tuple[int, int]:
        """What a class is to the players not yet walked (``done`` are): who of them it is
        forbidden to, and which of their requirements it is in (bits over ``reqs``)."""
        return k.board & ~done, k.in_reqs & ~self.reqs_of(done)

    def estimate(self, odds: bool) -> int:
        """About how many nanoseconds the walk takes (fitted on this project's machine): per
        player, its ways from each state (a few array operations each) times the arrays' size,
        for each pass."""
        if self.zero:
            return 0
        batch = 1
        passes = 1
        if odds and self.by_players():  # half the families at a time on average, forward and back
            batch, passes = (self.player_families() + 2) // 2, 2
        elif odds:  # a family per class (and per player keeping a "not all" of it); the step changed too
            for i, k in enumerate(self.classes):
                batch += 1 + sum(1 for j in k.reqs if not self.reqs[j][0] and self.mask_of(i) >> self.reqs[j][1] & 1)
            passes = 3
        size = len(primes_for(deal_bound(self.slots), SMALL_PRIMES)) * batch * (self.n + 1)
        coupling = [k for k in self.classes if k.involved.bit_count() > 1]
        at_least = {j for j, (at, _, _) in enumerate(self.reqs) if at}
        cost = _NS_FIXED
        placed = 0
        for q in self.order:
            states = self._open_states(coupling, placed | 1 << q, placed)
            moves = 1.0
            for k in coupling:
                if k.involved >> q & 1 and (k.board >> q & 1 or k.reqs & at_least):
                    moves *= (len(k.cards) + 2) / 2
            branches = 1 << sum(1 for _, p, _ in self.reqs if p == q)
            ways = branches * states * moves
            cost += int(passes * ways * (_NS_WAY + _NS_ELEMENT * size * (self.slots[q] + 1)))
            placed |= 1 << q
        return cost

    def player_families(self) -> int:
        """The families ``by_players`` would carry if no card were counted in its player's step
        alone: one per player and set of its requirements a card would meet there, for every
        class and player allowed it (a bound, for choosing it and for ``estimate``)."""
        return len(
            {
                (q, frozenset(j for j in k.reqs if self.reqs[j][1] == q))
                for i, k in enumerate(self.classes)
                for q in range(len(self.players))
                if self.mask_of(i) >> q & 1
            }
        )

    def by_players(self) -> bool:
        """Whether the odds go by families per player (``by_players``): when no requirement is
        "not all" (it would need families per class anyway) and they are fewer than the classes."""
        return all(at for at, _, _ in self.reqs) and self.player_families() < len(self.classes)

    def kinds(self) -> list[tuple[int, list[Card]]]:
        """Cards whose odds are alike: each class (by index), and the free cards (index -1)."""
        out: list[tuple[int, list[Card]]] = [(i, k.cards) for i, k in enumerate(self.classes)]
        if self.free:
            out.append((-1, self.free))
        return out

    def _holders(self, kind: tuple[int, list[Card]]) -> list[int]:
        mask = self.everyone if kind[0] < 0 else self.everyone & ~self.classes[kind[0]].board
        return [p for p in range(len(self.players)) if mask >> p & 1]

    def count(self, odds: bool) -> tuple[int, dict[Card, dict[str, int]]]:
        """The fitting deals and, with ``odds``, per never-shown card the deals with it at each
        player (players with no slot left out)."""
        if self.zero:
            return 0, {}
        primes = primes_for(fit_bound(self.slots, list(self.mask.values())), SMALL_PRIMES)
        if odds and self.by_players():
            total, shares = by_players(self, primes)
        else:
            total, shares = _Walk(self, primes, odds).run(odds)
        deals = crt(total, primes)
        if not odds or deals == 0:
            return deals, {}
        at: dict[Card, dict[str, int]] = {}
        for (kind, q), ways in shares.items():
            if kind < 0 and not self.free:
                continue
            count = crt(ways, primes)
            for c in self.free if kind < 0 else self.classes[kind].cards:
                at.setdefault(c, {})[self.players[q]] = count
        for counted in at.values():
            assert sum(counted.values()) == deals, "every fitting deal puts the card somewhere"
        return deals, at

    def mask_of(self, i: int) -> int:
        """The players allowed the cards of class i."""
        return self.everyone & ~self.classes[i].board


_Slot = tuple[int, Array]  # an open class (standing for those merged into it), its cards per family
Factors = dict[tuple[tuple[int, ...], tuple[int, ...]], Array]  # a step's factor per (state before, state after)
# A step's ways, as ``_Walk._plan`` makes them: keys, combos, scales and the families' masks.
_Plan = tuple[dict[tuple[tuple[int, ...], tuple[int, ...]], int], Array, Array, Array]
# A step's factors for each distinct way the families read it, and each family's way (None: one
# way per family, in order).
Step = tuple[Factors, Array | None]


def _rows(step: Step, families: Array) -> Step:
    """The step for these families (rows of the batch the step was made for)."""
    factors, every = step
    return factors, families if every is None else every[families]


def _read(factor: Array, every: Array | None) -> Array:
    """A factor (primes x ways of reading x ...) for each family."""
    return factor if every is None else factor[:, every]


def _merge(active: list[_Slot], groups: list[list[int]]) -> list[_Slot]:
    """The open slots once regrouped: each group one slot, its cards added up per family."""
    return [(active[g[0]][0], sum((active[t][1] for t in g[1:]), active[g[0]][1])) for g in groups]


def _merged(key: tuple[int, ...], groups: list[list[int]]) -> tuple[int, ...]:
    """A state's key once the open classes are regrouped: one count per group (classes left out
    are no longer recorded)."""
    return tuple(sum(key[t] for t in g) for g in groups)


class _Walk:
    """The walk over the players, forward and back, for a batch of *families*: the position itself
    (row 0) and, per class, the position with one of its cards taken out (arrays are primes x
    families x total used).

    The deals with a card of class K at player p are the walk of K's family with p's step
    changed alone (one more card used, the requirements the card meets switched off): the
    forward walk up to p, that step, and the backward walk after it. A requirement "q does not
    hold all of C" that the card settles unless p is q is switched off in the family; for
    p = q, a family of its own keeps it.
    """

    def __init__(self, board: Board, primes: Sequence[int], odds: bool, plain: int = 1) -> None:
        self.board = board
        self.primes = list(primes)
        self.p = np.array(primes, dtype=np.int64)[:, None, None]
        classes = board.classes
        # Families: (class or -1, the player whose "not all" requirements stay on, or -1).
        families: list[tuple[int, int]] = [(-1, -1)] * plain
        if odds:
            for i, cls in enumerate(classes):
                families.append((i, -1))
                keep = {board.reqs[j][1] for j in cls.reqs if not board.reqs[j][0]}
                families += [(i, q) for q in sorted(keep) if board.mask_of(i) >> q & 1]
        self.families = families
        nb = self.nb = len(families)
        self.init = np.array([[len(k.cards) for k in classes] for _ in families], dtype=np.int64).reshape(
            nb, len(classes)
        )
        self.off = np.zeros((nb, len(board.reqs)), dtype=bool)
        for b, (i, keep_q) in enumerate(families):
            if i < 0:
                continue
            self.init[b, i] -= 1
            for j in classes[i].reqs:
                at, q, _ = board.reqs[j]
                if not at and q != keep_q:
                    self.off[b, j] = True
        top = board.n + 2
        self.fact, self.inv = stacked_tables(primes, top)
        # (-1)**j * C(a, j) modulo each prime, in row a, column j (zero past a).
        signed = np.array([[(-1) ** j * math.comb(a, j) for j in range(top + 1)] for a in range(top + 1)], dtype=object)
        self.signed = np.stack([(signed % prime).astype(np.int64) for prime in primes])
        # The sums of products inside int64 count on residues below 2**28, a hundred at a time.
        assert max(primes) < 1 << 28 and max(board.slots, default=0) < _SUMS, "primes below 2**28, slots below 120"

        # Each step's ways, by player and states before it (the walk meets a step several times).
        self._plans: dict[tuple[object, ...], _Plan] = {}

    def run(self, odds: bool) -> tuple[Array, dict[tuple[int, int], Array]]:
        """The count of fitting deals modulo each prime and, with ``odds``, per (class or -1 for
        the free cards, player) the deals with one card of it at the player."""
        board = self.board
        k, nb, d = len(self.primes), self.nb, board.n + 1
        first = board.openings()
        start = np.zeros((k, nb, 1), dtype=np.int64)
        start[:, :, 0] = 1
        # The open slots: a class (standing for every class merged into it) and its cards at the
        # start, per family.
        active: list[_Slot] = []
        states: dict[tuple[int, ...], Array] = {(): start}
        no_extra = np.zeros(nb, dtype=np.int64)
        before: dict[int, dict[tuple[int, ...], Array]] = {}
        steps: dict[int, Step] = {}
        regroup: dict[int, list[list[int]]] = {}
        actives: dict[int, list[_Slot]] = {}
        reach = 0
        reaches: dict[int, int] = {}
        done = 0
        for q in board.order:
            for i in first.get(q, []):
                states = self._open(states, i)
                active.append((i, self.init[:, i]))
            before[q] = states
            actives[q] = list(active)
            # After the step, classes no player to come is concerned by go with the multinomial,
            # and classes alike for every player to come become one count: the step's ways go
            # straight to those states.
            done |= 1 << q
            regroup[q] = board.regroup(active, done)
            steps[q] = self._factors(q, states, active, no_extra, self.off, regroup[q])
            reaches[q] = reach
            states = self._forward(steps[q], states, board.slots[q], reach)
            reach += board.slots[q]
            active = _merge(active, regroup[q])
        # Cards not used go anywhere: (n - used)! ways for all the players' 1 / (slots - used)!.
        weights = np.broadcast_to(self.fact[:, board.n - np.arange(d)][:, None, :], (k, nb, d))
        a = states.get(())
        total = (
            np.zeros((k, nb), dtype=np.int64)
            if a is None
            else (a * weights[:, :, : a.shape[2]] % self.p).sum(axis=2) % self.p[:, :, 0]
        )
        if not odds:
            return total[:, 0], {}
        # Back: per player, the ways to finish from each state after its step.
        after: dict[int, dict[tuple[int, ...], Array]] = {}
        back: dict[tuple[int, ...], Array] = {(): np.ascontiguousarray(weights)}
        for q in reversed(board.order):
            targets = {t for _, t in steps[q][0]}
            after[q] = {t: back[t] for t in targets if t in back}
            back = self._backward(steps[q], after[q], board.slots[q], reaches[q])
            opened = len(first.get(q, []))
            if opened:
                back = self._unopen(back, actives[q][-opened:])
        shares: dict[tuple[int, int], Array] = {}
        extra = np.ones(nb, dtype=np.int64)
        rows = {family: b for b, family in enumerate(self.families)}
        for q in board.order:
            off = self.off.copy()
            for b, (i, _) in enumerate(self.families):
                if i >= 0:
                    for r in board.classes[i].reqs:
                        is_at, who, _ = board.reqs[r]
                        off[b, r] = off[b, r] or (is_at and who == q)  # the card at q meets it
            moved = self._factors(q, before[q], actives[q], extra, off, regroup[q])
            got = self._meet(moved, before[q], after[q], board.slots[q], reaches[q])
            for kind in [-1, *range(len(board.classes))]:
                if kind >= 0 and not board.mask_of(kind) >> q & 1:
                    continue
                b = rows.get((kind, q), rows[(kind, -1)])
                shares[(kind, q)] = got[:, b]
        return total[:, 0], shares

    def _forward(
        self,
        step: Step,
        states: dict[tuple[int, ...], Array],
        slots: int,
        reach: int,
    ) -> dict[tuple[int, ...], Array]:
        """Through one player's step: out[target][w] += sum over v of a[s][w - v] * factor[v]. The
        arrays hold the totals used so far that the players walked can reach (``reach`` before the
        step, ``reach + slots`` after it)."""
        board, p = self.board, self.p
        factors, every = step
        nb = next(iter(states.values())).shape[1] if states else self.nb
        reach = min(reach, board.n)
        width = min(board.n, reach + slots) + 1
        by_target: dict[tuple[int, ...], list[tuple[Array, Array]]] = {}
        windowed: dict[tuple[int, ...], Array] = {}
        for (s, target), factor in factors.items():
            if s not in windowed:
                # Windows of the totals so far, so that window w holds totals w - slots .. w.
                a = np.zeros((len(self.primes), nb, reach + 1 + 2 * slots), dtype=np.int64)
                a[:, :, slots : slots + reach + 1] = states[s][:, :, : reach + 1]
                windowed[s] = np.lib.stride_tricks.sliding_window_view(a, slots + 1, axis=2)[:, :, :width, ::-1]
            by_target.setdefault(target, []).append((windowed[s], factor))
        out: dict[tuple[int, ...], Array] = {}
        for target, pairs in by_target.items():
            acc = np.zeros((len(self.primes), nb, width), dtype=np.int64)
            # Products of residues below 2**28 add up, a hundred at a time, inside int64.
            for lo in range(0, len(pairs), max(1, _SUMS // (slots + 1))):
                chunk = pairs[lo : lo + max(1, _SUMS // (slots + 1))]
                windows = np.concatenate([w for w, _ in chunk], axis=3)
                factors_ = _read(np.concatenate([f for _, f in chunk], axis=2), every)
                acc += np.einsum("kbwj,kbj->kbw", windows, factors_) % p
            out[target] = acc % p
        return out

    @staticmethod
    def _windows(b: Array, slots: int, reach: int) -> Array:
        """Windows of b so that window u (0 to ``reach``) holds b[u .. u + slots] (zero past the end)."""
        k, nb, d = b.shape
        padded = np.zeros((k, nb, reach + 1 + slots), dtype=np.int64)
        kept = min(d, reach + 1 + slots)
        padded[:, :, :kept] = b[:, :, :kept]
        return np.lib.stride_tricks.sliding_window_view(padded, slots + 1, axis=2)

    def _backward(
        self,
        step: Step,
        after: dict[tuple[int, ...], Array],
        slots: int,
        reach: int,
    ) -> dict[tuple[int, ...], Array]:
        """Back through one player's step: the ways to finish from each state before it,
        out[s][u] = sum over v of factor[v] * after[target][u + v], for the totals u the players
        before it reach."""
        reach = min(reach, self.board.n)
        factors, every = step
        windows = {t: self._windows(b, slots, reach) for t, b in after.items()}
        by_source: dict[tuple[int, ...], list[tuple[Array, Array]]] = {}
        for (s, target), factor in factors.items():
            if target in windows:
                by_source.setdefault(s, []).append((windows[target], factor))
        out: dict[tuple[int, ...], Array] = {}
        batch = max(1, _SUMS // (slots + 1))
        for s, pairs in by_source.items():
            # The targets of one state at once, a hundred products at a time inside int64.
            for lo in range(0, len(pairs), batch):
                chunk = pairs[lo : lo + batch]
                windows_ = chunk[0][0] if len(chunk) == 1 else np.concatenate([w for w, _ in chunk], axis=3)
                factors_ = _read(
                    chunk[0][1] if len(chunk) == 1 else np.concatenate([f for _, f in chunk], axis=2), every
                )
                part = np.einsum("kbuj,kbj->kbu", windows_, factors_) % self.p
                out[s] = (out[s] + part) % self.p if s in out else part
        return out

    def _meet(
        self,
        step: Step,
        before: dict[tuple[int, ...], Array],
        after: dict[tuple[int, ...], Array],
        slots: int,
        reach: int,
    ) -> Array:
        """Sum over the step's ways of the counts before it times the ways after it, moved:
        sum over u and v of before[s][u] * factor[v] * after[target][u + v] (u up to ``reach``):
        the way back through the step, met with the counts before it."""
        k, nb = len(self.primes), next(iter(before.values())).shape[1] if before else self.nb
        total = np.zeros((k, nb), dtype=np.int64)
        for s, b in self._backward(step, after, slots, reach).items():
            a = before[s][:, :, : b.shape[2]]
            total = (total + (a * b[:, :, : a.shape[2]] % self.p).sum(axis=2)) % self.p[:, :, 0]
        return total

    def _unopen(self, back: dict[tuple[int, ...], Array], opened: list[_Slot]) -> dict[tuple[int, ...], Array]:
        """Back through the opening of classes (appended last to the states, in this order)."""
        m = len(opened)
        out: dict[tuple[int, ...], Array] = {}
        for s, b in back.items():
            where = np.ones(b.shape[1], dtype=bool)
            for (_, init), left in zip(opened, s[-m:], strict=True):
                where &= init == left
            part = b * where[None, :, None]
            key = s[:-m]
            out[key] = (out[key] + part) % self.p if key in out else part
        return out

    def _open(self, states: dict[tuple[int, ...], Array], i: int) -> dict[tuple[int, ...], Array]:
        """Start recording how many cards of class i are left: all of them (one fewer in its
        family)."""
        out: dict[tuple[int, ...], Array] = {}
        sizes = self.init[:, i]
        for left in np.unique(sizes).tolist():
            where = (sizes == left)[None, :, None]
            for s, a in states.items():
                out[(*s, left)] = a * where
        return out

    def _factors(
        self,
        q: int,
        states: dict[tuple[int, ...], Array],
        active: list[_Slot],
        extra: Array,
        off: Array,
        groups: list[list[int]],
    ) -> Step:
        """One player's step, per (state before, state after): the factor by cards used
        (primes x families x used). Which of its requirements are broken (signed), which cards
        of its classes it uses (placed on its row of the board, or forced onto it), ``extra``
        cards given it (per family), and 1 / (slots - used)! of what it used.

        A family differs from the others at this step only in what the step reads of it: its
        cards of the player's classes, its requirements of the player switched off, and its
        ``extra``. Most families read the same (a family per class: its card was taken from a
        class the player is not concerned by; a family per player: it starts at another step), so
        the factors are made once per distinct reading, returned with each family's reading
        (``Step``). Families alike but for
        where they start share ``init``'s rows, so the first ``len(extra)`` stand for them all."""
        board = self.board
        mine = [j for j, (_, p, _) in enumerate(board.reqs) if p == q]
        private = [i for i, k in enumerate(board.classes) if k.involved == 1 << q]
        coupled = [(t, i) for t, (i, _) in enumerate(active) if board.classes[i].involved >> q & 1]
        init = {i: self.init[: len(extra), i] for i in private} | {i: active[t][1] for t, i in coupled}
        reads = np.column_stack(
            [extra, off[:, mine].astype(np.int64), *(init[i] for i in [*private, *(i for _, i in coupled)])]
        )
        _, first, inverse = np.unique(reads, axis=0, return_index=True, return_inverse=True)
        if len(first) == len(extra):
            return self._factors_of(q, states, coupled, init, extra, off, groups, mine, private), None
        own = self._factors_of(
            q, states, coupled, {i: v[first] for i, v in init.items()}, extra[first], off[first], groups, mine, private
        )
        return own, inverse.reshape(-1)

    def _factors_of(
        self,
        q: int,
        states: dict[tuple[int, ...], Array],
        coupled: list[tuple[int, int]],
        init: dict[int, Array],
        extra: Array,
        off: Array,
        groups: list[list[int]],
        mine: list[int],
        private: list[int],
    ) -> dict[tuple[tuple[int, ...], tuple[int, ...]], Array]:
        """``_factors`` for the families given (``init``, ``extra`` and ``off`` per family): the
        step's ways (``_plan``), then each branch's kernel for the families."""
        board = self.board
        nb = len(extra)
        slots = board.slots[q]
        # Per branch (which of its requirements are broken): its sign, the families it applies
        # to, and the role of each class it is concerned by.
        branches: list[tuple[int, Array, dict[int, str]]] = []
        for broken in range(1 << len(mine)):
            on = np.ones(nb, dtype=bool)
            placed_at: set[int] = set()  # requirement indices broken here
            for bit, j in enumerate(mine):
                if broken >> bit & 1:
                    on &= ~off[:, j]
                    placed_at.add(j)
            roles: dict[int, str] = {}
            for i in [*private, *(i for _, i in coupled)]:
                cls = board.classes[i]
                on_board = bool(cls.board >> q & 1) or any(board.reqs[j][0] for j in cls.reqs & placed_at)
                forced = any(not board.reqs[j][0] for j in cls.reqs & placed_at)
                if on_board and forced:
                    on &= init[i] == 0  # none of its cards at q and all of them: only if none
                    roles[i] = "forced"
                else:
                    roles[i] = "board" if on_board else "forced" if forced else ""
            branches.append((-1 if broken.bit_count() % 2 else 1, on, roles))
        kernels: list[Array] = []
        for sign, on, roles in branches:
            spread = np.zeros(nb, dtype=np.int64)  # private cards it may place on its row
            shift = np.zeros(nb, dtype=np.int64)  # cards it uses for sure, forced (the card given: below)
            for i in private:
                if roles[i] == "board":
                    spread += init[i]
                elif roles[i] == "forced":
                    shift += init[i]
            # Per variant: (-1)**j * C(spread, j) ways by cards used shift + j, for the branch's sign.
            picks = np.arange(slots + 1)[None, :] - shift[:, None]  # families x used
            inside = (picks >= 0) & on[:, None]
            kernel = self.signed[:, spread[:, None], np.clip(picks, 0, None)] * inside[None, :, :]
            kernels.append((self.p - kernel) % self.p if sign < 0 else kernel)
        # The ways do not depend on the families unless a coupled class is forced onto the player
        # (its cards must all be left, which depends on the family): then they are made afresh.
        plain = not any(roles[i] == "forced" for _, _, roles in branches for _, i in coupled)
        cache = (q, tuple(states), tuple(i for _, i in coupled), tuple(map(tuple, groups))) if plain else None
        plan = self._plans.get(cache) if cache else None
        if plan is None:
            plan = self._plan(states, coupled, init, groups, slots, branches, nb, plain)
            if cache:
                self._plans[cache] = plan
        keys, combos, scales, needs = plan
        if plain:  # (no way depends on the families: every family is allowed every way)
            needs = np.ones((1, nb), dtype=np.int64)
        if not keys:
            return {}
        # Families alike but for the card given them (``extra``, one more card used for sure)
        # share one product, shifted by it.
        k = len(self.primes)
        stacked = np.stack(kernels)  # branches x primes x families x used
        alike, which = np.arange(nb), np.arange(nb)
        if nb > 1 and len(needs) == 1:
            _, alike, which = np.unique(
                stacked.transpose(2, 0, 1, 3).reshape(nb, -1), axis=0, return_index=True, return_inverse=True
            )
            which = which.reshape(-1)
        # Each way is a multiple of one of few factors (kernel, cards used, families allowed):
        # the multiples were added up per key and factor; multiply once.
        shifted = np.zeros((len(kernels), slots + 1, k, len(alike), slots + 1), dtype=np.int64)
        for used in range(slots + 1):
            shifted[:, used, :, :, used:] = stacked[:, :, alike, : slots + 1 - used]
        branch_of, rest = np.divmod(combos, (slots + 1) * len(needs))
        used_of, need_of = np.divmod(rest, len(needs))
        masks = needs[:, alike][need_of][:, None, :, None]
        factor = shifted[branch_of, used_of] * masks  # combos x primes x families alike x used
        products = np.zeros((len(keys), k, len(alike), slots + 1), dtype=np.int64)
        for lo in range(0, len(combos), _SUMS):
            part = np.einsum("ack,ckbv->akbv", scales[:, lo : lo + _SUMS], factor[lo : lo + _SUMS])
            products = (products + part) % self.p[None]
        inv = self.inv[:, slots - np.arange(slots + 1)]  # primes x used: 1 / (slots - used)!
        own = np.zeros((len(keys), k, nb, slots + 1), dtype=np.int64)
        for given in np.unique(extra).tolist():
            if given <= slots:
                rows = np.flatnonzero(extra == given)
                moved = products[:, :, which[rows], : slots + 1 - given]
                own[:, :, rows, given:] = moved * inv[None, :, None, given:] % self.p[None]
        present = np.asarray(own.reshape(len(keys), -1).any(axis=1), dtype=bool)
        return {key: own[j] for key, j in keys.items() if present[j]}

    def _plan(
        self,
        states: dict[tuple[int, ...], Array],
        coupled: list[tuple[int, int]],
        init: dict[int, Array],
        groups: list[list[int]],
        slots: int,
        branches: list[tuple[int, Array, dict[int, str]]],
        nb: int,
        plain: bool,
    ) -> _Plan:
        """A step's ways: every (state before, state after) numbered (``keys``), the distinct
        (branch, cards used, families allowed) of its ways (``combos``), the signed ways of each
        key and combo added up modulo each prime (``scales``), and the families each combo is
        allowed for (rows of ``needs``). With ``plain``, no way depends on the families (every
        branch's ways are listed, even where the families switch it off: its kernel is then zero)."""
        k = len(self.primes)
        # Every way: (from, to), the branch's kernel, cards used, signed ways, families allowed.
        keys: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        # Signed ways added up by (key, kernel, cards used, families allowed).
        ways: dict[tuple[int, int, int, int], int] = {}
        needs: dict[bytes, int] = {np.ones(nb, dtype=np.int64).tobytes(): 0}
        at_once: list[tuple[Array, Array]] = []  # ways found array-wise: (rows as in ways, residues)
        for b, (_, on, roles) in enumerate(branches):
            if not plain and not on.any():
                continue
            if states and not any(roles[i] == "forced" for _, i in coupled):
                for rows, scale in self._ways_at_once(list(states), coupled, roles, groups, slots, keys):
                    rows[:, 1] = b
                    at_once.append((rows, scale))
                continue
            for s in states:
                for target, used, weight, need in self._moves(s, coupled, roles, init):
                    if used > slots:
                        continue
                    allowed = 0 if need is None else needs.setdefault(need.tobytes(), len(needs))
                    key = keys.setdefault((s, _merged(target, groups)), len(keys))
                    way = (key, b, used, allowed)
                    ways[way] = ways.get(way, 0) + weight
        masks = np.frombuffer(b"".join(needs), dtype=np.int64).reshape(len(needs), nb)
        if not ways and not at_once:
            return {}, np.zeros(0, dtype=np.int64), np.zeros((0, 0, k), dtype=np.int64), masks
        table = np.concatenate([np.array(list(ways), dtype=np.int64).reshape(-1, 4), *(rows for rows, _ in at_once)])
        weights = np.concatenate(
            [
                np.array([[w % prime for prime in self.primes] for w in ways.values()], dtype=np.int64).reshape(-1, k),
                *(scale for _, scale in at_once),
            ]
        )
        combo = (table[:, 1] * (slots + 1) + table[:, 2]) * len(needs) + table[:, 3]
        combos, which = np.unique(combo, return_inverse=True)
        which = which.reshape(-1)
        scales = np.zeros((len(keys), len(combos), k), dtype=np.int64)
        cells = table[:, 0] * len(combos) + which
        for lo in range(0, len(table), 1 << 20):
            # Sums of up to 2**20 residues below 2**28 are whole numbers in a float64.
            for row, prime in enumerate(self.primes):
                summed = np.bincount(
                    cells[lo : lo + (1 << 20)],
                    weights=weights[lo : lo + (1 << 20), row],
                    minlength=len(keys) * len(combos),
                )
                scales[:, :, row] += summed.astype(np.int64).reshape(len(keys), len(combos)) % prime
        scales %= self.p[None, :, 0, 0]
        return keys, combos, scales, masks

    def _ways_at_once(
        self,
        skeys: list[tuple[int, ...]],
        coupled: list[tuple[int, int]],
        roles: dict[int, str],
        groups: list[list[int]],
        slots: int,
        keys: dict[tuple[tuple[int, ...], tuple[int, ...]], int],
    ) -> list[tuple[Array, Array]]:
        """The ways of ``_moves`` from every state at once, when no class is forced onto the
        player: per chunk of states, rows (key, 0, cards used, 0) and their signed ways modulo
        each prime (as in ``_factors``; keys added to ``keys``)."""
        k = len(self.primes)
        primes = self.p[:, 0, 0][None, :]
        every = np.array(skeys, dtype=np.int64).reshape(len(skeys), -1)
        ts = [t for t, i in coupled if roles[i] == "board"]
        merge = np.zeros((every.shape[1], len(groups)), dtype=np.int64)
        for g, members in enumerate(groups):
            merge[members, g] = 1
        tops = every[:, ts].max(axis=0) if ts else np.zeros(0, dtype=np.int64)
        # Every way to place some of each class on the player's row: m cards of a class at t.
        grid = np.indices(tuple(int(x) + 1 for x in tops)).reshape(len(ts), -1).T if ts else np.zeros((1, 0), np.int64)
        grid = grid[grid.sum(axis=1) <= slots]
        chunk = max(1, (1 << 21) // max(1, len(grid) * max(1, len(ts))))
        out: list[tuple[Array, Array]] = []
        for lo in range(0, len(skeys), chunk):
            states = every[lo : lo + chunk]
            fits = (grid[None, :, :] <= states[:, None, ts]).all(axis=2)
            si, mi = np.nonzero(fits)
            m = grid[mi]
            target = states[si]
            target[:, ts] -= m
            scale = np.ones((len(si), k), dtype=np.int64)
            for c, t in enumerate(ts):  # (-1)**m * C(left, m) ways, class by class
                scale = scale * self.signed[:, states[si, t], m[:, c]].T % primes
            unique, inverse = _unique_rows(np.column_stack([si, target @ merge]))
            ids = np.fromiter(
                (
                    keys.setdefault((skeys[lo + s], tuple(t)), len(keys))
                    for s, t in zip(unique[:, 0].tolist(), unique[:, 1:].tolist(), strict=True)
                ),
                dtype=np.int64,
                count=len(unique),
            )
            rows = np.zeros((len(si), 4), dtype=np.int64)
            rows[:, 0] = ids[inverse.reshape(-1)]
            rows[:, 2] = m.sum(axis=1)
            out.append((rows, scale))
        return out

    def _moves(
        self, s: tuple[int, ...], coupled: list[tuple[int, int]], roles: dict[int, str], init: dict[int, Array]
    ) -> list[tuple[tuple[int, ...], int, int, Array | None]]:
        """From state s, the ways the player uses cards of the open classes it is concerned by:
        (new state, cards used, signed ways, per variant whether allowed (None: all))."""
        moves: list[tuple[tuple[int, ...], int, int, Array | None]] = [(s, 0, 1, None)]
        for t, i in coupled:
            role = roles[i]
            if not role:
                continue
            left = s[t]
            nxt: list[tuple[tuple[int, ...], int, int, Array | None]] = []
            for target, used, weight, need in moves:
                if role == "board":
                    for m in range(left + 1):
                        c = math.comb(left, m)
                        moved = (*target[:t], left - m, *target[t + 1 :])
                        nxt.append((moved, used + m, -weight * c if m % 2 else weight * c, need))
                else:  # forced: all of the class, none of it taken by another player before
                    whole = (init[i] == left).astype(np.int64)
                    if not whole.any():
                        continue
                    moved = (*target[:t], 0, *target[t + 1 :])
                    nxt.append((moved, used + left, weight, whole if need is None else need * whole))
            moves = nxt
        return moves


def _unique_rows(rows: Array) -> tuple[Array, Array]:
    """``np.unique(rows, axis=0, return_inverse=True)`` for rows of small non-negative integers,
    each read as one number (sorting whole rows is several times slower)."""
    if len(rows) == 0:
        return rows, np.zeros(0, dtype=np.int64)
    radix = rows.max(axis=0) + 1
    if math.prod(int(r) for r in radix) >= 1 << 62:
        unique, inverse = np.unique(rows, axis=0, return_inverse=True)
        return unique, inverse.reshape(-1)
    place = np.cumprod(np.concatenate([[1], radix[:0:-1]]))[::-1]
    _, first, inverse = np.unique(rows @ place, return_index=True, return_inverse=True)
    return rows[first], inverse.reshape(-1)


def board_count(pos: Position, odds: bool) -> tuple[int, dict[Card, dict[str, int]]]:
    """The fitting deals of ``pos`` (and with ``odds`` the deals with each card at each player)."""
    return Board(pos).count(odds)


def _open_all(states: dict[tuple[int, ...], Array], sizes: list[int], variants: bool) -> dict[tuple[int, ...], Array]:
    """Start recording the classes opening at a step, all their cards left; with ``variants``,
    also each with one card fewer, at no deals (so that the way back reaches those states)."""
    out: dict[tuple[int, ...], Array] = {}
    for s, a in states.items():
        out[(*s, *sizes)] = a
        if variants:
            for j in range(len(sizes)):
                fewer = list(sizes)
                fewer[j] -= 1
                out[(*s, *fewer)] = np.zeros_like(a)
    return out


def by_players(board: Board, primes: Sequence[int]) -> tuple[Array, dict[tuple[int, int], Array]]:
    """``_Walk.run`` with odds, for a board with no "not all" requirement, with a batch of one
    family per *player* (and set of its requirements a card would meet), not one per class.

    The deals with a card of class K at player q are those of the position with K one card
    short, q's slots one fewer and q's requirements that hold K switched off. The last two
    change q's step only: a family carries them, forward from q's step and back from it (family
    0 is the position itself). The first changes only where K starts being recorded: for a class
    that couples players, just before its first player in the walk, where the walk records it
    one card short too, at no deals, so that the way back has the ways to finish from there; the
    families meet the position itself there (forward if q comes before, back if at or after),
    one product per state. A class private to one player is one card short in that player's
    step, met there. The free cards' share is what is left of each player's slots.

    A card that meets requirements of q needs no family when its class is private to q or
    recorded on its own at q's step (``Board.alone``): q's step alone changes (the card taken
    from the class's own count, or the class one card short), met with the position's counts
    before and after it (``at_step``). Only the families some other card needs are carried:
    on the slowest 8-player views, nine instead of about twenty.
    """
    order = board.order
    position = {q: i for i, q in enumerate(order)}
    players = range(len(board.players))
    classes = board.classes
    first = board.openings()
    private: dict[int, list[int]] = {}
    for i, cls in enumerate(classes):
        if cls.involved.bit_count() == 1:
            private.setdefault(cls.involved.bit_length() - 1, []).append(i)
    alone = board.alone()
    wanted: dict[tuple[int, frozenset[int]], list[int]] = {}
    for q in order:
        for i, cls in enumerate(classes):
            if board.mask_of(i) >> q & 1:
                wanted.setdefault((q, frozenset(j for j in cls.reqs if board.reqs[j][1] == q)), []).append(i)
    # Families numbered from 1 in the walk's order of their players (0: the position itself). A
    # card that meets requirements of q is counted in q's step alone (``local``) when its class
    # is private to q or recorded on its own there: a family for those would go the whole way.
    families: dict[tuple[int, frozenset[int]], int] = {}
    family_of: dict[tuple[int, int], int] = {}
    local: dict[tuple[int, int], frozenset[int]] = {}
    for (q, meets), which in wanted.items():
        if meets and all(i in alone[q] or i in private.get(q, []) for i in which):
            local.update({(i, q): meets for i in which})
        else:
            f = families.setdefault((q, meets), len(families) + 1)
            family_of.update({(i, q): f for i in which})
    nf = len(families) + 1
    walk = _Walk(board, primes, odds=False, plain=nf)
    k, d, p = len(primes), board.n + 1, walk.p
    extra = {q: np.zeros(nf, dtype=np.int64) for q in players}
    off = {q: np.zeros((nf, len(board.reqs)), dtype=bool) for q in players}
    for (q, meets), f in families.items():
        extra[q][f] = 1
        off[q][f, list(meets)] = True
    fam_position = np.array([-1] + [position[q] for q, _ in families], dtype=np.int64)
    ways: dict[tuple[int, int], Array] = {}

    def give(i: int, summed: Array, q: int, later: bool) -> None:
        """To the families of class i's players before q (or at and after it, or after it)."""
        for who in players:
            f = family_of.get((i, who))
            if f is not None and _side(position[who], position[q], i in private.get(q, [])) == later:
                ways[(i, who)] = summed[:, f]

    def families_of(q: int, width: int) -> list[_Slot]:
        return [(i, np.full(width, int(c[0]), dtype=np.int64)) for i, c in actives[q]]

    def short_of(i: int, q: int, states: dict[tuple[int, ...], Array], extra_: Array, off_: Array) -> Step:
        """The step at q from ``states`` with the private class i one card short, for the families
        given by ``extra_`` and ``off_``."""
        walk.init[:, i] -= 1
        try:
            return walk._factors(q, states, families_of(q, len(extra_)), extra_, off_, regroup[q])
        finally:
            walk.init[:, i] += 1

    def at_step(q: int, before: dict[tuple[int, ...], Array], after: dict[tuple[int, ...], Array]) -> None:
        """The ``local`` ways at q's step: the card given q (one more card used, unsigned, the
        requirements it meets switched off), taken from its class's own count (as many ways as
        cards left of it: over the class's cards) or, for a class private to q, from the class
        one card short; met with the position's own counts before and after the step."""
        given = np.ones(1, dtype=np.int64)
        passive: dict[frozenset[int], Step] = {}  # the step with these requirements off, per set
        for (i, who), meets in local.items():
            if who != q:
                continue
            met = np.zeros((len(board.reqs),), dtype=bool)
            met[list(meets)] = True
            if i in private.get(q, []):
                step = short_of(i, q, before, given, met[None, :])
                ways[(i, q)] = walk._meet(step, before, after, board.slots[q], reaches[q])[:, 0]
                continue
            # From each state, as many ways as cards of the class left there; the card taken, the
            # class is passive in the step (the requirements it is in are off), so the step is the
            # same as from the state itself with the class one card fuller after it.
            t = alone[q][i]
            taken = {s: a * s[t] % p for s, a in before.items()}
            if meets not in passive:
                passive[meets] = walk._factors(q, before, families_of(q, 1), given, met[None, :], regroup[q])
            step = passive[meets]
            g = next((g for g, group in enumerate(regroup[q]) if t in group), None)
            fuller = after if g is None else {(*u[:g], u[g] + 1, *u[g + 1 :]): b for u, b in after.items()}
            summed = walk._meet(step, taken, fuller, board.slots[q], reaches[q])[:, 0]
            size = len(classes[i].cards)
            ways[(i, q)] = summed * inverses(size, primes) % p[:, 0, 0]

    def rows(a: Array, at: int, count: int) -> Array:
        """``a`` with ``count`` copies of its first row (the position's) put in at ``at``."""
        return np.concatenate([a[:, :at], np.repeat(a[:, :1], count, axis=1), a[:, at:]], axis=1)

    # Forward: the families start from the position's row at their player's step; the arrays
    # hold the position and the families started so far (numbered in the walk's order).
    up_to = [1 + int((fam_position[1:] <= r).sum()) for r in range(len(order))]
    states: dict[tuple[int, ...], Array] = {(): np.zeros((k, 1, 1), dtype=np.int64)}
    states[()][:, 0, 0] = 1
    active: list[_Slot] = []
    pre_open: dict[int, dict[tuple[int, ...], Array]] = {}
    reached: dict[int, dict[tuple[int, ...], Array]] = {}
    regroup: dict[int, list[list[int]]] = {}
    actives: dict[int, list[_Slot]] = {}
    reach = done = 0
    reaches: dict[int, int] = {}
    steps: dict[int, Step] = {}
    width = 1
    for q in order:
        if q in first:
            pre_open[q] = states
            states = _open_all(states, [len(classes[i].cards) for i in first[q]], True)
            active += [(i, walk.init[:1, i].copy()) for i in first[q]]
        actives[q] = list(active)
        grown = up_to[position[q]]
        states = {s: rows(a, width, grown - width) for s, a in states.items()}
        width = grown
        reached[q] = states
        done |= 1 << q
        regroup[q] = board.regroup(active, done)
        # The step for every family (the way back reads it too).
        steps[q] = walk._factors(q, states, families_of(q, nf), extra[q], off[q], regroup[q])
        reaches[q] = reach
        states = walk._forward(_rows(steps[q], np.arange(width)), states, board.slots[q], reach)
        reach += board.slots[q]
        active = _merge(active, regroup[q])
    weights = np.ascontiguousarray(walk.fact[:, board.n - np.arange(d)][:, None, :])
    end = states.get(())
    total = np.zeros(k, dtype=np.int64)
    if end is not None:
        total = (end[:, 0] * weights[:, 0, : end.shape[2]] % p[:, 0]).sum(axis=1) % p[:, 0, 0]
    # Back: the families start from the position's row at their player's step; the arrays hold
    # the position and the families started so far, the last in the walk's order first.
    from_ = [1 + int((fam_position[1:] < r).sum()) for r in range(len(order))]
    back: dict[tuple[int, ...], Array] = {(): weights}
    start = nf
    for q in reversed(order):
        r = position[q]
        later = {t: rows(b, 1, start - from_[r]) for t, b in back.items()}
        start = from_[r]
        chosen = np.array([0, *range(start, nf)], dtype=np.int64)
        at_step(q, {s: a[:, :1] for s, a in reached[q].items()}, {t: b[:, :1] for t, b in later.items()})
        if q in private:
            # Every family, met with the position's own row the other way: those of players
            # before q forward (with the position's row back through the step), the others back
            # (their rows back through the step, with the position's row forward).
            for i in private[q]:
                short = walk._backward(
                    _rows(short_of(i, q, reached[q], extra[q], off[q]), chosen), later, board.slots[q], reaches[q]
                )
                met = np.zeros((k, nf), dtype=np.int64)
                for s, gone in short.items():
                    a = reached[q][s]
                    u = min(a.shape[2], gone.shape[2])
                    met[:, chosen] += (a[:, :1, :u] * gone[:, :, :u] % p).sum(axis=2) % p[:, :, 0]
                    met[:, 1:start] += (a[:, 1:start, :u] * gone[:, :1, :u] % p).sum(axis=2) % p[:, :, 0]
                    met %= p[:, :, 0]
                give(i, met, q, later=False)
                give(i, met, q, later=True)
        back = walk._backward(_rows(steps[q], chosen), later, board.slots[q], reaches[q])
        if q in first:
            sizes = [len(classes[i].cards) for i in first[q]]
            for j, i in enumerate(first[q]):
                fewer = [*sizes]
                fewer[j] -= 1
                forward_sum = np.zeros((k, nf), dtype=np.int64)
                backward_sum = np.zeros((k, nf), dtype=np.int64)
                for s, a in pre_open[q].items():
                    b = back.get((*s, *fewer))
                    if b is not None:
                        u = min(a.shape[2], b.shape[2])  # (totals past the walk's reach are none)
                        a, b = a[:, :, :u], b[:, :, :u]
                        forward_sum[:, : a.shape[1]] += (a * b[:, :1] % p).sum(axis=2) % p[:, :, 0]
                        backward_sum[:, chosen] += (a[:, :1] * b % p).sum(axis=2) % p[:, :, 0]
                give(i, forward_sum % p[:, :, 0], q, later=False)
                give(i, backward_sum % p[:, :, 0], q, later=True)
            back = walk._unopen(back, families_of(q, len(chosen))[-len(first[q]) :])
    shares: dict[tuple[int, int], Array] = {}
    for key in [*family_of, *local]:
        shares[key] = ways.get(key, np.zeros(k, dtype=np.int64))
    if board.free:
        primes_ = p[:, 0, 0]
        inv_free = inverses(len(board.free), primes_)
        for who in players:
            rest = total * board.slots[who] % primes_
            for i, cls in enumerate(classes):
                if (i, who) in shares:
                    rest = (rest - len(cls.cards) * shares[(i, who)]) % primes_
            shares[(-1, who)] = rest * inv_free % primes_
    return total, shares


def _side(who: int, at: int, private: bool) -> bool:
    """Whether a player (by position in the walk) meets a class opening at ``at`` coming back
    (at or after it; for a private class, only after it: its own player's step is the forward
    meet's)."""
    return who > at if private else who >= at
