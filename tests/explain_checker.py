"""An independent checker for explanations, working on their JSON form only.

It shares no code with ``analyzer.explain``: it reads every fact's source straight from the
record's events, and decides "these statements imply that one" with a CP-SAT model of the
frame (each card in play with exactly one player), so nothing of the explanation engine or the
flow solver is trusted.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ortools.sat.python import cp_model

from analyzer.cards import Card, parse_card
from analyzer.record import Ask, Claim, Record

RULES = {"elsewhere", "last-holder", "one-left", "full-hand", "needs-all", "counting", "not-all"}


class Checker:
    """Checks explanations of one view after ``at`` events."""

    def __init__(self, record: Record, view: str, at: int) -> None:
        self.record = record
        self.view = view
        self.at = at
        self.events = record.events[:at]
        self.players = record.players
        self.index = {}
        for i, e in enumerate(record.events, start=1):
            number = getattr(e, "number", None)
            self.index[number if isinstance(number, int) else i] = i
        claimed = {e.book.name for e in self.events if isinstance(e, Claim)}
        deck = record.rules.deck
        self.in_play = [c for b in deck.books if b.name not in claimed for c in b.cards]
        counts = dict(record.deal_sizes)
        for e in self.events:
            if isinstance(e, Ask) and e.yes:
                counts[e.asker] += 1
                counts[e.target] -= 1
            elif isinstance(e, Claim):
                for p, cards in e.said if e.correct else e.actual or ():
                    counts[p] -= len(cards)
        self.counts = counts
        self.hand = set(record.hands.get(view, ())) if view != "public" else set()
        self._cache: dict[tuple[frozenset[Any], Any], bool] = {}

    # -- facts against their sources

    def _moved(self, card: Card, after: int) -> bool:
        return any(isinstance(e, Ask) and e.yes and e.card is card for e in self.events[after:])

    def _shown(self, card: Card) -> bool:
        """Whether an ask showed the card at the table (to every player) by now."""
        return any(isinstance(e, Ask) and e.yes and e.card is card for e in self.events)

    def _seen(self, card: Card) -> bool:
        """Whether the view knows who was dealt the card: shown, or in the view's own hand."""
        return card in self.hand or self._shown(card)

    def _holder_before(self, card: Card, i: int) -> str | None:
        """Who held a shown card just before event ``i`` (1-based)."""
        moves = [e.asker for e in self.events[: i - 1] if isinstance(e, Ask) and e.yes and e.card is card]
        if moves:
            return moves[-1]
        if card in self.hand:
            return self.view
        first = next((e for e in self.events if isinstance(e, Ask) and e.yes and e.card is card), None)
        return None if first is None else first.target

    def fact_error(self, fact: dict[str, Any]) -> str | None:
        """Why a fact is not true to its source, or None."""
        kind, p, source = fact["kind"], fact["player"], fact["source"]
        if kind == "count":
            return None if source == "count" and fact["k"] == self.counts[p] else f"count of {p} is {self.counts[p]}"
        if source == "hand":
            c = parse_card(fact["card"])
            if p != self.view or kind not in ("holds", "lacks") or self._moved(c, 0):
                return "not a card of the view's own hand that never moved"
            if (kind == "holds") != (c in self.hand):
                return f"{c} is {'not ' if kind == 'holds' else ''}in {p}'s hand"
            return None
        if not isinstance(source, dict) or source.get("event") not in self.index:
            return f"no event {source}"
        i = self.index[source["event"]]
        if i > self.at:
            return "an event after the step"
        e = self.record.events[i - 1]
        if source.get("line") != e.line:
            return f"event {source['event']} is on line {e.line}"
        if not isinstance(e, Ask):
            return "the source is not an ask"
        book = self.record.rules.deck.book_of(e.card)
        if kind in ("holds", "lacks"):
            c = parse_card(fact["card"])
            if c is not e.card or self._moved(c, i):
                return "the card is not the one asked for, or it moved since"
            if kind == "holds":
                return None if e.yes and e.asker == p else "the ask did not give the card to the player"
            if e.target == p and not e.yes:
                return None
            if e.asker == p and not self.record.rules.bluffing:
                return None
            return "the ask does not say the player lacks it"
        cards = {parse_card(x) for x in fact["cards"]}
        if e.asker != p:
            return "the player did not ask at that event"
        if kind == "holds-one-of":
            # Every card never shown, the view's own too: the ask alone does not rule those out.
            unseen = {c for c in book.cards if not self._shown(c)}
            if not self.record.rules.bluffing:
                unseen.discard(e.card)
            if cards != unseen:
                return f"the cards of {book.name} never shown are {sorted(map(str, unseen))}"
            if any(self._holder_before(c, i) == p for c in book.cards if self._seen(c)):
                return "the asker held a card of the book the view knows of then"
            return None
        if kind == "holds-not-all":
            if not self.record.rules.must_declare:
                return "not under must-declare"
            books = [b for b in self.record.rules.deck.books if cards and next(iter(cards)) in b.cards]
            b = books[0] if books else book
            if cards != {c for c in b.cards if not self._seen(c)} or b.cards[0] not in self.in_play:
                return "not the unseen cards of a book in play"
            if any(self._holder_before(c, i) != p for c in b.cards if self._seen(c)):
                return "a shown card of the book was elsewhere, so the ask says nothing of it"
            return None
        return f"unknown kind {kind}"

    # -- implication, by CP-SAT

    def feasible(self, statements: Iterable[dict[str, Any]]) -> bool:
        """Whether some deal of the cards in play (each with exactly one player) meets every statement.

        Without a count among them, cards no statement names can go anywhere, so they are left out.
        """
        statements = list(statements)
        cards = self.in_play
        if not any(s["kind"] == "count" for s in statements):
            named = {parse_card(x) for s in statements for x in (s.get("cards") or [s["card"]])}
            cards = [c for c in cards if c in named]
        model = cp_model.CpModel()
        x = {(c, p): model.NewBoolVar(f"{c}_{p}") for c in cards for p in self.players}
        for c in cards:
            model.AddExactlyOne(x[(c, p)] for p in self.players)
        for s in statements:
            p = s["player"]
            if s["kind"] == "holds":
                model.Add(x[(parse_card(s["card"]), p)] == 1)
            elif s["kind"] == "lacks":
                model.Add(x[(parse_card(s["card"]), p)] == 0)
            elif s["kind"] == "count":
                model.Add(sum(x[(c, p)] for c in cards) == s["k"])
            elif s["kind"] == "holds-one-of":
                model.AddBoolOr([x[(parse_card(c), p)] for c in s["cards"]])
            elif s["kind"] == "holds-not-all":
                model.AddBoolOr([x[(parse_card(c), p)].Not() for c in s["cards"]])
            else:
                raise ValueError(s["kind"])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        return solver.Solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    def implies(self, statements: list[dict[str, Any]], conclusion: dict[str, Any]) -> bool:
        key = (frozenset(_key(s) for s in statements), _key(conclusion))
        if key not in self._cache:
            if conclusion["kind"] == "holds-one-of":
                negated = [{"kind": "lacks", "player": conclusion["player"], "card": c} for c in conclusion["cards"]]
            else:
                negated = [{**conclusion, "kind": "lacks" if conclusion["kind"] == "holds" else "holds"}]
            self._cache[key] = not self.feasible([*statements, *negated])
        return self._cache[key]

    # -- whole explanations

    def errors(self, explanation: dict[str, Any], irreducible: bool = True) -> list[str]:
        """Everything wrong with one explanation (its ``to_dict`` form); empty when it checks."""
        found: list[str] = []
        conclusion = explanation["conclusion"]
        facts = explanation["facts"]
        statement = {f["id"]: _statement(f) for f in facts}
        for f in facts:
            why = self.fact_error(f)
            if why is not None:
                found.append(f"{f['id']} {f['kind']} {f['player']}: {why}")
        for st in explanation["steps"]:
            if st["rule"] not in RULES:
                found.append(f"{st['id']}: unknown rule {st['rule']}")
            missing = [x for x in st["from"] if x not in statement]
            if missing:
                found.append(f"{st['id']}: premises {missing} are not earlier facts or steps")
                continue
            if not self.implies([statement[x] for x in st["from"]], st["conclusion"]):
                found.append(f"{st['id']} ({st['rule']}): its premises do not imply its conclusion")
            if st["rule"] == "counting" and not st.get("players"):
                found.append(f"{st['id']}: a counting step names its players")
            statement[st["id"]] = st["conclusion"]
        last = explanation["steps"][-1]["conclusion"] if explanation["steps"] else None
        if last != conclusion and conclusion not in [_statement(f) for f in facts]:
            found.append("neither the last step nor a fact is the conclusion")
        all_facts = [_statement(f) for f in facts]
        if not self.implies(all_facts, conclusion):
            found.append("the facts do not imply the conclusion")
        elif irreducible:
            for i, f in enumerate(facts):
                if self.implies(all_facts[:i] + all_facts[i + 1 :], conclusion):
                    found.append(f"{f['id']} can be left out")
        if "no deal" in explanation["text"]:
            found.append("the text says 'no deal'")
        return found


def _statement(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k in ("kind", "player", "card", "cards", "k")}


def _key(s: dict[str, Any]) -> tuple[Any, ...]:
    return (s["kind"], s["player"], s.get("card"), tuple(s.get("cards", ())), s.get("k"))
