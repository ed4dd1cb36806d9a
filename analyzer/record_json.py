"""Game records as JSON, for programs (``load``/``loads``/``dump``/``dumps``).

The JSON form holds exactly what the ``.fish`` text holds. Reading parses the JSON with the
place of every value (``json_text``), turns it into the text of the record and reads that with
the text reader, so both forms are validated by one piece of code. Errors name the JSON path of
the value (``events[3].target``, ``hands.Anna[2]``) with its line and column in the JSON file,
and a record read from a JSON file keeps those lines for its events and header, so that rule
breaks and contradictions found later point into the JSON too.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from . import json_text, source
from . import record as text_format
from .cards import Card, parse_card
from .errors import Contradiction, HalfsuitError, RecordSyntaxError, raise_errors
from .files import write_text_atomic
from .record import _NAME_RE, INFO_KEYS, Ask, Claim, Comment, Holding, Pass, Record
from .rules import HOUSE_ORDER

FORMAT = "halfsuit-record"
VERSION = 1

# A value written as one word of the text: no blanks, and none of the text's separators.
_WORD_RE = re.compile(r"^[^\s:#,;]+$")
_INFO = [k.lower() for k in INFO_KEYS]
_TOP_KEYS = (
    "format", "version", "info", "rules", "deck", "bluffing", "house", "teams", "hands", "extra",
    "events",
)  # fmt: skip
_EVENT_KEYS = {
    "ask": ("asker", "target", "card", "answer"),
    "claim": ("claimant", "book", "said", "result"),
    "pass": ("player", "to"),
    "comment": ("text",),
}


# ---------------------------------------------------------------- reading


def load(path: str | Path) -> Record:
    """Read a JSON record file (a regular file of at most 1 MiB, UTF-8); errors name the file."""
    where = str(path)
    return loads(source.decode(source.read_file(where), where), where)


def loads(text: str, path: str | None = None) -> Record:
    """Read a record from its JSON text; errors give the JSON path, line and column of the value."""
    return _read(json_text.parse(text, path), path)


def from_dict(data: object, path: str | None = None) -> Record:
    """Build a record from decoded JSON, validated exactly as the text reader validates text
    (errors give the JSON path only: decoded values have no place in a file)."""
    return _read(json_text.Document(data, "", {}), path)


def _read(doc: json_text.Document, path: str | None) -> Record:
    writer = _Writer(doc, path)
    text = writer.text()
    if writer.stopped:
        raise_errors(writer.errors)
    try:
        record = text_format.loads(text, path)
    except HalfsuitError as exc:
        raise_errors(writer.errors + [writer.relocated(e) for e in exc.errors])
        raise
    raise_errors(writer.errors)
    return writer.placed(record)


class _Stop(Exception):
    """The document cannot be written as text past this point (its error is recorded)."""


@dataclass(frozen=True)
class _Line:
    """A line of the generated text: the JSON value it came from, and the values of its parts."""

    where: str
    event: int | None
    spans: tuple[tuple[int, int, str], ...]  # (first column, column after, JSON path)


Part = tuple[str, str | None]  # a piece of a generated line and the JSON value it shows


class _Writer:
    """Turns decoded JSON into record text, checking what the text could not show.

    The text reader checks everything else; this only makes sure each JSON value becomes the
    one line or word it stands for (no line breaks or refused characters in free text, no
    separators in a word). A value it refuses leaves its line out and the rest is still read,
    unless later lines depend on it (the teams, the deck).
    """

    def __init__(self, doc: json_text.Document, path: str | None) -> None:
        self.doc = doc
        self.path = path
        self.lines: list[str] = []
        self.places: list[_Line] = []
        self.errors: list[HalfsuitError] = []
        self.stopped = False
        self.number: int | None = None  # the event being written, for errors

    def error(self, where: str, message: str, code: str, kind: type[HalfsuitError]) -> HalfsuitError:
        place = self.doc.place(where)
        line, col, src = place if place else (None, None, None)
        said = f"{where or 'the record'}: {message}"
        if kind is Contradiction:
            return Contradiction(said, line=line, col=col, source=src, path=self.path, event=self.number)
        return RecordSyntaxError(said, code=code, line=line, col=col, source=src, path=self.path, event=self.number)

    def fail(self, where: str, message: str, code: str = "json") -> _Stop:
        """Record an error; the caller raises the returned ``_Stop`` to leave out what it was writing."""
        self.errors.append(self.error(where, message, code, RecordSyntaxError))
        return _Stop()

    def relocated(self, exc: HalfsuitError) -> HalfsuitError:
        """The text reader's error, told in terms of the JSON instead of the generated text."""
        if exc.line is None or not 0 < exc.line <= len(self.places):
            return exc
        line = self.places[exc.line - 1]
        where = next((p for a, b, p in line.spans if exc.col is not None and a <= exc.col < b), line.where)
        self.number = line.event
        kind = Contradiction if isinstance(exc, Contradiction) else RecordSyntaxError
        return self.error(where, exc.message, exc.code, kind)

    def placed(self, record: Record) -> Record:
        """The record with the lines of its events and header in the JSON file (those of the
        generated text when the JSON has no file)."""

        def line(n: int) -> int:
            place = self.doc.place(self.places[n - 1].where) if 0 < n <= len(self.places) else None
            return place[0] if place else n

        record.body = [replace(item, line=line(item.line)) for item in record.body]
        record.header_lines = {key: line(n) for key, n in record.header_lines.items()}
        return record

    def emit(self, parts: list[Part], where: str) -> None:
        spans = []
        col = 1
        for text, path in parts:
            if path is not None:
                spans.append((col, col + len(text), path))
            col += len(text)
        self.lines.append("".join(text for text, _ in parts))
        self.places.append(_Line(where, self.number, tuple(spans)))

    def text(self) -> str:
        """The record text of the document (as much of it as can be written)."""
        try:
            self.document(self.doc.value)
        except _Stop:
            self.stopped = True
        return "\n".join(self.lines) + "\n"

    def document(self, data: object) -> None:
        doc = self.fields(data, "", ("format", "version", "teams"), _TOP_KEYS)
        if doc["format"] != FORMAT:
            raise self.fail("format", f'expected "{FORMAT}", not {json.dumps(doc["format"], ensure_ascii=False)}')
        if type(doc["version"]) is not int or doc["version"] != VERSION:
            raise self.fail("version", f"this reader knows version {VERSION} only")
        self.header(doc)
        self.emit([], "events")
        events = doc.get("events", [])
        if not isinstance(events, list):
            raise self.fail("events", "expected a list")
        count = 0
        for i, value in enumerate(events):
            where = json_text.item("events", i)
            self.number = None
            try:
                event = self.fields(value, where, ("type",), ())
                if event["type"] != "comment":
                    count += 1
                    self.number = count
                self.event(event, where)
            except _Stop:
                continue

    # -- header

    def header(self, doc: dict[str, Any]) -> None:
        info = self.fields(doc.get("info", {}), "info", (), ())
        # Lines go in canonical order, so that line numbers are those of the canonical text.
        for key in sorted(info, key=lambda k: _INFO.index(k.lower()) if k.lower() in _INFO else -1):
            where = json_text.member("info", key)
            if key.lower() not in _INFO:
                known = ", ".join(INFO_KEYS)
                self.fail(where, f"unknown key '{key}' ({known}; user fields go in extra)")
                continue
            self.skip(self.info, key, info[key], where)
        self.skip(self.setting, "Rules", doc.get("rules", "literature"), "rules")
        self.setting("Deck", doc.get("deck", "standard"), "deck")  # the cards depend on it: no skipping
        self.skip(self.bluffing, doc)
        self.skip(self.house, doc)
        teams = self.list_of(doc["teams"], "teams")
        if len(teams) != 2:
            raise self.fail("teams", "expected two teams: [[NAMES], [NAMES]]", "teams")
        sides = [
            [
                self.name(n, json_text.item(json_text.item("teams", t), i), "teams")
                for i, n in enumerate(self.list_of(team, json_text.item("teams", t)))
            ]
            for t, team in enumerate(teams)
        ]
        self.emit([(f"Teams: {' '.join(sides[0])} vs {' '.join(sides[1])}", None)], "teams")
        seats = [p.lower() for pair in zip(*sides, strict=False) for p in pair]
        hands = self.fields(doc.get("hands", {}), "hands", (), ())
        for player in sorted(hands, key=lambda p: seats.index(p.lower()) if p.lower() in seats else len(seats)):
            self.skip(self.hand, player, hands[player])
        for i, pair in enumerate(self.list_of(doc.get("extra", []), "extra")):
            self.skip(self.extra, json_text.item("extra", i), pair)

    def skip(self, write: Callable[..., None], *args: Any) -> None:
        """Write one line, or leave it out when one of its values is refused (recorded)."""
        with contextlib.suppress(_Stop):
            write(*args)

    def setting(self, key: str, value: object, where: str) -> None:
        self.emit([(f"{key}: {self.word(value, where)}", where)], where)

    def info(self, key: str, value: object, where: str) -> None:
        self.emit([(f"{key}: {self.one_line(value, where)}", where)], where)

    def bluffing(self, doc: dict[str, Any]) -> None:
        bluffing = doc.get("bluffing", False)
        if not isinstance(bluffing, bool):
            raise self.fail("bluffing", "expected true or false")
        if bluffing:  # only when yes, as in the canonical text, so events keep its line numbers
            self.emit([("Bluffing: yes", "bluffing")], "bluffing")

    def house(self, doc: dict[str, Any]) -> None:
        house = self.list_of(doc.get("house", []), "house")
        if house:
            parts: list[Part] = [("House: ", None)]
            for i, h in enumerate(house):
                where = json_text.item("house", i)
                parts += [(", " if i else "", None), (self.word(h, where), where)]
            self.emit(parts, "house")

    def hand(self, player: str, cards: object) -> None:
        where = json_text.member("hands", player)
        name = self.name(player, where, "unknown-player")
        self.emit([(f"Hand {name}: ", None), *self.cards(cards, where)], where)

    def extra(self, where: str, pair: object) -> None:
        key, value = self.pair(pair, where)
        key = self.one_line(key, json_text.item(where, 0))
        if not key.lower().startswith("x-") or ":" in key:
            raise self.fail(where, f"a user field's key starts with 'X-' and has no ':', not '{key}'", "header")
        self.emit([(f"{key}: {self.one_line(value, json_text.item(where, 1))}", None)], where)

    # -- events

    def event(self, item: dict[str, Any], where: str) -> None:
        kind = item["type"]
        if not isinstance(kind, str) or kind not in _EVENT_KEYS:
            known = ", ".join(_EVENT_KEYS)
            shown = json.dumps(kind, ensure_ascii=False)
            raise self.fail(json_text.member(where, "type"), f"unknown event type {shown} (one of {known})")
        required = _EVENT_KEYS[kind]
        optional = {"claim": ("actual", "to_team", "forfeited", "comment"), "comment": ()}.get(kind, ("comment",))
        e = self.fields(item, where, ("type", *required), ("type", *required, *optional))

        def at(key: str) -> str:
            return json_text.member(where, key)

        if kind == "comment":
            self.emit([(f"# {self.one_line(e['text'], at('text'))}", at("text"))], where)
            return
        parts: list[Part] = [(f"{self.number}. ", None)]
        if kind == "ask":
            answer = e["answer"]
            if answer not in ("yes", "no"):
                raise self.fail(at("answer"), 'expected "yes" or "no"')
            parts += [
                (self.name(e["asker"], at("asker")), at("asker")),
                (" asks ", None),
                (self.name(e["target"], at("target")), at("target")),
                (" for ", None),
                (self.card(e["card"], at("card")), at("card")),
                (f": {answer}", at("answer")),
            ]
        elif kind == "pass":
            parts += [
                (self.name(e["player"], at("player")), at("player")),
                (" passes to ", None),
                (self.name(e["to"], at("to")), at("to")),
            ]
        else:
            parts += self.claim(e, where)
        if e.get("comment") is not None:
            parts.append((f"  # {self.one_line(e['comment'], at('comment'))}", at("comment")))
        self.emit(parts, where)

    def claim(self, e: dict[str, Any], where: str) -> list[Part]:
        """A claim: ``said`` (holder and cards, as pairs) and ``result``; a wrong one has its real
        holders in ``actual``, or is written without them, then saying who scored where the rules
        need it with ``to_team`` (1 or 2) or ``forfeited`` (true): the text's ``: wrong, to team 2``
        and ``: wrong, forfeited``."""

        def at(key: str) -> str:
            return json_text.member(where, key)

        result = e["result"]
        if result not in ("correct", "wrong"):
            raise self.fail(at("result"), 'expected "correct" or "wrong"')
        parts: list[Part] = [
            (self.name(e["claimant"], at("claimant")), at("claimant")),
            (" claims ", None),
            (self.word(e["book"], at("book"), "bad-book"), at("book")),
            (": ", None),
            *self.holding(e["said"], at("said")),
            (f": {result}", at("result")),
        ]
        actual, to_team, forfeited = e.get("actual"), e.get("to_team"), e.get("forfeited")
        if to_team is not None and (isinstance(to_team, bool) or to_team not in (1, 2)):
            raise self.fail(at("to_team"), "expected 1 or 2", "claim")
        if forfeited not in (None, True, False):
            raise self.fail(at("forfeited"), "expected true or false", "claim")
        award = [f"to team {to_team}"] * (to_team is not None) + ["forfeited"] * bool(forfeited)
        if result == "correct":
            if actual is not None:
                raise self.fail(at("actual"), "a correct claim has no actual holders", "claim")
            if award:
                raise self.fail(where, 'a correct claim has no "to_team" or "forfeited"', "claim")
            return parts
        if len(award) > 1 or (award and actual is not None):
            raise self.fail(
                where, 'a wrong claim has its "actual" holders, or at most one of "to_team" and "forfeited"', "claim"
            )
        if actual is not None:
            return [*parts, ("; actual ", None), *self.holding(actual, at("actual"))]
        if not award:
            return parts
        return [*parts, (f", {award[0]}", at("to_team") if to_team is not None else at("forfeited"))]

    def holding(self, value: object, where: str) -> list[Part]:
        parts: list[Part] = []
        for i, group in enumerate(self.list_of(value, where)):
            at = json_text.item(where, i)
            holder, cards = self.pair(group, at)
            name = self.name(holder, json_text.item(at, 0))
            shown = self.cards(cards, json_text.item(at, 1))
            parts += [(", " if i else "", None), (name, json_text.item(at, 0)), (" " if shown else "", None), *shown]
        if not parts:
            parts.append(("", where))
        return parts

    # -- values

    def fields(
        self,
        value: object,
        where: str,
        required: tuple[str, ...],
        allowed: tuple[str, ...],
    ) -> dict[str, Any]:
        """An object with the required keys and no key outside ``allowed`` (empty: any key)."""
        if not isinstance(value, dict):
            raise self.fail(where, "expected an object")
        for key in required:
            if key not in value:
                raise self.fail(where, f"missing key '{key}'")
        if allowed:
            unknown = [k for k in value if k not in allowed]
            if unknown:
                raise self.fail(json_text.member(where, unknown[0]), f"unknown key '{unknown[0]}'")
        return value

    def list_of(self, value: object, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, "expected a list")
        return value

    def pair(self, value: object, where: str) -> tuple[Any, Any]:
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(where, "expected a pair [a, b]")
        return value[0], value[1]

    def one_line(self, value: object, where: str) -> str:
        """Free text: one line of characters a record may hold."""
        if not isinstance(value, str):
            raise self.fail(where, "expected a string")
        if "\n" in value or "\r" in value:
            raise self.fail(where, "free text is one line (no line breaks)")
        bad = source.refused_character(value)
        if bad is not None:
            raise self.fail(where, bad[1], "character")
        return value

    def word(self, value: object, where: str, code: str = "header") -> str:
        if not isinstance(value, str) or not _WORD_RE.fullmatch(value):
            raise self.fail(where, f"expected one word, not {json.dumps(value, ensure_ascii=False)}", code)
        return value

    def name(self, value: object, where: str, code: str = "unknown-player") -> str:
        if not isinstance(value, str) or not _NAME_RE.fullmatch(value):
            shown = json.dumps(value, ensure_ascii=False)
            raise self.fail(where, f"{shown} is not a player name (letters, digits, _ and -)", code)
        if value.lower() == "vs":
            raise self.fail(where, "'vs' cannot be a name: it separates the teams", code)
        return value

    def card(self, value: object, where: str) -> str:
        if not isinstance(value, str) or source.refused_character(value) is not None:
            raise self.fail(where, 'a card is a string such as "7S"', "bad-card")
        try:
            return parse_card(value).code
        except ValueError as exc:
            raise self.fail(where, str(exc), "bad-card") from None

    def cards(self, value: object, where: str) -> list[Part]:
        parts: list[Part] = []
        for i, c in enumerate(self.list_of(value, where)):
            at = json_text.item(where, i)
            parts += [(" " if i else "", None), (self.card(c, at), at)]
        return parts


# ---------------------------------------------------------------- writing


def dump(record: Record, path: str | Path) -> None:
    write_text_atomic(path, dumps(record))


def dumps(record: Record) -> str:
    """The JSON text of a record: the same bytes for the same record."""
    return json.dumps(to_dict(record), indent=2, ensure_ascii=False) + "\n"


def to_dict(record: Record) -> dict[str, Any]:
    """The record as plain JSON values, keys in a fixed order."""
    r = record.rules
    return {
        "format": FORMAT,
        "version": VERSION,
        "info": {k: record.info[k] for k in INFO_KEYS if k in record.info},
        "rules": r.rule_set.value,
        "deck": r.deck_kind.value,
        "bluffing": r.bluffing,
        "house": [h.value for h in HOUSE_ORDER if h in r.house],
        "teams": [list(team) for team in record.table.teams],
        "hands": {p: _codes(record.hands[p]) for p in record.players if p in record.hands},
        "extra": [[k, v] for k, v in record.extra],
        "events": [_item(item) for item in record.body],
    }


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def _holding(holding: Holding) -> list[list[Any]]:
    return [[p, _codes(cards)] for p, cards in holding]


def _item(item: Ask | Claim | Pass | Comment) -> dict[str, Any]:
    if isinstance(item, Comment):
        return {"type": "comment", "text": item.text}
    out: dict[str, Any]
    if isinstance(item, Ask):
        out = {
            "type": "ask",
            "asker": item.asker,
            "target": item.target,
            "card": item.card.code,
            "answer": "yes" if item.yes else "no",
        }
    elif isinstance(item, Pass):
        out = {"type": "pass", "player": item.player, "to": item.to}
    else:
        out = {
            "type": "claim",
            "claimant": item.claimant,
            "book": item.book.name,
            "said": _holding(item.said),
            "result": "correct" if item.correct else "wrong",
        }
        if item.actual is not None:
            out["actual"] = _holding(item.actual)
        if item.to_team is not None:
            out["to_team"] = item.to_team
        if item.forfeited:
            out["forfeited"] = True
    if item.comment is not None:
        out["comment"] = item.comment
    return out
