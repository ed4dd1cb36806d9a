"""Exact holders of every card in a view, by one flow and the components of its residual graph.

A deal of the never-shown cards fits a position exactly when it is a perfect assignment of
cards to *slot nodes*: each player ``p`` with an ``at least one of book B`` requirement owns one
slot reserved for a card of B, and ``slots[p] - (number of such books)`` general slots that take
any card ``p`` may hold. (Given a fitting deal, put one card of each required book in its
reserved slot and the rest in general slots; conversely every perfect assignment is a fitting
deal.) So feasibility is a bipartite b-matching, found by augmenting paths.

Which (card, player) pairs occur in *some* fitting deal follows from one perfect assignment: an
unused edge card -> slot can carry the card in another perfect assignment exactly when it lies on
a cycle of the residual graph, i.e. when the card and the slot are in the same strongly
connected component.

``not_all`` requirements (house ``must-declare``) do not fit a flow; when a position has any, the
solver branches on them (each branch forbids one card of the book to that player), which stays
exact.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Card
from .errors import Contradiction
from .knowledge import Position, Requirement

Slot = tuple[str, str]  # (player, book name) for a reserved slot, (player, "") for general ones


@dataclass
class Solution:
    """The holders of every card in play, and one fitting deal of the never-shown cards."""

    holders: dict[Card, tuple[str, ...]]
    witness: dict[Card, str]


class NoFit(Exception):
    """No deal fits the position; ``why`` says so in plain words."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class _Network:
    """The cards-to-slots bipartite graph of a position, with a current assignment."""

    def __init__(self, pos: Position, allowed: dict[Card, tuple[str, ...]]) -> None:
        self.pos = pos
        required: dict[str, list[Requirement]] = {p: [] for p in pos.players}
        for r in pos.at_least:
            required[r.player].append(r)
        self.capacity: dict[Slot, int] = {}
        for p in pos.players:
            if not allowed_any(allowed, p) and pos.slots[p] == 0 and not required[p]:
                continue
            general = pos.slots[p] - len(required[p])
            if general < 0:
                books = ", ".join(f"{r.book.name} (event {r.event})" for r in required[p])
                raise NoFit(
                    f"{p} must hold a card of each of {books}, but has only {pos.slots[p]} unseen "
                    f"card{'s' if pos.slots[p] != 1 else ''}"
                )
            self.capacity[(p, "")] = general
            for r in required[p]:
                self.capacity[(p, r.book.name)] = 1
        self.edges: dict[Card, list[Slot]] = {}
        for c, ps in allowed.items():
            book = pos.deck.book_of(c).name
            out: list[Slot] = []
            for p in ps:
                if (p, book) in self.capacity:
                    out.append((p, book))
                if self.capacity.get((p, ""), 0) > 0:
                    out.append((p, ""))
            self.edges[c] = out
        self.assigned: dict[Card, Slot] = {}
        self.members: dict[Slot, list[Card]] = {s: [] for s in self.capacity}

    def place(self, card: Card, slot: Slot) -> None:
        old = self.assigned.get(card)
        if old is not None:
            self.members[old].remove(card)
        self.assigned[card] = slot
        self.members[slot].append(card)

    def augment(self, start: Card) -> set[Card] | None:
        """Place ``start`` by an augmenting path; on failure return the cards it could reach."""
        parent: dict[Slot, Card] = {}
        came: dict[Card, Slot | None] = {start: None}
        queue = deque([start])
        while queue:
            card = queue.popleft()
            for slot in self.edges[card]:
                if slot in parent:
                    continue
                parent[slot] = card
                if len(self.members[slot]) < self.capacity[slot]:
                    # Walk back: each card on the path moves to the slot that follows it.
                    while True:
                        c = parent[slot]
                        prev = came[c]
                        self.place(c, slot)
                        if prev is None:
                            return None
                        slot = prev
                for other in self.members[slot]:
                    if other not in came:
                        came[other] = slot
                        queue.append(other)
        return set(came)

    def fill(self) -> None:
        for card in self.edges:
            if card in self.assigned:
                continue
            stuck = self.augment(card)
            if stuck is not None:
                raise NoFit(self.explain(stuck))

    def explain(self, cards: set[Card]) -> str:
        """A Hall violation in words: these cards can only go to players with too few free cards."""
        slots = {s for c in cards for s in self.edges[c]}
        room = sum(self.capacity[s] for s in slots)
        names = sorted({p for p, _ in slots}, key=self.pos.players.index)
        listed = " ".join(c.code for c in sorted(cards, key=self.pos.in_play.index))
        if not names:
            return f"nobody can hold {listed}"
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        reserved = [s for s in slots if s[1]]
        extra = f", {len(reserved)} of them owed to books they asked about" if reserved else ""
        return (
            f"{listed} can only be with {who}, who have room for only {room} such "
            f"card{'s' if room != 1 else ''} ({sum(self.pos.slots[p] for p in names)} unseen in all{extra})"
        )

    def holders(self) -> dict[Card, set[str]]:
        """Every player each card can be with: its own slot's, and any slot in its component."""
        succ: dict[object, list[object]] = {}
        for card, slots in self.edges.items():
            mine = self.assigned[card]
            succ.setdefault(mine, []).append(card)
            succ[card] = [s for s in slots if s != mine]
        component = strong_components(succ)
        result: dict[Card, set[str]] = {}
        for card, slots in self.edges.items():
            k = component[card]
            can = {self.assigned[card][0]}
            can.update(s[0] for s in slots if component[s] == k)
            result[card] = can
        return result


def strong_components(succ: dict[object, list[object]]) -> dict[object, int]:
    """Component number of every node (iterative Tarjan); nodes without successors may be absent.

    The residual graph is rebuilt for every view at every step, so this avoids building a
    general-purpose graph object each time; tests check it against networkx.
    """
    index: dict[object, int] = {}
    low: dict[object, int] = {}
    component: dict[object, int] = {}
    stack: list[object] = []
    on_stack: set[object] = set()
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


def allowed_any(allowed: dict[Card, tuple[str, ...]], player: str) -> bool:
    return any(player in ps for ps in allowed.values())


def solve(pos: Position) -> Solution:
    """Holders of every card in play in this position; raises NoFit when no deal fits."""
    if not pos.not_all:
        net = _network(pos, pos.allowed)
        possible = net.holders()
        witness = {c: s[0] for c, s in net.assigned.items()}
    else:
        possible, witness = _branching(pos)
    holders: dict[Card, tuple[str, ...]] = {}
    for c in pos.in_play:
        if c in pos.known:
            holders[c] = (pos.known[c],)
        else:
            holders[c] = tuple(p for p in pos.players if p in possible[c])
    return Solution(holders, witness)


def _network(pos: Position, allowed: dict[Card, tuple[str, ...]]) -> _Network:
    net = _Network(pos, allowed)
    net.fill()
    return net


def _violated(pos: Position, deal: dict[Card, str]) -> Requirement | None:
    for r in pos.not_all:
        if all(deal.get(c) == r.player for c in r.cards):
            return r
    return None


def _fitting_deal(pos: Position, allowed: dict[Card, tuple[str, ...]], force: tuple[Card, str] | None) -> dict[Card, str] | None:
    """One deal meeting every constraint, ``not_all`` included, or None; branches on not_all."""
    if force is not None:
        card, player = force
        if player not in allowed[card]:
            return None
        allowed = {**allowed, card: (player,)}
    try:
        net = _network(pos, allowed)
    except NoFit:
        return None
    deal = {c: s[0] for c, s in net.assigned.items()}
    broken = _violated(pos, deal)
    if broken is None:
        return deal
    for c in sorted(broken.cards, key=pos.in_play.index):
        narrowed = {**allowed, c: tuple(p for p in allowed[c] if p != broken.player)}
        if not narrowed[c]:
            continue
        found = _fitting_deal(pos, narrowed, None)
        if found is not None:
            return found
    return None


def _branching(pos: Position) -> tuple[dict[Card, set[str]], dict[Card, str]]:
    first = _fitting_deal(pos, pos.allowed, None)
    if first is None:
        relaxed = _network(pos, pos.allowed)  # raises NoFit with a reason when the flow fails
        del relaxed
        names = ", ".join(f"{r.player} ({r.book.name}, event {r.event})" for r in pos.not_all)
        raise NoFit(f"every deal that fits the asks gives a player a whole book they asked instead of claiming: {names}")
    possible: dict[Card, set[str]] = {c: set() for c in pos.allowed}
    candidates = _network(pos, pos.allowed).holders()
    for deal in _witnesses(pos, candidates, first):
        for c, p in deal.items():
            possible[c].add(p)
    return possible, first


def _witnesses(pos: Position, candidates: dict[Card, set[str]], first: dict[Card, str]) -> Iterable[dict[Card, str]]:
    seen = {(c, p) for c, p in first.items()}
    yield first
    for c in pos.allowed:
        for p in sorted(candidates[c], key=pos.players.index):
            if (c, p) in seen:
                continue
            deal = _fitting_deal(pos, pos.allowed, (c, p))
            if deal is not None:
                seen.update(deal.items())
                yield deal


def check(pos: Position) -> None:
    """Raise Contradiction-free NoFit when nothing fits; cheap feasibility test."""
    if pos.not_all:
        if _fitting_deal(pos, pos.allowed, None) is None:
            raise NoFit("no deal fits")
    else:
        _network(pos, pos.allowed)


def no_fit_error(pos: Position, why: str, line: int | None, path: str | None) -> Contradiction:
    return Contradiction(f"no deal fits after event {pos.at}: {why}", line=line, path=path, event=pos.at)
