"""Exact holders of every card in a view, by one flow and the components of its residual graph.

A deal of the never-shown cards fits a position exactly when it places every card in a *slot*:
each player ``p`` with an ``at least one of book B`` requirement owns one slot reserved for a
card of B, and ``slots[p] - (number of such books)`` general slots that take any card ``p`` may
hold. (Given a fitting deal, put one card of each required book in its reserved slot and the
rest in general slots; conversely every full placement is a fitting deal.) Feasibility is a
maximum flow: source -> card -> slot -> sink.

Cards with the same allowed players, and the same book where that book has a reserved slot,
are interchangeable, so the flow runs over such *classes* with their sizes as capacities: a few
dozen nodes even at the deal. Which players a class can reach in *some* fitting deal follows
from one maximum flow: an edge class -> slot not carrying flow can carry some in another flow
exactly when it lies on a cycle of the residual graph, i.e. when both ends are in the same
strongly connected component.

``not_all`` requirements (house ``must-declare``) do not fit a flow; when a position has any,
the solver branches on them (each branch forbids one card of the book to that player), which
stays exact.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TypeVar

from .cards import Card
from .errors import Contradiction
from .knowledge import Position, Requirement
from .wording import either, plural

K = TypeVar("K", bound=Hashable)  # a class of cards in a flow
S = TypeVar("S", bound=Hashable)  # a slot of a flow
Slot = tuple[str, str]  # (player, book name) for a reserved slot, (player, "") for general ones
ClassKey = tuple[str, tuple[str, ...]]  # (book name if it has reserved slots, else ""; allowed players)


@dataclass
class Solution:
    """The holders of every card in play, and one fitting deal of the never-shown cards."""

    holders: dict[Card, tuple[str, ...]]
    witness: dict[Card, str]
    # Who may have been dealt each never-shown card: in play, or out of play unseen (a wrong
    # claim written without its split), which ``holders`` leaves out.
    dealt: dict[Card, tuple[str, ...]]


class NoFit(Contradiction):
    """No deal fits the position; ``why`` says so in plain words.

    A contradiction like any other (exit 1). The solver and the counter see one position, not
    the record: ``analysis.solve_position`` finds the event after which nothing fits and names it.
    """

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass(frozen=True)
class _Outcome:
    """What one flow problem answers: each class's possible players and a witness placement."""

    possible: dict[ClassKey, frozenset[str]]
    placement: dict[ClassKey, tuple[tuple[str, int], ...]]  # class -> (player, how many)


def _classes(
    pos: Position, allowed: dict[Card, tuple[str, ...]], reserved: frozenset[Slot]
) -> dict[ClassKey, list[Card]]:
    reserved_books = {b for _, b in reserved}
    groups: dict[ClassKey, list[Card]] = {}
    for c, ps in allowed.items():
        book = pos.deck.book_of(c).name
        key = (book if book in reserved_books and any((p, book) in reserved for p in ps) else "", ps)
        groups.setdefault(key, []).append(c)
    return groups


def _flow_problem(
    pos: Position, allowed: dict[Card, tuple[str, ...]]
) -> tuple[dict[ClassKey, list[Card]], tuple[tuple[ClassKey, int], ...], tuple[tuple[Slot, int], ...]]:
    required: dict[str, list[Requirement]] = {p: [] for p in pos.players}
    for r in pos.at_least:
        required[r.player].append(r)
    capacity: dict[Slot, int] = {}
    for p in pos.players:
        general = pos.slots[p] - len(required[p])
        if general < 0:
            books = ", ".join(f"{r.book.name} ({r.label})" for r in required[p])
            raise NoFit(f"{p} must hold a card of each of {books}, but has only {plural(pos.slots[p], 'unseen card')}")
        if general:
            capacity[(p, "")] = general
        for r in required[p]:
            capacity[(p, r.book.name)] = 1
    groups = _classes(pos, allowed, frozenset(s for s in capacity if s[1]))
    sizes = tuple(sorted((k, len(v)) for k, v in groups.items()))
    return groups, sizes, tuple(sorted(capacity.items()))


@lru_cache(maxsize=4096)
def _solve_classes(sizes: tuple[tuple[ClassKey, int], ...], capacity: tuple[tuple[Slot, int], ...]) -> _Outcome:
    """Place every class in slots (a maximum flow), then read off where else each class can go.

    Cached: consecutive steps often leave the hidden part of a view unchanged.
    """
    room = dict(capacity)
    load = dict.fromkeys(room, 0)
    size = dict(sizes)
    adj: dict[ClassKey, list[Slot]] = {}
    for key, _ in sizes:
        book, players = key
        out = []
        for p in players:
            if book and (p, book) in room:
                out.append((p, book))
            if (p, "") in room:
                out.append((p, ""))
        adj[key] = out
    flow: dict[ClassKey, dict[Slot, int]] = {key: {} for key, _ in sizes}
    at_slot: dict[Slot, set[ClassKey]] = {q: set() for q in room}
    # A greedy start, most constrained classes first, leaves few units for augmenting paths.
    left: dict[ClassKey, int] = {}
    for key, m in sorted(sizes, key=lambda km: len(adj[km[0]])):
        for q in adj[key]:
            put = min(m, room[q] - load[q])
            if put > 0:
                flow[key][q] = put
                at_slot[q].add(key)
                load[q] += put
                m -= put
                if m == 0:
                    break
        left[key] = m
    for key, m in left.items():
        for _ in range(m):
            reached = augment(key, adj, flow, at_slot, room, load)
            if reached is not None:
                stuck = {key} | {k for _, k in reached.values()}
                raise NoFit(_explain(stuck, set(reached), size, room))
    # Residual paths between slots: a unit of a class at q can move to q' (another slot it may use).
    succ: dict[Hashable, list[Hashable]] = {q: [] for q in room}
    for key, m in sizes:
        used = [q for q, n in flow[key].items() if n > 0]
        spare = [q for q in adj[key] if flow[key].get(q, 0) < m]
        for q in used:
            succ[q].extend(q2 for q2 in spare if q2 != q)
    component = strong_components(succ)
    possible: dict[ClassKey, frozenset[str]] = {}
    placement: dict[ClassKey, tuple[tuple[str, int], ...]] = {}
    for key, _ in sizes:
        used = [q for q, n in flow[key].items() if n > 0]
        mine = {component[q] for q in used}
        can = {q[0] for q in used}
        can.update(q[0] for q in adj[key] if component[q] in mine)
        possible[key] = frozenset(can)
        per: dict[str, int] = {}
        for q, n in flow[key].items():
            if n > 0:
                per[q[0]] = per.get(q[0], 0) + n
        placement[key] = tuple(per.items())
    return _Outcome(possible, placement)


def augment(
    key: K,
    adj: Mapping[K, Sequence[S]],
    flow: dict[K, dict[S, int]],
    at_slot: dict[S, set[K]],
    room: Mapping[S, int],
    load: dict[S, int],
) -> dict[S, tuple[S | None, K]] | None:
    """Place one more unit of ``key``, moving other units along a shortest path of slots.

    None when it is placed; else every slot the search reached, each with the slot and the class
    it was reached from (no slot among them has room). The explanations use it too.
    """
    parent: dict[S, tuple[S | None, K]] = {}
    queue: deque[S] = deque()
    for q in adj[key]:
        if q not in parent:
            parent[q] = (None, key)
            queue.append(q)
    while queue:
        q = queue.popleft()
        if load[q] < room[q]:
            load[q] += 1
            while True:
                prev, moved = parent[q]
                flow[moved][q] = flow[moved].get(q, 0) + 1
                at_slot[q].add(moved)
                if prev is None:
                    return None
                flow[moved][prev] -= 1
                if flow[moved][prev] == 0:
                    at_slot[prev].discard(moved)
                q = prev
        for other in at_slot[q]:
            for q2 in adj[other]:
                if q2 not in parent:
                    parent[q2] = (q, other)
                    queue.append(q2)
    return parent


def _explain(stuck: set[ClassKey], slots: set[Slot], size: dict[ClassKey, int], room: dict[Slot, int]) -> str:
    """A Hall violation in words: these cards can only go to players with too little room."""
    cards = sum(size[k] for k in stuck)
    space = sum(room[q] for q in slots)
    names = list(dict.fromkeys(p for key in sorted(stuck) for p in key[1]))
    books = sorted({key[0] for key in stuck if key[0]})
    owed = f" (counting the cards they owe to {', '.join(books)})" if books else ""
    return f"{plural(cards, 'unseen card')} can only be with {either(names)}, who have room for {space}{owed}"


def strong_components(succ: dict[Hashable, list[Hashable]]) -> dict[Hashable, int]:
    """Component number of every node (iterative Tarjan); nodes without successors may be absent.

    The residual graph is small and rebuilt for many positions, so this avoids building a
    general-purpose graph object each time; tests check it against networkx.
    """
    index: dict[Hashable, int] = {}
    low: dict[Hashable, int] = {}
    component: dict[Hashable, int] = {}
    stack: list[Hashable] = []
    on_stack: set[Hashable] = set()
    counter = 0
    for root in list(succ):
        if root in index:
            continue
        work = [(root, iter(succ.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ.get(nxt, ()))))
                    advanced = True
                    break
                if nxt in on_stack and index[nxt] < low[node]:
                    low[node] = index[nxt]
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] == index[node]:
                k = len(component)
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = k
                    if member == node:
                        break
    return component


def _relaxed(
    pos: Position, allowed: dict[Card, tuple[str, ...]]
) -> tuple[dict[Card, tuple[str, ...]], dict[Card, str]]:
    """Possible players (in seat order) of every never-shown card and a witness deal, ignoring ``not_all``."""
    groups, sizes, capacity = _flow_problem(pos, allowed)
    outcome = _solve_classes(sizes, capacity)
    possible: dict[Card, tuple[str, ...]] = {}
    witness: dict[Card, str] = {}
    for key, cards in groups.items():
        can = outcome.possible[key]
        seated = tuple(p for p in key[1] if p in can)  # allowed players are in seat order
        i = 0
        for p, n in outcome.placement[key]:
            for c in cards[i : i + n]:
                witness[c] = p
            i += n
        for c in cards:
            possible[c] = seated
    return possible, witness


def solve(pos: Position) -> Solution:
    """Holders of every card in play in this position; raises NoFit when no deal fits."""
    # A player who may not hold every card of a book, or has fewer slots than it has cards,
    # never holds all of it: such requirements always hold and need no branching.
    binding = [
        r
        for r in pos.not_all
        if not r.cards
        or (all(r.player in pos.allowed.get(c, ()) for c in r.cards) and len(r.cards) <= pos.slots[r.player])
    ]
    if len(binding) != len(pos.not_all):
        pos = replace(pos, not_all=binding)
    if pos.not_all:
        branched, witness = _branching(pos)
        possible = {c: tuple(p for p in pos.players if p in ps) for c, ps in branched.items()}
    else:
        possible, witness = _relaxed(pos, pos.allowed)
    known = pos.known
    holders = {c: (known[c],) if c in known else possible[c] for c in pos.in_play}
    return Solution(holders, witness, {c: possible[c] for c in pos.allowed})


def _violated(pos: Position, deal: dict[Card, str]) -> Requirement | None:
    for r in pos.not_all:
        if all(deal.get(c) == r.player for c in r.cards):
            return r
    return None


def _fitting_deal(
    pos: Position, allowed: dict[Card, tuple[str, ...]], force: tuple[Card, str] | None
) -> dict[Card, str] | None:
    """One deal meeting every constraint, ``not_all`` included, or None; branches on not_all."""
    if force is not None:
        card, player = force
        if player not in allowed[card]:
            return None
        allowed = {**allowed, card: (player,)}
    try:
        _, deal = _relaxed(pos, allowed)
    except NoFit:
        return None
    broken = _violated(pos, deal)
    if broken is None:
        return deal
    for c in sorted(broken.cards, key=pos.deck.cards.index):
        narrowed = {**allowed, c: tuple(p for p in allowed[c] if p != broken.player)}
        if not narrowed[c]:
            continue
        found = _fitting_deal(pos, narrowed, None)
        if found is not None:
            return found
    return None


def _swapped(pos: Position, deal: dict[Card, str], hands: dict[str, set[Card]], card: Card, player: str) -> Card | None:
    """A card of ``player``'s in ``deal`` (``hands``: the deal by player) that can swap places with
    ``card``: the deal with the two swapped fits too (same slots; the two players' requirements
    checked again). None when none can."""
    other = deal[card]
    for c in hands[player]:
        if other not in pos.allowed[c]:
            continue
        swapped = {player: hands[player] - {c} | {card}, other: hands[other] - {card} | {c}}
        if all(swapped[r.player] & r.cards for r in pos.at_least if r.player in swapped) and not any(
            r.cards <= swapped[r.player] for r in pos.not_all if r.player in swapped
        ):
            return c
    return None


def _branching(pos: Position) -> tuple[dict[Card, set[str]], dict[Card, str]]:
    candidates, witness = _relaxed(pos, pos.allowed)  # raises NoFit with a reason when the flow fails
    # A player no deal of the relaxed problem gives some card of the book never holds it all.
    binding = [r for r in pos.not_all if all(r.player in candidates[c] for c in r.cards)]
    if not binding:
        return {c: set(ps) for c, ps in candidates.items()}, witness
    pos = replace(pos, not_all=binding)
    first = _fitting_deal(pos, pos.allowed, None)
    if first is None:
        names = ", ".join(f"{r.player} ({r.book.name}, {r.label})" for r in pos.not_all)
        raise NoFit(
            f"every deal that fits the asks gives a whole book to a player who asked instead of claiming: {names}"
        )
    possible: dict[Card, set[str]] = {c: set() for c in pos.allowed}
    found: list[tuple[dict[Card, str], dict[str, set[Card]]]] = []

    def add(deal: dict[Card, str]) -> None:
        hands: dict[str, set[Card]] = {p: set() for p in pos.players}
        for c, p in deal.items():
            possible[c].add(p)
            hands[p].add(c)
        found.append((deal, hands))

    add(first)
    for c in pos.allowed:
        for p in sorted(candidates[c], key=pos.players.index):
            if p in possible[c]:
                continue
            # Most pairs come from a deal already found by swapping two cards; else a flow.
            for deal, hands in found:
                other = _swapped(pos, deal, hands, c, p)
                if other is not None:
                    possible[c].add(p)
                    possible[other].add(deal[c])
                    break
            else:
                fitting = _fitting_deal(pos, pos.allowed, (c, p))
                if fitting is not None:
                    add(fitting)
    return possible, first
