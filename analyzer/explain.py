"""Explanations: every deduction with its receipts (``../shared/spec/explain.md``).

The frame is *what is true now*: the cards in play after event ``at``, in one view, each held by
exactly one player. Statements (``Statement``) say that a player holds or lacks a card, holds at
least one of a set, does not hold all of a set (house ``must-declare``), or holds ``k`` cards.

- ``Fact``: a statement read from one source (an event, the view's hand, the public counts).
- ``Step``: one statement concluded from earlier facts and steps by one named rule:
  ``elsewhere``, ``last-holder``, ``one-left``, ``full-hand``, ``needs-all``, ``counting`` and,
  for ``must-declare`` only, ``not-all`` (holds-not-all(P, S) and P holds every card of S but C
  => P lacks C, the mirror of ``one-left``; or holds-not-all(P, S) and only P and Q may hold
  the cards of S => holds-one-of(Q, S)). ``needs-all`` counts the sets a player cannot hold
  whole (its own "not all", another's "one of"): one card short of each. Counting steps carry
  ``Counting`` (side, cards, players, room per player).
- ``Explanation``: a conclusion, the facts it needs (no fact can be left out) and the steps, as
  data (``to_dict`` is the spec's JSON) and as numbered sentences (``text``).

Use ``Explainer(tracker, at)`` (raises Contradiction/NoFit as ``tracker.position``/``solve`` do):
``card(c)`` explains every player the exact solver places (``holds``) or rules out (``lacks``)
for ``c``, none for a possible holder; ``explain(holds(p, c))`` / ``explain(lacks(p, c))``
explains one statement (``Unexplained`` when it does not follow); ``witness(c, p)`` is one
fitting deal (every card in play) with ``c`` at ``p``. ``explain_contradiction(tracker, at)``
gives facts that cannot all hold (``Explanation.conclusion`` None); ``analysis.unfit_error``
puts it on the error (``Contradiction.explanation``). Event numbers are as written in the
record (``Game.numbers``).

How chains are found: the simple rules run forward to a fixpoint; when they stall, a flow over
the cards still open (as in ``solver``: one slot per player and required book) finds every
holder the counting rules out, and each such deduction gets the smallest *tight set* the flow's
residual graph allows: cards ``S`` that only players ``T`` may hold, with ``T``'s room exactly
``|S|`` (or the dual: ``T`` must still take as many cards as the set ``S`` of cards they may take
has). Then the facts cited are cut down until each one is needed, which an exact check over the
cited facts alone decides (the same flow, branching on ``holds-not-all`` as the solver does).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from .cards import Card
from .knowledge import Position, ViewTracker
from .record import Ask, Record
from .solver import NoFit, Solution, augment, solve, strong_components
from .wording import all_of, either, plural

HOLDS, LACKS, ONE_OF, NOT_ALL, COUNT = "holds", "lacks", "holds-one-of", "holds-not-all", "count"
RULES = ("elsewhere", "last-holder", "one-left", "full-hand", "needs-all", "counting", "not-all")


# ---------------------------------------------------------------- data


@dataclass(frozen=True)
class Statement:
    """One statement about the cards in play now.

    ``kind`` is ``holds``/``lacks`` (``card``), ``holds-one-of``/``holds-not-all`` (``cards``,
    in deck order) or ``count`` (``k``).
    """

    kind: str
    player: str
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    k: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.card is not None:
            d["card"] = self.card.code
        if self.kind in (ONE_OF, NOT_ALL):
            d["cards"] = [c.code for c in self.cards]
        if self.k is not None:
            d["k"] = self.k
        return d

    @property
    def words(self) -> str:
        p = self.player
        if self.kind == HOLDS:
            return f"{p} holds {_c(self.card)}"
        if self.kind == LACKS:
            return f"{p} lacks {_c(self.card)}"
        if self.kind == ONE_OF:
            return f"{p} holds {_or(self.cards)}"
        if self.kind == NOT_ALL:
            return f"{p} does not hold all of {_cards(self.cards)}"
        return f"{p} holds {plural(self.k or 0, 'card')}"


# The chains ask for the same few hundred statements again and again, mostly to look them up:
# made once, a lookup finds the very object and skips the dataclass's field-by-field equality.
@functools.lru_cache(maxsize=4096)
def holds(player: str, card: Card) -> Statement:
    return Statement(HOLDS, player, card)


@functools.lru_cache(maxsize=4096)
def lacks(player: str, card: Card) -> Statement:
    return Statement(LACKS, player, card)


@dataclass(frozen=True)
class Source:
    """Where a fact was read: ``how`` is ``no``, ``asked``, ``got``, ``ask-book``, ``declare``
    (an event, with its number as written and its line), ``hand`` or ``count``."""

    how: str
    event: int | None = None  # as written in the record
    line: int | None = None
    asked: Card | None = None  # the card asked for, for ask facts
    other: str | None = None  # the other player of the event
    book: str | None = None

    def to_dict(self) -> dict[str, Any] | str:
        if self.event is None:
            return self.how
        return {"event": self.event, "line": self.line}


@dataclass(frozen=True)
class Fact:
    """A statement read from the record, named ``id`` for the steps that use it."""

    id: str
    statement: Statement
    source: Source

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, **self.statement.to_dict(), "source": self.source.to_dict()}


@dataclass(frozen=True)
class Counting:
    """The numbers of a ``counting`` step.

    ``side`` ``only`` reads: only ``players`` may hold ``cards``, and their room (per player,
    after their known cards and the sets set aside) adds up to exactly ``len(cards)``.
    ``side`` ``needs`` reads: ``players`` must still take ``room`` cards between them and may
    take only ``cards``, which are exactly that many. ``side`` ``share`` reads: of ``cards``, the
    first player holds all but one (its hand is full but for one card of each of some sets) and
    the second at least one (``room``), so all of them are theirs.
    """

    side: str
    cards: tuple[Card, ...]
    players: tuple[str, ...]
    room: tuple[tuple[str, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "cards": [c.code for c in self.cards],
            "players": list(self.players),
            "room": dict(self.room),
        }


@dataclass(frozen=True)
class Step:
    """A statement that follows by ``rule`` from its ``premises`` (ids of facts and steps)."""

    id: str
    rule: str
    premises: tuple[str, ...]
    conclusion: Statement
    counting: Counting | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "rule": self.rule,
            "from": list(self.premises),
            "conclusion": self.conclusion.to_dict(),
        }
        if self.counting is not None:
            d.update(self.counting.to_dict())
        return d


@dataclass(frozen=True)
class Explanation:
    """A conclusion (None for a contradiction), the facts it needs, the steps, and the sentences."""

    conclusion: Statement | None
    facts: tuple[Fact, ...]
    steps: tuple[Step, ...]
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "conclusion": None if self.conclusion is None else self.conclusion.to_dict(),
            "facts": [f.to_dict() for f in self.facts],
            "steps": [s.to_dict() for s in self.steps],
            "text": self.text,
        }


class _Invalid(Exception):
    """A tight set that takes in a player whose hand size is not among the facts."""


class Unexplained(Exception):
    """The rules found no chain for a statement (it does not follow, or the rules fell short)."""


# ---------------------------------------------------------------- reading the facts


def read_facts(tracker: ViewTracker, pos: Position) -> list[Fact]:
    """Every fact of one view after ``pos.at`` events, in a fixed order."""
    record = tracker.record
    game = tracker.game
    events = game.events  # (listed once: ``record.events`` lists them again at each call)
    at = pos.at
    bluffing = record.rules.bluffing
    found: list[tuple[Statement, Source]] = []

    numbers = game.numbers

    def src(i: int, how: str, **kw: Any) -> Source:
        return Source(how, numbers[i - 1], events[i - 1].line, **kw)

    for c in pos.in_play:
        if c in pos.known:
            p = pos.known[c]
            moves = [(e, to) for e, to in tracker.history[c].moves if e <= at]
            if moves:
                e = moves[-1][0]
                ev = events[e - 1]
                other = ev.target if isinstance(ev, Ask) else None
                found.append((holds(p, c), src(e, "got", other=other)))
            else:
                found.append((holds(p, c), Source("hand")))
            continue
        for p, e in pos.ruled_out.get(c, {}).items():
            if e == 0:
                found.append((lacks(p, c), Source("hand")))
                continue
            ev = events[e - 1]
            assert isinstance(ev, Ask)
            if ev.target == p and not ev.yes:
                found.append((lacks(p, c), src(e, "no", other=ev.asker)))
            else:
                found.append((lacks(p, c), src(e, "asked", other=ev.target)))
    order = {c: i for i, c in enumerate(pos.deck.cards)}
    in_play = set(pos.in_play)
    for r in pos.at_least:
        if not r.cards <= in_play:
            continue  # a card of it left play unseen (a wrong claim without its split): nothing follows for now
        ev = events[r.event - 1]
        asked = ev.card if isinstance(ev, Ask) else None
        # Every card of the book never shown (``r.cards`` and, in a player's view, the player's
        # own, which the ask alone does not rule out: the hand's facts do).
        unshown = [c for c in r.book.cards if c in in_play and not game.history[c].shown_by(at)]
        cards = tuple(sorted((c for c in unshown if bluffing or c != asked), key=order.__getitem__))
        found.append(
            (Statement(ONE_OF, r.player, cards=cards), src(r.event, "ask-book", asked=asked, book=r.book.name))
        )
    for r in pos.not_all:
        cards = tuple(sorted(r.cards, key=order.__getitem__))
        found.append((Statement(NOT_ALL, r.player, cards=cards), src(r.event, "declare", book=r.book.name)))
    step = game.step(at)
    for p in pos.players:
        if p not in step.unsure:  # else only a bound: a wrong claim without its split took an unknown number
            found.append((Statement(COUNT, p, k=step.counts[p]), Source("count")))
    return [Fact(f"f{i}", s, so) for i, (s, so) in enumerate(found, start=1)]


# ---------------------------------------------------------------- the exact check over some facts


@dataclass
class _Net:
    """Who may hold each open card, each player's room, the required sets: one flow problem."""

    players: tuple[str, ...]
    poss: dict[Card, tuple[str, ...]]  # open cards (two or more possible players)
    room: dict[str, int | None]  # None: no count known (any number)
    reqs: list[tuple[str, frozenset[Card]]]  # unsatisfied holds-one-of: (player, cards)

    def solve(self, graph: bool = True) -> _Flow | None:
        """A maximum flow, or None when no deal fits; without ``graph`` its residual graph
        (``succ``, for ``dead`` and the tight sets) is left out: the flow alone says whether a deal fits."""
        return _Flow.build(self, graph)


_Slot = tuple[str, int]  # (player, -1 for the general slot | index of a required set)


class _Flow:
    """A maximum flow of the open cards (grouped in classes) into the players' slots."""

    slots: list[tuple[str, int]]  # (player, -1 general | index of a required set)
    cap: dict[tuple[str, int], int]
    unbounded: set[tuple[str, int]]
    classes: dict[Hashable, list[Card]]
    adj: dict[Hashable, list[tuple[str, int]]]
    flow: dict[Hashable, dict[tuple[str, int], int]]
    succ: dict[_Slot, list[_Slot]]

    @classmethod
    def build(cls, net: _Net, graph: bool = True) -> _Flow | None:
        self = cls()
        n_open = len(net.poss)
        required: dict[str, list[int]] = {p: [] for p in net.players}
        for i, (p, _) in enumerate(net.reqs):
            required[p].append(i)
        cap: dict[tuple[str, int], int] = {}
        unbounded: set[tuple[str, int]] = set()
        for p in net.players:
            r = net.room[p]
            general = (n_open if r is None else r) - len(required[p])
            if general < 0:
                return None
            if general:
                cap[(p, -1)] = general
                if r is None:  # (with no room beyond its required sets, a player takes just those)
                    unbounded.add((p, -1))
            for i in required[p]:
                cap[(p, i)] = 1
        classes: dict[Hashable, list[Card]] = {}
        reqs = net.reqs
        for c, ps in net.poss.items():
            if not ps:
                return None
            rs = tuple(i for i, (p, cards) in enumerate(reqs) if c in cards and p in ps) if reqs else ()
            classes.setdefault((ps, rs), []).append(c)
        adj: dict[Hashable, list[tuple[str, int]]] = {}
        size: dict[Hashable, int] = {}
        for key, cards in classes.items():
            ps, rs = key  # type: ignore[misc]
            adj[key] = [(p, -1) for p in ps if (p, -1) in cap] + [(net.reqs[i][0], i) for i in rs]
            size[key] = len(cards)
        total = sum(cap.values())
        filler = total - n_open
        if filler < 0 or (filler > 0 and not unbounded):
            return None
        if filler:
            adj["filler"] = sorted(unbounded)
            size["filler"] = filler
        load = dict.fromkeys(cap, 0)
        flow: dict[Hashable, dict[tuple[str, int], int]] = {k: {} for k in adj}
        at_slot: dict[tuple[str, int], set[Hashable]] = {q: set() for q in cap}
        for key in sorted(adj, key=lambda k: len(adj[k])):
            m = size[key]
            for q in adj[key]:
                put = min(m, cap[q] - load[q])
                if put > 0:
                    flow[key][q] = put
                    at_slot[q].add(key)
                    load[q] += put
                    m -= put
            while m > 0:
                if augment(key, adj, flow, at_slot, cap, load) is not None:
                    return None
                m -= 1
        self.slots = list(cap)
        self.cap = cap
        self.unbounded = unbounded
        self.classes = classes
        self.adj = adj
        self.flow = flow
        if graph:
            succ: dict[_Slot, list[_Slot]] = {q: [] for q in cap}
            for key in adj:
                used = [q for q, n in flow[key].items() if n > 0]
                for q in used:
                    succ[q].extend(q2 for q2 in adj[key] if q2 != q)
            self.succ = succ
        return self

    def witness(self) -> dict[Card, str]:
        deal: dict[Card, str] = {}
        for key, cards in self.classes.items():
            i = 0
            for (p, _), n in self.flow[key].items():
                for c in cards[i : i + n]:
                    deal[c] = p
                i += n
        return deal

    def dead(self) -> list[tuple[Hashable, str]]:
        """(class, player) pairs the class may not reach in any maximum flow (the player lacks its cards)."""
        component = strong_components(cast(dict[Hashable, list[Hashable]], self.succ))
        found = []
        for key in self.classes:
            used = [q for q, n in self.flow[key].items() if n > 0]
            mine = {component.get(q, -1 - i) for i, q in enumerate(used)}
            alive = {q[0] for q in used} | {q[0] for q in self.adj[key] if component.get(q) in mine}
            players = key[0] if isinstance(key, tuple) else ()
            for p in players:
                if p not in alive:
                    found.append((key, p))
        return found

    def reach(self, start: Iterable[_Slot], succ: dict[_Slot, list[_Slot]]) -> set[_Slot]:
        seen = set(start)
        todo = list(seen)
        while todo:
            q = todo.pop()
            for q2 in succ.get(q, ()):
                if q2 not in seen:
                    seen.add(q2)
                    todo.append(q2)
        return seen

    def units_in(self, slots: set[_Slot]) -> list[Card]:
        return [
            c
            for key, cards in self.classes.items()
            if any(n and q in slots for q, n in self.flow[key].items())
            for c in cards
        ]


def _fits(
    players: tuple[str, ...],
    cards: Sequence[Card],
    statements: Iterable[Statement],
) -> dict[Card, str] | None:
    """One deal of ``cards`` meeting every statement (each card with exactly one player), or None."""
    poss: dict[Card, set[str]] = {c: set(players) for c in cards}
    count: dict[str, int | None] = dict.fromkeys(players)
    one_of: list[tuple[str, frozenset[Card]]] = []
    not_all: list[tuple[str, frozenset[Card]]] = []
    for s in statements:
        if s.kind == HOLDS:
            assert s.card is not None
            poss[s.card] &= {s.player}
        elif s.kind == LACKS:
            poss[s.card].discard(s.player)  # type: ignore[index]
        elif s.kind == COUNT:
            if count[s.player] is not None and count[s.player] != s.k:
                return None
            count[s.player] = s.k
        elif s.kind == ONE_OF:
            one_of.append((s.player, frozenset(s.cards)))
        else:
            not_all.append((s.player, frozenset(s.cards)))
    return _branch(players, poss, count, one_of, not_all)


def _branch(
    players: tuple[str, ...],
    poss: dict[Card, set[str]],
    count: dict[str, int | None],
    one_of: list[tuple[str, frozenset[Card]]],
    not_all: list[tuple[str, frozenset[Card]]],
) -> dict[Card, str] | None:
    fixed: dict[Card, str] = {}
    open_: dict[Card, tuple[str, ...]] = {}
    placed = dict.fromkeys(players, 0)  # cards fixed to each player
    for c, ps in poss.items():
        if not ps:
            return None
        if len(ps) == 1:
            (q,) = ps
            fixed[c] = q
            placed[q] += 1
        else:
            open_[c] = tuple(p for p in players if p in ps)
    room: dict[str, int | None] = {}
    for p in players:
        k = count[p]
        if k is None:
            room[p] = None
        elif k < placed[p]:
            return None
        else:
            room[p] = k - placed[p]
    reqs = []
    for p, cards in one_of:
        if any(fixed.get(c) == p for c in cards):
            continue
        if not any(p in poss[c] for c in cards if c in open_):
            return None
        reqs.append((p, cards))
    flow = _Net(players, open_, room, reqs).solve(graph=False)
    if flow is None:
        return None
    deal = {**fixed, **flow.witness()}
    for p, cards in not_all:
        if all(deal.get(c) == p for c in cards):
            for c in sorted(cards, key=lambda x: (x.suit, x.rank)):
                if p in poss[c] and len(poss[c]) > 1:
                    narrowed = {**poss, c: poss[c] - {p}}
                    found = _branch(players, narrowed, count, one_of, not_all)
                    if found is not None:
                        return found
            return None
    return deal


def _negation(s: Statement) -> Statement:
    assert s.card is not None
    return lacks(s.player, s.card) if s.kind == HOLDS else holds(s.player, s.card)


def implied(players: tuple[str, ...], cards: Sequence[Card], facts: Iterable[Statement], conclusion: Statement) -> bool:
    """Whether the statements alone imply a holds/lacks conclusion (no deal meets them and its negation)."""
    return _fits(players, cards, [*facts, _negation(conclusion)]) is None


# ---------------------------------------------------------------- chaining


@dataclass
class _Chain:
    """Forward chaining over a set of facts: every statement proved, with the fact or step proving it."""

    players: tuple[str, ...]
    cards: tuple[Card, ...]
    facts: list[Fact]
    proof: dict[Statement, str] = field(default_factory=dict)
    steps: dict[str, Step] = field(default_factory=dict)
    broken: list[str] = field(default_factory=list)  # premises of a clash, when the facts clash

    def __post_init__(self) -> None:
        self.poss: dict[Card, set[str]] = {c: set(self.players) for c in self.cards}
        self.held: dict[str, set[Card]] = {p: set() for p in self.players}
        self.count: dict[str, tuple[int, str]] = {}
        self.one_of: list[tuple[str, frozenset[Card], tuple[Card, ...], str]] = []
        self.not_all: list[tuple[str, frozenset[Card], tuple[Card, ...], str]] = []
        self.fact_by_id = {f.id: f for f in self.facts}
        for f in self.facts:
            s = f.statement
            if s.kind in (HOLDS, LACKS):
                self._prove(s, f.id)
            elif s.kind == COUNT:
                assert s.k is not None
                self.count[s.player] = (s.k, f.id)
            elif s.kind == ONE_OF:
                self.one_of.append((s.player, frozenset(s.cards), s.cards, f.id))
            else:
                self.not_all.append((s.player, frozenset(s.cards), s.cards, f.id))

    def _prove(self, s: Statement, by: str) -> bool:
        if s in self.proof:
            return False
        c = s.card
        assert c is not None
        self.proof[s] = by
        if s.kind == HOLDS:
            self.held[s.player].add(c)
            if s.player not in self.poss[c]:
                self.broken = [by, self.proof[lacks(s.player, c)]]
        else:
            self.poss[c].discard(s.player)
            if c in self.held[s.player]:
                self.broken = [by, self.proof[holds(s.player, c)]]
        return True

    def _step(
        self, rule: str, premises: Iterable[str], conclusion: Statement, counting: Counting | None = None
    ) -> bool:
        if conclusion in self.proof:
            return False
        sid = f"s{len(self.steps) + 1}"
        self.steps[sid] = Step(sid, rule, tuple(dict.fromkeys(premises)), conclusion, counting)
        return self._prove(conclusion, sid)

    def run(self, goal: Statement | None = None, counting: bool = True) -> None:
        """Apply the rules until nothing new follows (or ``goal`` is proved): the simple rules,
        then where they stall the counting rules, then where those stall too the hands short of
        sets they cannot hold whole (``_sets_round``), so that a deduction the others reach keeps
        their shorter chain."""
        while not self.broken:
            if goal is not None and goal in self.proof:
                return
            if self._simple_round():
                continue
            if counting and self._counting_round(goal):
                continue
            if (goal is not None and goal in self.proof) or not self._sets_round():
                return

    def _sets_round(self) -> bool:
        changed = False
        for p, (k, fid) in self.count.items():
            mine, may = self._hand(p)
            if may and len(mine) + len(may) > k:
                changed |= self._needs_all_but(p, k, fid, mine, may)
        return changed

    def _simple_round(self) -> bool:
        changed = False
        proof = self.proof
        players = self.players
        for c in self.cards:
            ps = self.poss[c]
            if not ps:
                self.broken = [proof[x] for x in (lacks(p, c) for p in players) if x in proof]
                return False
            for q in list(ps):
                h = holds(q, c)
                if h in proof:
                    for p in players:
                        if p != q:
                            changed |= self._step("elsewhere", [proof[h]], lacks(p, c))
            if len(ps) == 1:
                (q,) = ps
                if holds(q, c) not in proof:
                    changed |= self._step("last-holder", [proof[lacks(p, c)] for p in players if p != q], holds(q, c))
        for p, cards, ordered, fid in self.one_of:
            if any(c in self.held[p] for c in cards):
                continue
            left = [c for c in ordered if p in self.poss[c]]
            if not left:
                self.broken = [fid, *(proof[lacks(p, c)] for c in ordered)]
                return False
            if len(left) == 1:
                prem = [fid, *(proof[lacks(p, c)] for c in ordered if c != left[0])]
                changed |= self._step("one-left", prem, holds(p, left[0]))
        for p, _, ordered, fid in self.not_all:
            changed |= self._someone_else(p, ordered, fid)
            missing = [c for c in ordered if c not in self.held[p]]
            if not missing:
                self.broken = [fid, *(proof[holds(p, c)] for c in ordered)]
                return False
            if len(missing) == 1 and p in self.poss[missing[0]]:
                prem = [fid, *(proof[holds(p, c)] for c in ordered if c != missing[0])]
                changed |= self._step("not-all", prem, lacks(p, missing[0]))
        for p, (k, fid) in self.count.items():
            mine, may = self._hand(p)
            if len(mine) > k:
                self.broken = [fid, *(proof[holds(p, c)] for c in mine)]
                return False
            if len(mine) == k and may:
                prem = [fid, *(proof[holds(p, c)] for c in mine)]
                for c in may:
                    changed |= self._step("full-hand", prem, lacks(p, c))
            elif len(mine) + len(may) == k and may:
                prem = self._confined(p, fid, mine)
                for c in may:
                    changed |= self._step("needs-all", prem, holds(p, c))
            elif len(mine) + len(may) < k:
                self.broken = self._confined(p, fid, mine)
                return False
        return changed

    def _hand(self, p: str) -> tuple[list[Card], list[Card]]:
        """The cards P is known to hold, and the others P may hold."""
        mine = [c for c in self.cards if c in self.held[p]]
        return mine, [c for c in self.cards if p in self.poss[c] and c not in self.held[p]]

    def _confined(self, p: str, fid: str, mine: list[Card]) -> list[str]:
        """What says P's hand is among the cards ``_hand`` gives: its count (fact ``fid``), the
        cards P holds, and every card P lacks."""
        return [
            fid,
            *(self.proof[holds(p, c)] for c in mine),
            *(self.proof[lacks(p, c)] for c in self.cards if p not in self.poss[c]),
        ]

    def _needs_all_but(self, p: str, k: int, fid: str, mine: list[Card], may: list[Card]) -> bool:
        """``needs-all`` with sets P cannot hold whole: P may hold only the cards ``mine`` and
        ``may``, one more than its k for each of some sets of them, apart, each of which P does
        not hold all of (must-declare) or another player Q holds one of. P's hand leaves out one
        card of each set at least, so exactly one, and holds every card outside them. (Anna holds
        6 cards, may hold only 7, and not both 10♥ and A♥: she holds the other 5.) And a set Q holds
        one of is all P's and Q's (``counting``, side ``share``): P holds all of it but one, Q the
        one left."""
        open_ = set(mine) | set(may)
        whole: list[tuple[frozenset[Card], str, str | None]] = [
            (cards, nid, None) for q, cards, _, nid in self.not_all if q == p
        ]
        whole += [(cards, nid, q) for q, cards, _, nid in self.one_of if q != p]
        sets: list[tuple[frozenset[Card], str, str | None]] = []
        for cards, nid, q in sorted(whole, key=lambda x: len(x[0])):  # (the smallest first: the most apart)
            if cards <= open_ and all(cards.isdisjoint(s) for s, _, _ in sets):
                sets.append((cards, nid, q))
        if not sets or len(open_) - len(sets) != k:
            return False
        within = frozenset().union(*(s for s, _, _ in sets))
        first, *rest = self._confined(p, fid, mine)
        prem = [first, *(nid for _, nid, _ in sets), *rest]
        changed = False
        for c in may:
            if c not in within:
                changed |= self._step("needs-all", prem, holds(p, c))
        for cards, _, q in sets:
            if q is None:
                continue
            team = (p, q)  # (the hand counted first)
            counting = Counting("share", _deck_order(cards, self.cards), team, ((p, len(cards) - 1), (q, 1)))
            for c in counting.cards:
                for x in self.players:
                    if x not in team and x in self.poss[c]:
                        changed |= self._step("counting", prem, lacks(x, c), counting)
        return changed

    def _someone_else(self, p: str, ordered: tuple[Card, ...], fid: str) -> bool:
        """holds-not-all(P, S), and only P and Q may hold the cards of S => Q holds one of S."""
        others = {q for c in ordered for q in self.poss[c] if q != p}
        if len(others) != 1:
            return False
        (q,) = others
        cards = tuple(c for c in ordered if q in self.poss[c])
        conclusion = Statement(ONE_OF, q, cards=cards)
        if conclusion in self.proof or any(c in self.held[q] for c in cards):
            return False
        if any(x == q and not cards_set.isdisjoint(cards) for x, cards_set, _, _ in self.one_of):
            return False  # sets of one player must not overlap (the flow gives each its own card)
        prem = [
            fid,
            *(self.proof[lacks(x, c)] for c in ordered for x in self.players if x != p and x not in self.poss[c]),
        ]
        sid = f"s{len(self.steps) + 1}"
        self.steps[sid] = Step(sid, "not-all", tuple(dict.fromkeys(prem)), conclusion)
        self.proof[conclusion] = sid
        self.one_of.append((q, frozenset(cards), cards, sid))
        return True

    def net(self) -> tuple[_Net, list[int]]:
        open_ = {c: tuple(p for p in self.players if p in self.poss[c]) for c in self.cards if len(self.poss[c]) > 1}
        room: dict[str, int | None] = {}
        for p in self.players:
            k = self.count.get(p)
            room[p] = None if k is None else k[0] - len(self.held[p])
        reqs: list[tuple[str, frozenset[Card]]] = []
        index: list[int] = []
        for i, (p, cards, _, _) in enumerate(self.one_of):
            if any(c in self.held[p] for c in cards):
                continue
            reqs.append((p, cards))
            index.append(i)
        return _Net(self.players, open_, room, reqs), index

    def _counting_round(self, goal: Statement | None) -> bool:
        net, index = self.net()
        flow = net.solve()
        if flow is None:
            self.broken = ["counting"]
            return False
        dead = flow.dead()
        if goal is not None and goal.kind == LACKS:
            preferred = [(k, p) for k, p in dead if p == goal.player and goal.card in flow.classes[k]]
            dead = preferred + [kp for kp in dead if kp not in preferred]
        changed = False
        pred: dict[_Slot, list[_Slot]] = {q: [] for q in flow.succ}
        for q, nxt in flow.succ.items():
            for q2 in nxt:
                pred[q2].append(q)
        dead.sort(key=lambda kp: any(q[0] == kp[1] for q in flow.adj[kp[0]]))  # full hands first
        for key, p in dead:
            step = self._tight(flow, net, index, key, p, pred)
            if step is None:
                continue
            rule_counting, premises, _chosen = step
            for c in flow.classes[key]:
                changed |= self._step("counting", premises, lacks(p, c), rule_counting)
            if goal is not None and goal in self.proof:
                return True
        return changed

    def _tight(
        self,
        flow: _Flow,
        net: _Net,
        index: list[int],
        key: Hashable,
        p: str,
        pred: dict[_Slot, list[_Slot]],
    ) -> tuple[Counting, list[str], str] | None:
        proof = self.proof
        mine = [q for q in flow.adj[key] if q[0] == p]
        used = [q for q, n in flow.flow[key].items() if n > 0]
        if not mine:  # p's room is taken by known cards and the cards p owes to other books
            _k, fid = self.count[p]
            prem = [fid, *(proof[holds(p, c)] for c in self.cards if c in self.held[p])]
            prem += [self.one_of[index[j]][3] for j, (y, _) in enumerate(net.reqs) if y == p]
            return Counting("only", (), (p,), ((p, 0),)), prem, "only"
        return self._sides(flow, net, index, mine, used, pred)

    def _sides(
        self,
        flow: _Flow,
        net: _Net,
        index: list[int],
        mine: list[tuple[str, int]],
        used: list[tuple[str, int]],
        pred: dict[_Slot, list[_Slot]],
    ) -> tuple[Counting, list[str], str] | None:
        options: list[tuple[int, Counting, list[str], str]] = []
        with contextlib.suppress(KeyError, _Invalid):
            options.append(self._only_side(flow, net, index, mine))
        with contextlib.suppress(KeyError, _Invalid):
            options.append(self._needs_side(flow, net, index, used, pred))
        if not options:
            return None
        _, counting, prem, side = min(options, key=lambda o: (o[0], len(o[2])))
        return counting, prem, side

    def _only_side(
        self, flow: _Flow, net: _Net, index: list[int], mine: list[_Slot]
    ) -> tuple[int, Counting, list[str], str]:
        proof = self.proof
        only = flow.reach(mine, flow.succ)
        if only & flow.unbounded:
            raise _Invalid
        cards = flow.units_in(only)
        team = tuple(x for x in self.players if any(q[0] == x for q in only))
        prem: list[str] = []
        room = []
        for c in cards:
            prem += [proof[lacks(x, c)] for x in self.players if x not in team]
        for x in team:
            k, fid = self.count[x]
            prem.append(fid)
            prem += [proof[holds(x, c)] for c in self.cards if c in self.held[x]]
            n = k - len(self.held[x])
            for j, (y, _rset) in enumerate(net.reqs):
                if y == x and (x, j) not in only:
                    n -= 1
                    _, _, ordered, rid = self.one_of[index[j]]
                    prem.append(rid)
                    prem += [proof[lacks(x, c)] for c in ordered if c in cards]
            room.append((x, n))
        size = len(cards) + len(team)
        return size, Counting("only", _deck_order(cards, self.cards), team, tuple(room)), prem, "only"

    def _needs_side(
        self, flow: _Flow, net: _Net, index: list[int], used: list[_Slot], pred: dict[_Slot, list[_Slot]]
    ) -> tuple[int, Counting, list[str], str]:
        proof = self.proof
        needs = flow.reach(used, pred)
        if needs & flow.unbounded:
            raise _Invalid
        cards = flow.units_in(needs)
        team = tuple(x for x in self.players if any(q[0] == x for q in needs))
        prem = []
        room = []
        cardset = set(cards)
        for x in team:
            if (x, -1) in needs:
                k, fid = self.count[x]
                prem.append(fid)
                prem += [proof[holds(x, c)] for c in self.cards if c in self.held[x]]
                prem += [proof[lacks(x, c)] for c in self.cards if x not in self.poss[c] and c not in cardset]
                room.append((x, k - len(self.held[x])))
            else:
                n = 0
                for j, (y, _) in enumerate(net.reqs):
                    if y == x and (x, j) in needs:
                        _, _, ordered, rid = self.one_of[index[j]]
                        prem.append(rid)
                        prem += [proof[lacks(x, c)] for c in ordered if c not in cardset]
                        n += 1
                room.append((x, n))
        size = len(cards) + len(team)
        return size, Counting("needs", _deck_order(cards, self.cards), team, tuple(room)), prem, "needs"

    # -- slicing

    def slice(self, goal: str | list[str]) -> tuple[list[Fact], list[Step]]:
        """The facts and steps a proof rests on, steps in an order where premises come first."""
        facts: dict[str, Fact] = {}
        steps: dict[str, Step] = {}
        todo = [goal] if isinstance(goal, str) else list(goal)
        while todo:
            x = todo.pop()
            if x in facts or x in steps:
                continue
            if x in self.fact_by_id:
                facts[x] = self.fact_by_id[x]
            elif x in self.steps:
                steps[x] = self.steps[x]
                todo.extend(steps[x].premises)
        ordered_steps = sorted(steps.values(), key=lambda s: int(s.id[1:]))
        ordered_facts = sorted(facts.values(), key=lambda f: int(f.id[1:]))
        return ordered_facts, ordered_steps


def _deck_order(cards: Iterable[Card], order: Sequence[Card]) -> tuple[Card, ...]:
    pos = {c: i for i, c in enumerate(order)}
    return tuple(sorted(cards, key=pos.__getitem__))


# ---------------------------------------------------------------- the explainer


class Explainer:
    """Explanations for one view after ``at`` events (built once, then cheap per card)."""

    def __init__(
        self, tracker: ViewTracker, at: int, pos: Position | None = None, facts: list[Fact] | None = None
    ) -> None:
        """``pos`` and ``facts``: the view's position after ``at`` events and its facts, when
        already read (``tracker.position(at)``, ``read_facts``)."""
        self.tracker = tracker
        self.at = at
        self.record = tracker.record
        self.pos = tracker.position(at) if pos is None else pos
        self.facts = read_facts(tracker, self.pos) if facts is None else facts
        self.players = self.pos.players
        self.cards = self.pos.in_play
        self.chain = _Chain(self.players, self.cards, self.facts)
        self.chain.run()
        self._cache: dict[Statement, Explanation] = {}
        self.reducible = 0  # explanations kept with a fact too many, the rules falling short without it
        self.unstepped = 0  # explanations with the facts alone, the rules falling short of any chain

    @functools.cached_property
    def solution(self) -> Solution:
        """The solver's holders of the view (what ``card`` explains), made when first asked."""
        return solve(self.pos)

    def card(self, card: Card) -> dict[str, Explanation]:
        """One explanation per player the solver places (``holds``) or rules out (``lacks``) for ``card``."""
        holders = self.solution.holders.get(card)
        if holders is None:
            return {}
        found = {}
        for p in self.players:
            if len(holders) == 1 and holders[0] == p:
                found[p] = self.explain(holds(p, card))
            elif p not in holders:
                found[p] = self.explain(lacks(p, card))
        return found

    def explain(self, conclusion: Statement) -> Explanation:
        """The explanation of one holds/lacks statement; raises Unexplained when it does not follow."""
        cached = self._cache.get(conclusion)
        if cached is not None:
            return cached
        by = self.chain.proof.get(conclusion)
        if by is None:
            found = self._unstepped(conclusion)
        else:
            facts, steps = self.chain.slice(by)
            facts, steps = self._irreducible(conclusion, facts, steps)
            found = _explanation(conclusion, facts, steps, self.record)
        self._cache[conclusion] = found
        return found

    def _unstepped(self, conclusion: Statement) -> Explanation:
        """Where the named rules fall short of a deduction the facts imply: the facts it needs,
        each one needed, and no steps, the text saying that the steps do not reach it (none in
        the explainer's sweep of 300 games; before the hands short of sets, ``who-has 8D`` of
        seed 187 after event 250 in Ben's view fell over here). Raises Unexplained where the
        facts do not imply it."""
        if not implied(self.players, self.cards, [f.statement for f in self.facts], conclusion):
            raise Unexplained(f"{conclusion.words} does not follow from the record")
        self.unstepped += 1
        return _explanation(conclusion, self._needed(conclusion, self.facts), [], self.record, unstepped=True)

    def _needed(self, conclusion: Statement, facts: list[Fact]) -> list[Fact]:
        """``facts`` less each one the rest still imply ``conclusion`` without, in turn: each
        one kept is needed."""
        kept = list(facts)
        for f in facts:
            rest = [g for g in kept if g is not f]
            if implied(self.players, self.cards, [g.statement for g in rest], conclusion):
                kept = rest
        return kept

    def _irreducible(
        self, conclusion: Statement, facts: list[Fact], steps: list[Step]
    ) -> tuple[list[Fact], list[Step]]:
        if len(facts) <= 1:
            return facts, steps
        kept = self._needed(conclusion, facts)
        if len(kept) == len(facts):
            return facts, steps
        chain = _Chain(self.players, self.cards, kept)
        chain.run(conclusion)
        by = chain.proof.get(conclusion)
        if by is None:  # the rules fell short on the reduced facts: keep the full chain
            self.reducible += 1
            return facts, steps
        return chain.slice(by)

    def witness(self, card: Card, player: str) -> dict[Card, str]:
        """Where every card in play is in one fitting deal that puts ``card`` with ``player``."""
        pos = self.pos
        if card in pos.known:
            if pos.known[card] != player:
                raise Unexplained(f"{card.pretty} is known to be with {pos.known[card]}")
            return dict(pos.known) | self.solution.witness
        if player not in pos.allowed.get(card, ()):
            raise Unexplained(f"{player} is ruled out for {card.pretty}")
        narrowed = replace(pos, allowed={**pos.allowed, card: (player,)})
        try:
            deal = solve(narrowed).witness
        except NoFit:
            raise Unexplained(f"no fitting deal puts {card.pretty} with {player}") from None
        return {c: pos.known[c] if c in pos.known else deal[c] for c in pos.in_play}


def by_fact(fact: Fact, record: Record) -> Explanation:
    """The explanation of a deduction that is itself a fact (a card in the view's hand, or
    received in an ask): that fact alone, as ``Explainer.explain`` gives it, with no explainer."""
    return _explanation(fact.statement, [fact], [], record)


def explain_contradiction(tracker: ViewTracker, at: int) -> Explanation:
    """Facts of the view after ``at`` events that cannot all be true (leaving out any one, they can).

    Raises Contradiction when the record contradicts itself directly (a ``no`` from a player who
    held the card, ...): that error names the events already.
    """
    pos = tracker.position(at)
    facts = read_facts(tracker, pos)
    players, cards = pos.players, pos.in_play
    if _fits(players, cards, [f.statement for f in facts]) is not None:
        raise ValueError(f"the facts after event {at} fit a deal")
    kept = list(facts)
    named = {f.statement.player for f in facts if f.statement.kind != COUNT}

    # Hand sizes of players no other fact names go first: the others' sizes imply them anyway.
    def rank(f: Fact) -> int:
        if f.statement.kind != COUNT:
            return 1
        return 2 if f.statement.player in named else 0

    order = sorted(facts, key=rank)
    for f in order:
        rest = [g for g in kept if g is not f]
        if _fits(players, cards, [g.statement for g in rest]) is None:
            kept = rest
    chain = _Chain(players, cards, kept)
    chain.run()
    steps: list[Step] = []
    if chain.broken and chain.broken != ["counting"]:
        _, steps = chain.slice([b for b in chain.broken if b != "counting"])
    told, steps = _numbered(_telling(kept), steps)
    lines = _fact_sentences(told, tracker.record)
    said = {f.id: f.statement for f in told} | {st.id: st.conclusion for st in steps}
    lines += [_step_sentence(s, steps, said) for s in steps]
    text = " ".join(f"{i}. {s}" for i, s in enumerate(lines, start=1))
    return Explanation(None, tuple(told), tuple(steps), text)


# ---------------------------------------------------------------- words


def _c(card: Card | None) -> str:
    assert card is not None
    return card.pretty


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def _or(cards: Sequence[Card]) -> str:
    names = [c.pretty for c in cards]
    return either(names, "no card")


def _fact_sentence(f: Fact, record: Record) -> str:
    s, src = f.statement, f.source
    p = s.player
    if src.how == "count":
        return f"{p} holds {plural(s.k, 'card')}." if s.k else f"{p} holds no cards."
    if src.how == "hand":
        if s.kind == HOLDS:
            return f"{_c(s.card)} is in {p}'s hand."
        return f"{_c(s.card)} is not in {p}'s hand."
    e = src.event
    if src.how == "no":
        return f"{p} answered no when {src.other} asked for {_c(s.card)} at event {e}."
    if src.how == "asked":
        return f"{p} asked for {_c(s.card)} at event {e}, so {p} lacks it."
    if src.how == "got":
        return f"{p} got {_c(s.card)} from {src.other} at event {e}."
    book = (src.book or "").replace("-", " ")
    if src.how == "ask-book":
        asked = f"for {src.asked.pretty}" if src.asked is not None else "for a card"
        other = "another card" if src.asked is not None and src.asked not in s.cards else "a card"
        return (
            f"{p} asked {asked} at event {e}, so {p} held {other} of the {book} then, one never shown: "
            f"{p} holds {_or(s.cards)}."
        )
    return f"{p} asked at event {e} instead of claiming the {book}, so {p} does not hold all of {_cards(s.cards)}."


# A player's facts in the order they are told: what they hold (hand size, own hand, cards got,
# a card of a book shown by an ask, not all of a book by an ask instead of a claim), then what
# they lack (their own asks, their "no" answers): "Ben asked for 2♦, so Ben holds 5♦ or 7♦. Ben
# answered no to 7♦. So Ben holds 5♦."
_TOLD = {"count": 0, "hand": 1, "got": 2, "ask-book": 3, "declare": 4, "asked": 5, "no": 6}


def _event(f: Fact) -> int:
    return f.source.event or 0


def _telling(facts: Sequence[Fact]) -> list[Fact]:
    """The facts first used by one step, in the order they are told: player by player (in the
    order of each one's first event), and each player's by kind (``_TOLD``), then by event (the
    cards got, by giver: "Ben got J♥ at event 144 and 9♥ at event 148 from Eli."). A
    coach reads one player's receipts together ("Cara holds 11 cards. ... Cara answered no to 9♦
    at event 75, J♦ at event 107 and K♦ at event 250.") rather than the whole table's in the order
    they happened. Facts about one card alone (everyone else lacks it) go by kind, then by event:
    "Ben asked for 3♥ at event 39, so Ben lacks it. Anna answered no to 3♥ at event 31, Eli at
    event 39 and Fay at event 43."."""
    if len({f.statement.card for f in facts}) == 1 and facts[0].statement.card is not None:
        return sorted(facts, key=lambda f: (_TOLD.get(f.source.how, 9), _event(f)))
    first: dict[str, int] = {}
    given: dict[tuple[str, str | None], int] = {}  # (player, giver): the first card got from them
    for f in sorted(facts, key=_event):
        first.setdefault(f.statement.player, _event(f))
        if f.source.how == "got":
            given.setdefault((f.statement.player, f.source.other), _event(f))

    def told(f: Fact) -> tuple[int, str, int, int, int]:
        p = f.statement.player
        giver = given.get((p, f.source.other), 0) if f.source.how == "got" else 0
        return (first[p], p, _TOLD.get(f.source.how, 9), giver, _event(f))

    return sorted(facts, key=told)


def _together(f: Fact, g: Fact) -> str:
    """How ``g`` may be told in one sentence with ``f`` before it: ``player`` (one player's "no"
    answers, own asks, cards got from one other player, asks showing a card of other books, or
    cards in the view's own hand), ``card`` (several players' "no" to one card), or not at all
    (empty)."""
    how = f.source.how
    if how == "hand":  # (a hand's cards: "2♣ and 3♣ are in Anna's hand.")
        return "player" if g.source.how == how and g.statement.kind == f.statement.kind else ""
    if g.source.how != how or how not in ("no", "got", "asked", "ask-book"):
        return ""
    if how == "ask-book":  # (asks in different books, each for a card outside the set it shows)
        return "player" if g.statement.player == f.statement.player and _another(f) and _another(g) else ""
    if g.statement.player == f.statement.player:
        return "player" if how != "got" or g.source.other == f.source.other else ""
    return "card" if how == "no" and g.statement.card == f.statement.card else ""


def _another(f: Fact) -> bool:
    """Whether an ask's fact shows another card of the book than the one asked for."""
    return f.source.asked is not None and f.source.asked not in f.statement.cards


def _fact_sentences(facts: Sequence[Fact], record: Record) -> list[str]:
    """A sentence per fact, in the order given, but one sentence for a run of one player's "no"
    answers, of the cards one player got from another, of one player's own asks, of what one
    player's asks in different books show, of the cards in the view's own hand, or of several
    players' "no" to one card: "Cara answered no to 9♦ at event 75, J♦ at event 107 and K♦ at
    event 250."."""
    lines: list[str] = []
    i = 0
    while i < len(facts):
        f = facts[i]
        run = [f]
        way = _together(f, facts[i + 1]) if i + 1 < len(facts) else ""
        while way and i + len(run) < len(facts) and _together(run[-1], facts[i + len(run)]) == way:
            if facts[i + len(run)].source.book in {g.source.book for g in run if g.source.how == "ask-book"}:
                break
            run.append(facts[i + len(run)])
        i += len(run)
        if len(run) == 1:
            lines.append(_fact_sentence(f, record))
            continue
        p, how = f.statement.player, f.source.how
        if how == "hand":
            where = "in" if f.statement.kind == HOLDS else "not in"
            lines.append(f"{all_of([_c(g.statement.card) for g in run])} are {where} {p}'s hand.")
            continue
        if way == "card":  # (the players in the order they answered, not in the order they are told)
            who = all_of([f"{g.statement.player} at event {g.source.event}" for g in sorted(run, key=_event)])
            lines.append(f"{who} answered no to {_c(f.statement.card)}.")
            continue
        if how == "ask-book":
            asked = all_of([f"{_c(g.source.asked)} at event {g.source.event}" for g in run])
            sets = all_of(
                [
                    _c(g.statement.cards[0]) if len(g.statement.cards) == 1 else f"one of {_cards(g.statement.cards)}"
                    for g in run
                ]
            )
            lines.append(
                f"{p} asked for {asked}, so {p} held another card of each of those books then, one never shown: "
                f"{p} holds {sets}."
            )
            continue
        each = all_of([f"{_c(g.statement.card)} at event {g.source.event}" for g in run])
        if how == "no":
            lines.append(f"{p} answered no to {each}.")
        elif how == "got":
            lines.append(f"{p} got {each} from {f.source.other}.")
        else:
            lines.append(f"{p} asked for {each}, so {p} lacks {'both' if len(run) == 2 else 'them'}.")
    return lines


def _whole_hand(p: str, count: int, parts: Sequence[str]) -> str:
    if count == 1 and len(parts) == 1:
        return f"{p}'s only card is {parts[0]}"
    return f"{p}'s {plural(count, 'card')} are {all_of(parts)}"


def _told(s: Step, said: dict[str, Statement] | None) -> list[Statement]:
    """The statements of a step's premises already told (``said``, by id), in the step's order."""
    return [said[x] for x in s.premises if x in said] if said else []


def _short_of(p: str, s: Step, said: dict[str, Statement] | None) -> tuple[str, int]:
    """Why P's hand leaves out one card of each of some sets (``_Chain._needs_all_but``), from
    the step's premises: "of the 9 cards Dev may hold, Dev holds 6 but not all of J♠ Q♠ K♠, and
    Anna holds one of 10♥ J♥ Q♥", and how many sets; empty where the premises name none."""
    premises = _told(s, said)
    short = [x for x in premises if (x.kind == NOT_ALL and x.player == p) or (x.kind == ONE_OF and x.player != p)]
    count = next((x.k for x in premises if x.kind == COUNT and x.player == p), None)
    if not short or count is None:
        return "", 0
    own = " nor ".join(f"all of {_cards(x.cards)}" for x in short if x.kind == NOT_ALL)
    owed: dict[str, list[str]] = {}  # (per player, in the order met: "Anna holds Q♦ and one of 10♥ J♥ Q♥")
    for x in short:
        if x.kind == ONE_OF:
            owed.setdefault(x.player, []).append(_cards(x.cards) if len(x.cards) == 1 else f"one of {_cards(x.cards)}")
    others = [f"{q} holds {' and '.join(parts)}" for q, parts in owed.items()]
    text = (
        f"of the {plural(count + len(short), 'card')} {p} may hold, {p} holds {count}"
        + (f" but not {own}" if own else "")
        + (f", and {all_of(others)}" if others else "")
    )
    return text, len(short)


def _step_sentence(
    s: Step,
    steps: Sequence[Step] = (),
    said: dict[str, Statement] | None = None,
    cards: Sequence[Card] = (),
    players: Sequence[str] = (),
) -> str:
    """The sentence of one step; with ``cards``, of steps alike but for their cards, said at once
    ("So Ben lacks 9♠ and 9♣: Ben's 6 cards are ..."); with ``players``, of counting steps alike
    but for the players they rule out ("...: Anna, Ben and Cara lack J♠.")."""
    c = s.conclusion
    p = c.player
    card = all_of([x.pretty for x in cards]) if cards else c.card.pretty if c.card is not None else ""
    lack = f"{all_of(players)} lack {card}" if len(players) > 1 else f"{p} lacks {card}"
    if s.rule == "elsewhere":
        holder = next((st.conclusion.player for st in steps if st.id in s.premises), None)
        return (
            _lacks_held(p, [(c.card, holder)])
            if holder and c.card
            else f"So {p} lacks {card}: it is with someone else."
        )
    if s.rule == "last-holder":
        return f"So {p} holds {card}: everyone else lacks it."
    if s.rule == "one-left":
        return f"So {p} holds {card}, the only one of those cards left to {p}."
    if s.rule == "full-hand":
        known = [_c(said[x].card) for x in s.premises if said and x in said and said[x].kind == HOLDS]
        if not known:
            return f"So {p} lacks {card}: {p} holds no cards."
        return f"So {p} lacks {card}: {_whole_hand(p, len(known), known)}."
    if s.rule == "needs-all":
        short, sets = _short_of(p, s, said)
        if sets:
            return (
                f"So {p} holds {card}: {short}, so {p} holds every one outside {'them' if sets == 1 else 'those sets'}."
            )
        return f"So {p} holds {card}: {p} may hold no other cards than the ones needed to fill the hand."
    if s.rule == "not-all" and c.kind == ONE_OF:
        return f"So {p} holds {_or(c.cards)}: nobody else but the asker may hold them, and the asker not all of them."
    if s.rule == "not-all":
        return f"So {p} lacks {card}: {p} holds the rest of those cards."
    k = s.counting
    assert k is not None
    if k.side == "share":  # (``_Chain._needs_all_but``)
        whole, one = k.room  # (the hand counted first)
        short, _ = _short_of(whole[0], s, said)
        return (
            f"So {p} lacks {card}: {short}, so {whole[0]} holds all but one of {_cards(k.cards)}, "
            f"and {one[0]} the one left."
        )
    team = [x for x, _ in k.room]
    room = sum(n for _, n in k.room)
    rooms = all_of([f"{x} {n}" for x, n in k.room])
    if not k.cards:
        premises = _told(s, said)
        count = next((x.k for x in premises if x.kind == COUNT), None)
        parts = [_c(x.card) for x in premises if x.kind == HOLDS]
        parts += [f"one of {_cards(x.cards)}" for x in premises if x.kind == ONE_OF]
        if count is None or not parts:
            return f"So {p} lacks {card}: all of {p}'s cards are accounted for."
        return f"So {p} lacks {card}: {_whole_hand(p, count, parts)}."
    if len(team) == 1:
        x = team[0]
        if k.side == "only":
            return (
                f"Counting: only {x} may hold {_cards(k.cards)}, and {x} has room for exactly "
                f"{plural(room, 'more card')} once the known cards and the cards {x} owes to other books are set "
                f"aside, so {x} holds nothing else: {lack}."
            )
        return (
            f"Counting: {x} must still take {plural(room, 'card')}, and the only cards {x} may take are "
            f"{_cards(k.cards)}, so all of those are {x}'s: {lack}."
        )
    if k.side == "only":
        return (
            f"Counting: only {either(team)} may hold {_cards(k.cards)}, "
            f"and they have room for exactly {plural(room, 'more card')} ({rooms}) once their known cards "
            f"and the cards they owe to other books are set aside, so they hold nothing else: {lack}."
        )
    places = _places_of([x for x in (players or [p]) if x in team], list(cards) or [c.card], s, said)
    return (
        f"Counting: {all_of(team)} must still take {plural(room, 'card')} ({rooms}), and the only cards they may "
        f"take are {_cards(k.cards)}, so all of those are theirs"
        + (f", one for each card they must take, and {places}" if places else "")
        + f": {lack}."
    )


def _places_of(
    insiders: Sequence[str], ruled_out: Sequence[Card | None], s: Step, said: dict[str, Statement] | None
) -> str:
    """Where a counting step of the ``needs`` side rules out players of its own team, why: the
    cards those players must take, each one of a set they hold one of ("the one Gus must take
    is one of 4♠ 5♠ 6♠"); every card of the step's set is one the team must take, and the cards
    ruled out are in none of those players' sets. Empty for no such player, or where the
    premises do not show it (a player's sets not named, or one of them holding a card ruled
    out: the chain's steps never do either, as such a player is counted by its sets alone and
    the flow leaves it no set that could take the card)."""
    premises = _told(s, said)
    told = []
    for q in insiders:
        owed = [x.cards for x in premises if x.kind == ONE_OF and x.player == q]
        if not owed or any(c in cards for cards in owed for c in ruled_out):
            return ""
        sets = [f"one of {_cards(cards)}" for cards in owed]
        told.append(
            f"the one {q} must take is {sets[0]}" if len(sets) == 1 else f"the ones {q} must take are {all_of(sets)}"
        )
    if not any(" and " in t for t in told):
        return all_of(told)
    return "; ".join(told[:-1]) + f"; and {told[-1]}"  # (one player's sets are joined by "and")


def _empty_hands(players: Sequence[str], cards: Sequence[Card]) -> str:
    """Players out of cards and the cards they lack for it, in one sentence ("Dev, Eli and Fay
    hold no cards, so they lack Q♣.")."""
    if len(players) == 1:
        return f"{players[0]} holds no cards, so {players[0]} lacks {all_of([c.pretty for c in cards])}."
    return f"{all_of(players)} hold no cards, so they lack {all_of([c.pretty for c in cards])}."


def _lacks_held(p: str, cards: Sequence[tuple[Card, str | None]]) -> str:
    """The cards P lacks as others hold them: "So Dev lacks 5♦: Ben holds it." for one, else by
    holder in the order first met: "So Cara lacks 3♠ 4♠ 8♥ (all with Anna) and Q♦ (with Eli)."."""
    if len(cards) == 1 and cards[0][1] is not None:
        return f"So {p} lacks {cards[0][0].pretty}: {cards[0][1]} holds it."
    by_holder: dict[str | None, list[Card]] = {}
    for card, holder in cards:
        by_holder.setdefault(holder, []).append(card)
    held = [
        _cards(cs) + (f" ({'all ' if len(cs) > 1 else ''}with {holder})" if holder else "")
        for holder, cs in by_holder.items()
    ]
    return f"So {p} lacks {all_of(held)}."


def _batches(steps: Sequence[Step]) -> list[list[int]]:
    """The steps (their indices) whose facts are told together, before the first of them: a run
    of ``elsewhere`` steps that feed later steps (their conclusions are told as one sentence per
    player), else each step alone."""
    batches: list[list[int]] = []
    gathering = False
    for k, st in enumerate(steps):
        gathered = st.rule == "elsewhere" and k < len(steps) - 1
        if gathered and gathering:
            batches[-1].append(k)
        else:
            batches.append([k])
        gathering = gathered
    return batches


def _rules_out_alike(first: Step, st: Step) -> bool:
    """Whether ``st`` is a counting step that rules out another player for the card ``first``
    rules out, by the same count on the same premises (``first`` itself: whether it is one that
    others may join)."""
    c, d = first.conclusion, st.conclusion
    return (
        st.rule == first.rule == "counting"
        and first.counting is not None
        and bool(first.counting.cards)
        and first.counting.side != "share"
        and st.counting == first.counting
        and st.premises == first.premises
        and c.kind == d.kind == LACKS
        and c.card == d.card
        and (st is first or c.player != d.player)
    )


def _out_of_cards(st: Step, fact_of: dict[str, Fact]) -> tuple[str, Card] | None:
    """The player and card of a step that rests on one fact alone, that the player holds no cards."""
    if st.rule != "full-hand" or len(st.premises) != 1 or st.premises[0] not in fact_of:
        return None
    s = fact_of[st.premises[0]].statement
    if s.kind != COUNT or s.k != 0 or s.player != st.conclusion.player or st.conclusion.card is None:
        return None
    return s.player, st.conclusion.card


def _numbered(facts: Sequence[Fact], steps: Sequence[Step]) -> tuple[list[Fact], list[Step]]:
    """The facts and steps renamed f1, f2, ... and s1, s2, ... in the order given (the order
    told), each step's premises renamed alike."""
    rename = {f.id: f"f{i}" for i, f in enumerate(facts, start=1)}
    rename.update({st.id: f"s{i}" for i, st in enumerate(steps, start=1)})
    return (
        [replace(f, id=rename[f.id]) for f in facts],
        [replace(st, id=rename[st.id], premises=tuple(rename[x] for x in st.premises)) for st in steps],
    )


def _explanation(
    conclusion: Statement, facts: list[Fact], steps: list[Step], record: Record, unstepped: bool = False
) -> Explanation:
    """Number the facts and steps of one explanation from 1 and write its sentences.

    Each fact is told just before the first step that uses it (``_telling``, ``_fact_sentences``);
    ``elsewhere`` steps that only feed a later step are told together, one sentence per player,
    after the facts of a run of them.
    """
    fact_ids = {f.id for f in facts}
    order: list[Fact] = []
    told: set[str] = set()
    by_id = {f.id: f for f in facts}
    batches = _batches(steps)
    for batch in batches:
        fresh = [by_id[x] for k in batch for x in steps[k].premises if x in fact_ids and x not in told]
        told.update(f.id for f in fresh)
        order.extend(_telling(list(dict.fromkeys(fresh))))
    order = _telling([f for f in facts if f.id not in told]) + order
    new_facts, new_steps = _numbered(order, steps)
    lines: list[str] = []
    said: set[str] = set()
    premises = {x for st in new_steps for x in st.premises}
    alone = [f for f in new_facts if f.id not in premises]
    lines.extend(_fact_sentences(alone, record))
    said.update(f.id for f in alone)
    fact_of = {f.id: f for f in new_facts}
    said_by_id = {f.id: f.statement for f in new_facts} | {st.id: st.conclusion for st in new_steps}
    last = new_steps[-1] if new_steps else None
    alike: tuple[Step, list[Card]] | None = None  # the step whose sentence is last, and its cards
    empty: tuple[list[str], list[Card]] | None = None  # the last sentence's players out of cards, and cards
    ruled_out: tuple[Step, list[str]] | None = None  # the counting step whose sentence is last, and its players
    gathered: dict[str, list[tuple[Card, str | None]]] = {}  # (per player: the cards, each with its holder)
    batch_of = {batch[0]: batch for batch in batches}
    for k, st in enumerate(new_steps):
        fresh = []
        if k in batch_of:
            uses = {x for j in batch_of[k] for x in new_steps[j].premises}
            fresh = [f for f in new_facts if f.id in uses and f.id not in said]  # (in the order told)
            said.update(f.id for f in fresh)
            lines.extend(_fact_sentences(fresh, record))
        if ruled_out is not None and not fresh and _rules_out_alike(ruled_out[0], st):
            ruled_out[1].append(st.conclusion.player)  # (one sentence: "...: Anna, Ben and Cara lack J♠.")
            lines[-1] = _step_sentence(ruled_out[0], new_steps, said_by_id, players=ruled_out[1])
            alike = None
            continue
        ruled_out = None
        out = _out_of_cards(st, fact_of)
        if out is not None:  # "Fay holds no cards, so Fay lacks 9♥.": the fact and the step said at once
            p, card = out
            if [f.id for f in fresh] == list(st.premises):  # (its fact's sentence is the last one)
                if empty is not None and empty[1] == [card] and p not in empty[0]:
                    lines.pop()
                    empty[0].append(p)
                else:
                    empty = ([p], [card])
                lines[-1] = _empty_hands(*empty)
                alike = None
                continue
            if empty is not None and empty[0] == [p]:
                empty[1].append(card)
                lines[-1] = _empty_hands(*empty)
                continue
        empty = None
        if st.rule == "elsewhere" and st is not last:
            c = st.conclusion.card
            assert c is not None
            if st.conclusion.player not in gathered:
                gathered[st.conclusion.player] = []
            else:
                lines.remove(st.conclusion.player)  # told once, after the last fact it rests on
            lines.append(st.conclusion.player)  # a placeholder, filled in below
            holder = next((said_by_id[x].player for x in st.premises if x in said_by_id), None)
            gathered[st.conclusion.player].append((c, holder))
            continue
        if st.rule == "one-left" and len(st.premises) == 1 and len(fact_of[st.premises[0]].statement.cards) == 1:
            continue  # the fact said it already
        prev = new_steps[k - 1] if k > 0 else None
        if (
            prev is not None
            and alike is not None
            and prev.rule == st.rule
            and prev.premises == st.premises
            and prev.conclusion.player == st.conclusion.player
            and prev.conclusion.kind == st.conclusion.kind
            and st.conclusion.card is not None
            and st.rule in ("counting", "full-hand", "needs-all")
        ):
            alike[1].append(st.conclusion.card)  # (the steps before it alike, said again with this card)
            lines[-1] = _step_sentence(alike[0], new_steps, said_by_id, alike[1])
            continue
        lines.append(_step_sentence(st, new_steps, said_by_id))
        alike = (st, [st.conclusion.card]) if st.conclusion.card is not None else None
        ruled_out = (st, [st.conclusion.player]) if _rules_out_alike(st, st) else None
    for p, cards in gathered.items():
        lines[lines.index(p)] = _lacks_held(p, cards)
    if unstepped:
        lines.append(
            f"So {conclusion.words}: taken together, these facts leave no other way"
            " (a case the step-by-step rules do not reach)."
        )
    elif not new_steps and not any(f.statement == conclusion for f in new_facts):
        lines.append(f"So {conclusion.words}.")
    text = " ".join(f"{i}. {s}" for i, s in enumerate(lines, start=1))
    return Explanation(conclusion, tuple(new_facts), tuple(new_steps), text)


__all__ = [
    "Counting",
    "Explainer",
    "Explanation",
    "Fact",
    "Source",
    "Statement",
    "Step",
    "Unexplained",
    "by_fact",
    "explain_contradiction",
    "holds",
    "implied",
    "lacks",
    "read_facts",
]
