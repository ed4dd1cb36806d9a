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

``not_all`` requirements (house ``must-declare``: the asker did not hold every never-shown
card of a book) are capacities too: the player holds at most all but one of those cards, so the
book's cards reach that player through a *gate* of that capacity, and the same flow and
components answer (``_through_gates``). A record gives one such set per player and book, so a
player's gates are disjoint; sets that overlap (only in a position made by hand) are branched
on, each branch forbidding the player one card of the set.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TypeVar

from .cards import Card
from .errors import Contradiction
from .knowledge import Position, Requirement
from .wording import all_of, either, plural

K = TypeVar("K", bound=Hashable)  # a class of cards in a flow
S = TypeVar("S", bound=Hashable)  # a slot of a flow
Slot = tuple[str, str]  # (player, book name) for a reserved slot, (player, "") for general ones
ClassKey = tuple[str, tuple[str, ...], tuple[str, ...]]  # (book name if it has reserved slots or gates, else "";
# allowed players; the players whose gate its cards go through)


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


def _flow_problem(
    pos: Position, allowed: dict[Card, tuple[str, ...]], gates: Mapping[Slot, frozenset[Card]] | None = None
) -> tuple[dict[ClassKey, list[Card]], tuple[tuple[ClassKey, int], ...], tuple[tuple[Slot, int], ...]]:
    """The classes of cards, their sizes and the slots' capacities.

    A class is the cards with the same allowed players and, where the book has a reserved slot
    or a gate for one of them, the same book; its key also names the players whose gate (a
    ``not_all`` requirement, see ``_gates``) its cards go through.
    """
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
    special: dict[str, set[str]] = {}  # book -> the players with a reserved slot or a gate for it
    for p, book in capacity:
        if book:
            special.setdefault(book, set()).add(p)
    gated: dict[str, dict[str, frozenset[Card]]] = {}  # book -> player -> the cards of the gate
    for (p, book), cards in (gates or {}).items():
        special.setdefault(book, set()).add(p)
        gated.setdefault(book, {})[p] = cards
    book_of = pos.deck.book_of
    groups: dict[ClassKey, list[Card]] = {}
    for c, ps in allowed.items():
        book = book_of(c).name
        who = special.get(book)
        if who is None or who.isdisjoint(ps):
            key: ClassKey = ("", ps, ())
        else:
            mine = gated.get(book)
            key = (book, ps, tuple(p for p in ps if p in mine and c in mine[p]) if mine else ())
        groups.setdefault(key, []).append(c)
    sizes = tuple(sorted((k, len(v)) for k, v in groups.items()))
    return groups, sizes, tuple(sorted(capacity.items()))


def _read_off(
    groups: Mapping[ClassKey, list[Card]], outcome: _Outcome
) -> tuple[dict[Card, tuple[str, ...]], dict[Card, str]]:
    """Possible players (in seat order) of every card of the classes, and the witness placement."""
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


@lru_cache(maxsize=4096)
def _solve_classes(
    sizes: tuple[tuple[ClassKey, int], ...],
    capacity: tuple[tuple[Slot, int], ...],
    gates: GateCaps = (),
    seats: tuple[str, ...] = (),
) -> _Outcome:
    """Place every class in slots (a maximum flow), then read off where else each class can go.

    With ``gates`` (house must-declare), the cards of a class reach a player named in the third
    part of its key through that player's gate for the book, a node that passes at most the
    gate's capacity on to the player's slots. Cached: consecutive steps often leave the hidden
    part of a view unchanged. ``seats``, the players in seat order, orders the names of a NoFit.
    """
    room = dict(capacity)
    load = dict.fromkeys(room, 0)
    size = dict(sizes)
    adj: dict[ClassKey, list[Slot]] = {}
    for key, _ in sizes:
        book, players, _ = key
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
                # Every class with cards in the slots reached: the slots are full, and these
                # classes can go nowhere else (a class's cards were all reached through).
                stuck = {key} | {k for q in reached for k in at_slot[q]}
                raise NoFit(_explain(stuck, set(reached), size, room, seats))
    if gates:
        gated = _through_gates(sizes, room, gates, flow)
        if gated is not None:
            return gated
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
        placement[key] = _per_player(flow[key].items())
    return _Outcome(possible, placement)


def _per_player(flow: Iterable[tuple[Node, int]]) -> tuple[tuple[str, int], ...]:
    """How many units of a class each player takes (every node's first part is its player)."""
    per: dict[str, int] = {}
    for q, n in flow:
        if n > 0:
            per[q[0]] = per.get(q[0], 0) + n
    return tuple(per.items())


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


def _explain(
    stuck: set[ClassKey], slots: set[Slot], size: dict[ClassKey, int], room: dict[Slot, int], seats: tuple[str, ...]
) -> str:
    """A Hall violation in words: these cards can only go to players with too little room (in
    seat order; when they are every player, the cards have too little room in all the hands).
    The room is the slots the cards may use: a player's place kept for a card owed to another
    book is not among them, and the sentence says so."""
    cards = sum(size[k] for k in stuck)
    space = sum(room[q] for q in slots)
    named = {p for key in stuck for p in key[1]}
    books = sorted({b.replace("-", " ") for _, b in slots if b})  # (places kept that these cards may fill)
    aside = sorted({b.replace("-", " ") for p, b in room if p in named and b and (p, b) not in slots})
    owed = f" (counting the cards they owe to the {all_of(books)})" if books else ""
    owed += f" once the cards they owe to the {all_of(aside)} are set aside" if aside else ""
    if seats and named >= set(seats):
        verb = "has" if cards == 1 else "have"
        return f"{plural(cards, 'unseen card')} {verb} room for only {space} in the players' hands{owed}"
    names = [p for p in seats if p in named] + sorted(named - set(seats))
    who = "who has" if len(names) == 1 else "who have"
    return f"{plural(cards, 'unseen card')} can only be with {either(names)}, {who} room for {space}{owed}"


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
    return _read_off(groups, _solve_classes(sizes, capacity, seats=pos.players))


def solve(pos: Position) -> Solution:
    """Holders of every card in play in this position; raises NoFit when no deal fits."""
    possible, witness = _possible(pos)
    known = pos.known
    holders = {c: (known[c],) if c in known else possible[c] for c in pos.in_play}
    return Solution(holders, witness, {c: possible[c] for c in pos.allowed})


def _possible(pos: Position) -> tuple[dict[Card, tuple[str, ...]], dict[Card, str]]:
    """Possible players (in seat order) of every never-shown card, and a witness deal."""
    gates, tangled = _gates(pos)
    if tangled is not None:
        return _branch(pos, tangled)
    if not gates:
        return _relaxed(pos, pos.allowed)
    groups, sizes, capacity = _flow_problem(pos, pos.allowed, gates)
    try:
        outcome = _solve_classes(
            sizes, capacity, tuple(sorted((g, len(cs) - 1) for g, cs in gates.items())), pos.players
        )
    except (NoFit, _Unfit):
        candidates, _ = _relaxed(pos, pos.allowed)  # raises NoFit with its reason when the asks alone fail
        raise _asked_instead_of_claiming(
            r
            for r in pos.not_all
            if (r.player, r.book.name) in gates and all(r.player in candidates.get(c, ()) for c in r.cards)
        ) from None
    return _read_off(groups, outcome)


def _asked_instead_of_claiming(blamed: Iterable[Requirement]) -> NoFit:
    """No deal fits the ``not_all`` requirements though one fits the asks: the requirements to blame."""
    names = ", ".join(f"{r.player} ({r.book.name}, {r.label})" for r in blamed)
    return NoFit(f"every deal that fits the asks gives a whole book to a player who asked instead of claiming: {names}")


def _gates(pos: Position) -> tuple[dict[Slot, frozenset[Card]], Requirement | None]:
    """The ``not_all`` requirements that bind, as gates: (player, book) -> the cards the player
    may not hold all of; second, a requirement to branch on, if any.

    A player who may not hold some card of the set never holds all of it; nor does one whose
    slots cannot take the set and a card of each other book the player must hold a card of. A
    record gives one set per player and book (the book's never-shown cards), so a player's sets
    are disjoint and each is a capacity of the flow; other sets are sorted out by
    ``_tangled_gates``.
    """
    if not pos.not_all:
        return {}, None
    allowed, slots, book_of = pos.allowed, pos.slots, pos.deck.book_of
    owed: dict[str, int] = {}
    owing: set[Slot] = set()
    for r in pos.at_least:
        owed[r.player] = owed.get(r.player, 0) + 1
        owing.add((r.player, r.book.name))
    gates: dict[Slot, frozenset[Card]] = {}
    for r in pos.not_all:
        cards, player = r.cards, r.player
        if cards and any(player not in allowed.get(c, ()) for c in cards):
            continue
        key = (player, r.book.name)
        if key in gates or any(book_of(c).name != key[1] for c in cards):
            return _tangled_gates(pos)
        if not cards or len(cards) <= slots[player] - owed.get(player, 0) + (key in owing):
            gates[key] = cards
    return gates, None


def _tangled_gates(pos: Position) -> tuple[dict[Slot, frozenset[Card]], Requirement | None]:
    """``_gates`` where a player has two sets in a book or a set beyond a book (only a position
    made by hand has them): a set holding another of the player's is implied by it; a set that
    overlaps another of its player's, or holds cards of two books, is returned to branch on."""
    mine: dict[str, dict[frozenset[Card], Requirement]] = {}
    for r in pos.not_all:
        cards = r.cards
        if cards and not (all(r.player in pos.allowed.get(c, ()) for c in cards) and len(cards) <= pos.slots[r.player]):
            continue
        mine.setdefault(r.player, {}).setdefault(cards, r)
    gates: dict[Slot, frozenset[Card]] = {}
    for player, sets in mine.items():
        least = [s for s in sets if not any(t < s for t in sets)]
        for s in least:
            r = sets[s]
            key = (player, r.book.name)
            if key in gates or not s <= frozenset(r.book.cards) or any(not s.isdisjoint(t) for t in least if t != s):
                return {}, r
            gates[key] = s
    return gates, None


def _branch(pos: Position, r: Requirement) -> tuple[dict[Card, tuple[str, ...]], dict[Card, str]]:
    """Every deal meeting ``r`` leaves some card of it to another player: the union over those cards."""
    others = [x for x in pos.not_all if x is not r]
    possible: dict[Card, tuple[str, ...]] = {}
    witness: dict[Card, str] | None = None
    for c in sorted(r.cards, key=pos.deck.cards.index):
        left = tuple(p for p in pos.allowed[c] if p != r.player)
        if not left:
            continue
        try:
            found, deal = _possible(replace(pos, allowed={**pos.allowed, c: left}, not_all=others))
        except NoFit:
            continue
        witness = witness or deal
        for card, ps in found.items():
            possible[card] = tuple(p for p in pos.players if p in ps or p in possible.get(card, ()))
    if witness is None:
        _relaxed(pos, pos.allowed)  # raises NoFit with its reason when the asks alone fail
        raise _asked_instead_of_claiming((r,))
    return possible, witness


class _Unfit(Exception):
    """No flow places every card through the gates (the caller says why)."""


# A node of the flow through gates: a slot (player, book or ""), or a gate's two ends
# (player, book, "in" or "out"); a node's first part is always its player.
Node = tuple[str, ...]
GateCaps = tuple[tuple[Slot, int], ...]  # (player, book) -> the most of the gate's cards the player may hold


def _through_gates(
    sizes: tuple[tuple[ClassKey, int], ...],
    room: dict[Slot, int],
    gates: GateCaps,
    placed: dict[ClassKey, dict[Slot, int]],
) -> _Outcome | None:
    """``_solve_classes`` with gates, given a placement in slots that ignores them; None when the
    gates change nothing, so that the answer without them stands.

    A simple cycle of the residual graph visits a player's general slot at most once, so moving
    one unit around it adds at most one card of a book to the player (a reserved slot of the
    book takes one of its cards for another). So from a placement that meets every gate, the
    gates that can stop a cycle are the *tight* ones, whose player already holds as many of its
    cards as it passes; with none, the gates change nothing. Otherwise the units are routed
    through the tight gates (or, where the placement breaks a gate, which is rare, a maximum flow
    through all of them is found afresh), and which players a class can reach follows as without
    gates, from the strongly connected components of the residual graph over slots and gates:
    every maximum flow fills every slot, so two of them differ by cycles that avoid the source
    and the sink.
    """
    cap = dict(gates)
    if any(most < 0 for most in cap.values()):
        raise _Unfit  # a player would hold every card of an empty set
    passed = dict.fromkeys(cap, 0)
    for key, _ in sizes:
        book, _, gated = key
        if gated:
            for slot, n in placed[key].items():
                if slot[0] in gated:
                    passed[(slot[0], book)] += n
    broken = any(passed[g] > most for g, most in cap.items())
    if not broken:
        cap = {g: most for g, most in cap.items() if passed[g] == most}
        if not cap:
            return None
    targets: dict[ClassKey, list[Node]] = {}
    for key, _ in sizes:
        book, players, gated = key
        found: list[Node] = []
        for p in players:
            if p in gated and (p, book) in cap:
                found.append((p, book, "in"))
            else:
                found += [q for q in (((p, book), (p, "")) if book else ((p, ""),)) if q in room]
        targets[key] = found
    if broken:
        flow, through = _gate_flow(sizes, room, cap, targets)
    else:
        flow = {key: {} for key, _ in sizes}
        through = {}
        for key, _ in sizes:
            book, _, gated = key
            for slot, n in placed[key].items():
                gate = (slot[0], book)
                if n and slot[0] in gated and gate in cap:
                    flow[key][(*gate, "in")] = flow[key].get((*gate, "in"), 0) + n
                    through[(gate, slot)] = through.get((gate, slot), 0) + n
                elif n:
                    flow[key][slot] = n
    passed = dict.fromkeys(cap, 0)
    for (gate, _), n in through.items():
        passed[gate] += n
    succ: dict[Hashable, list[Hashable]] = {}
    for key, m in sizes:
        used = [q for q, n in flow[key].items() if n > 0]
        spare = [q for q in targets[key] if flow[key].get(q, 0) < m]
        for q in used:
            succ.setdefault(q, []).extend(q2 for q2 in spare if q2 != q)
    for gate, most in cap.items():
        inner, outer = (*gate, "in"), (*gate, "out")
        if passed[gate] < most:
            succ.setdefault(inner, []).append(outer)
        if passed[gate] > 0:
            succ.setdefault(outer, []).append(inner)
        for slot in (gate, (gate[0], "")):
            if slot in room:
                n = through.get((gate, slot), 0)
                if n < most:
                    succ.setdefault(outer, []).append(slot)
                if n > 0:
                    succ.setdefault(slot, []).append(outer)
    component = strong_components(succ)
    possible: dict[ClassKey, frozenset[str]] = {}
    placement: dict[ClassKey, tuple[tuple[str, int], ...]] = {}
    for key, _ in sizes:
        used = [q for q, n in flow[key].items() if n > 0]
        mine = {component[q] for q in used if q in component}
        can = {q[0] for q in used}
        can.update(q[0] for q in targets[key] if component.get(q, -1) in mine)
        possible[key] = frozenset(can)
        placement[key] = _per_player(flow[key].items())
    return _Outcome(possible, placement)


def _gate_flow(
    sizes: tuple[tuple[ClassKey, int], ...],
    room: dict[Slot, int],
    cap: dict[Slot, int],
    targets: dict[ClassKey, list[Node]],
) -> tuple[dict[ClassKey, dict[Node, int]], dict[tuple[Slot, Slot], int]]:
    """A maximum flow through the gates, from scratch: each class's units per target, and what
    each gate passes to each slot. Raises _Unfit when it cannot place every card."""
    graph = _Graph()
    source, sink = graph.node(("source",)), graph.node(("sink",))
    for slot, n in room.items():
        graph.edge(graph.node(slot), sink, n)
    outs: dict[tuple[Slot, Slot], int] = {}
    for gate, most in cap.items():
        outer = graph.node((*gate, "out"))
        graph.edge(graph.node((*gate, "in")), outer, most)
        for slot in (gate, (gate[0], "")):
            if slot in room:
                outs[(gate, slot)] = graph.edge(outer, graph.index[slot], most)
    edges: dict[ClassKey, list[tuple[Node, int]]] = {}
    for key, m in sizes:
        k = graph.node(key)
        graph.edge(source, k, m)
        edges[key] = [(q, graph.edge(k, graph.index[q], m)) for q in targets[key]]
    if graph.max_flow(source, sink) < sum(m for _, m in sizes):
        raise _Unfit
    flow = {key: {q: graph.res[e ^ 1] for q, e in found if graph.res[e ^ 1]} for key, found in edges.items()}
    return flow, {pair: graph.res[e ^ 1] for pair, e in outs.items()}


class _Graph:
    """A small flow network: nodes by name, edges in pairs (``e`` and its reverse ``e ^ 1``),
    ``res`` the residual capacity of each."""

    def __init__(self) -> None:
        self.index: dict[Hashable, int] = {}
        self.out: list[list[int]] = []
        self.to: list[int] = []
        self.res: list[int] = []

    def node(self, name: Hashable) -> int:
        k = self.index.get(name)
        if k is None:
            k = self.index[name] = len(self.out)
            self.out.append([])
        return k

    def edge(self, u: int, v: int, cap: int) -> int:
        e = len(self.to)
        self.to += (v, u)
        self.res += (cap, 0)
        self.out[u].append(e)
        self.out[v].append(e + 1)
        return e

    def max_flow(self, source: int, sink: int) -> int:
        """Dinic's algorithm: shortest augmenting paths, a blocking flow per level graph."""
        to, res, out = self.to, self.res, self.out
        total = 0
        while True:
            level = [-1] * len(out)
            level[source] = 0
            queue = [source]
            for u in queue:
                for e in out[u]:
                    v = to[e]
                    if res[e] > 0 and level[v] < 0:
                        level[v] = level[u] + 1
                        queue.append(v)
            if level[sink] < 0:
                return total
            tried = [0] * len(out)
            while pushed := self._push(source, sink, 1 << 30, level, tried):
                total += pushed

    def _push(self, u: int, sink: int, most: int, level: list[int], tried: list[int]) -> int:
        """Push up to ``most`` along one path of the level graph from ``u``; edges found dead are skipped."""
        if u == sink:
            return most
        to, res = self.to, self.res
        edges = self.out[u]
        while tried[u] < len(edges):
            e = edges[tried[u]]
            v = to[e]
            if res[e] > 0 and level[v] == level[u] + 1:
                got = self._push(v, sink, min(most, res[e]), level, tried)
                if got:
                    res[e] -= got
                    res[e ^ 1] += got
                    return got
            tried[u] += 1
        return 0
