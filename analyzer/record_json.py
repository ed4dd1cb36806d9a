"""Game records as JSON, for programs (``load``/``loads``/``dump``/``dumps``).

The JSON form holds exactly what the ``.fish`` text holds. Reading turns the JSON into the
text of the record and reads that with the text reader, so both forms are validated by one
piece of code; errors name the place in the JSON (``events[3]``, ``hands.Anna``) instead of
a line. Line numbers in a record read from JSON (its events, its header) are those of its
canonical text, what ``record.dumps`` writes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import record as text_format
from .cards import Card, parse_card
from .errors import Contradiction, RecordSyntaxError
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
    """Read a JSON record file; errors name the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordSyntaxError(f"cannot read the record: {exc}", code="unreadable", path=str(p)) from None
    return loads(text, path=str(p))


def loads(text: str, path: str | None = None) -> Record:
    """Read a record from its JSON text."""
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        lines = text.splitlines()
        source = lines[exc.lineno - 1] if 0 < exc.lineno <= len(lines) else None
        raise RecordSyntaxError(
            f"not valid JSON: {exc.msg}",
            code="json",
            line=exc.lineno,
            col=exc.colno,
            source=source,
            path=path,
        ) from None
    except _DuplicateKey as exc:
        raise RecordSyntaxError(str(exc), code="json", path=path) from None
    return from_dict(data, path)


def from_dict(data: object, path: str | None = None) -> Record:
    """Build a record from decoded JSON, validated exactly as the text reader validates text."""
    text, places = _Writer(path).text(data)
    try:
        return text_format.loads(text, path)
    except (RecordSyntaxError, Contradiction) as exc:
        raise _relocated(exc, places, path) from None


class _DuplicateKey(ValueError):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (``json`` would keep the last silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(f"the key '{key}' appears twice in one object")
        out[key] = value
    return out


@dataclass(frozen=True)
class _Place:
    """Where a line of the generated text came from in the JSON."""

    where: str
    event: int | None = None


def _relocated(
    exc: RecordSyntaxError | Contradiction, places: list[_Place], path: str | None
) -> RecordSyntaxError | Contradiction:
    """The text reader's error, told in terms of the JSON instead of the generated text."""
    if exc.line is None or not 0 < exc.line <= len(places):
        return exc
    place = places[exc.line - 1]
    message = f"{place.where}: {exc.message}"
    if isinstance(exc, Contradiction):
        return Contradiction(message, source=exc.source, path=path, event=place.event)
    return RecordSyntaxError(message, code=exc.code, source=exc.source, path=path, event=place.event)


class _Writer:
    """Turns decoded JSON into record text, checking what the text could not show.

    The text reader checks everything else; this only makes sure each JSON value becomes the
    one line or word it stands for (no line breaks in free text, no separators in a word).
    """

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.lines: list[str] = []
        self.places: list[_Place] = []
        self.number: int | None = None  # the event being written, for errors

    def fail(self, where: str, message: str, code: str = "json") -> RecordSyntaxError:
        return RecordSyntaxError(f"{where}: {message}", code=code, path=self.path, event=self.number)

    def emit(self, line: str, place: _Place) -> None:
        self.lines.append(line)
        self.places.append(place)

    def text(self, data: object) -> tuple[str, list[_Place]]:
        doc = self.fields(data, "the record", ("format", "version", "teams"), _TOP_KEYS)
        if doc["format"] != FORMAT:
            raise self.fail("format", f'expected "{FORMAT}", not {json.dumps(doc["format"])}')
        if type(doc["version"]) is not int or doc["version"] != VERSION:
            raise self.fail("version", f"this reader knows version {VERSION} only")
        self.header(doc)
        self.emit("", _Place("events"))
        events = doc.get("events", [])
        if not isinstance(events, list):
            raise self.fail("events", "expected a list")
        count = 0
        for i, item in enumerate(events):
            self.number = None
            if self.fields(item, f"events[{i}]", ("type",), ())["type"] != "comment":
                count += 1
                self.number = count
            self.event(item, f"events[{i}]")
        return "\n".join(self.lines) + "\n", self.places

    # -- header

    def header(self, doc: dict[str, Any]) -> None:
        info = self.fields(doc.get("info", {}), "info", (), ())
        for key in info:
            if key.lower() not in _INFO:
                known = ", ".join(INFO_KEYS)
                raise self.fail("info", f"unknown key '{key}' ({known}; user fields go in extra)")
        # Lines go in canonical order, so that line numbers are those of the canonical text.
        for key in sorted(info, key=lambda k: _INFO.index(k.lower())):
            self.emit(f"{key}: {self.one_line(info[key], f'info.{key}')}", _Place(f"info.{key}"))
        self.emit(f"Rules: {self.word(doc.get('rules', 'literature'), 'rules')}", _Place("rules"))
        self.emit(f"Deck: {self.word(doc.get('deck', 'standard'), 'deck')}", _Place("deck"))
        bluffing = doc.get("bluffing", False)
        if not isinstance(bluffing, bool):
            raise self.fail("bluffing", "expected true or false")
        if bluffing:  # only when yes, as in the canonical text, so events keep its line numbers
            self.emit("Bluffing: yes", _Place("bluffing"))
        house = self.list_of(doc.get("house", []), "house")
        if house:
            words = [self.word(h, f"house[{i}]") for i, h in enumerate(house)]
            self.emit(f"House: {', '.join(words)}", _Place("house"))
        teams = self.list_of(doc["teams"], "teams")
        if len(teams) != 2:
            raise self.fail("teams", "expected two teams: [[NAMES], [NAMES]]", "teams")
        sides = [
            [self.name(n, f"teams[{t}][{i}]", "teams") for i, n in enumerate(self.list_of(team, f"teams[{t}]"))]
            for t, team in enumerate(teams)
        ]
        self.emit(f"Teams: {' '.join(sides[0])} vs {' '.join(sides[1])}", _Place("teams"))
        seats = [p.lower() for pair in zip(*sides, strict=False) for p in pair]
        hands = self.fields(doc.get("hands", {}), "hands", (), ())
        for player in sorted(hands, key=lambda p: seats.index(p.lower()) if p.lower() in seats else len(seats)):
            where = f"hands.{player}"
            name = self.name(player, where, "unknown-player")
            self.emit(f"Hand {name}: {self.cards(hands[player], where)}", _Place(where))
        for i, pair in enumerate(self.list_of(doc.get("extra", []), "extra")):
            where = f"extra[{i}]"
            key, value = self.pair(pair, where)
            key = self.one_line(key, where)
            if not key.lower().startswith("x-") or ":" in key:
                raise self.fail(
                    where,
                    f"a user field's key starts with 'X-' and has no ':', not '{key}'",
                    "header",
                )
            self.emit(f"{key}: {self.one_line(value, where)}", _Place(where))

    # -- events

    def event(self, item: dict[str, Any], where: str) -> None:
        kind = item["type"]
        if not isinstance(kind, str) or kind not in _EVENT_KEYS:
            known = ", ".join(_EVENT_KEYS)
            raise self.fail(where, f"unknown event type {json.dumps(kind)} (one of {known})")
        required = _EVENT_KEYS[kind]
        optional = {"claim": ("actual", "comment"), "comment": ()}.get(kind, ("comment",))
        e = self.fields(item, where, ("type", *required), ("type", *required, *optional))
        place = _Place(where, self.number)
        if kind == "comment":
            self.emit(f"# {self.one_line(e['text'], f'{where}.text')}", place)
            return
        if kind == "ask":
            answer = e["answer"]
            if answer not in ("yes", "no"):
                raise self.fail(f"{where}.answer", 'expected "yes" or "no"')
            line = (
                f"{self.name(e['asker'], f'{where}.asker')} asks "
                f"{self.name(e['target'], f'{where}.target')} for "
                f"{self.card(e['card'], f'{where}.card')}: {answer}"
            )
        elif kind == "pass":
            line = f"{self.name(e['player'], f'{where}.player')} passes to {self.name(e['to'], f'{where}.to')}"
        else:
            line = self.claim(e, where)
        if e.get("comment") is not None:
            line += f"  # {self.one_line(e['comment'], f'{where}.comment')}"
        self.emit(f"{self.number}. {line}", place)

    def claim(self, e: dict[str, Any], where: str) -> str:
        result = e["result"]
        if result not in ("correct", "wrong"):
            raise self.fail(f"{where}.result", 'expected "correct" or "wrong"')
        book = self.word(e["book"], f"{where}.book", "bad-book")
        said = self.holding(e["said"], f"{where}.said")
        line = f"{self.name(e['claimant'], f'{where}.claimant')} claims {book}: {said}: {result}"
        actual = e.get("actual")
        if result == "correct":
            if actual is not None:
                raise self.fail(f"{where}.actual", "a correct claim has no actual holders", "claim")
            return line
        if actual is None:
            raise self.fail(where, 'a wrong claim lists the real holders in "actual"', "claim")
        return f"{line}; actual {self.holding(actual, f'{where}.actual')}"

    def holding(self, value: object, where: str) -> str:
        groups = []
        for i, group in enumerate(self.list_of(value, where)):
            holder, cards = self.pair(group, f"{where}[{i}]")
            name = self.name(holder, f"{where}[{i}][0]")
            groups.append(f"{name} {self.cards(cards, f'{where}[{i}][1]')}".rstrip())
        return ", ".join(groups)

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
                raise self.fail(where, f"unknown key '{unknown[0]}'")
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
        if not isinstance(value, str):
            raise self.fail(where, "expected a string")
        if "".join(value.splitlines()) != value:
            raise self.fail(where, "free text is one line (no line breaks)")
        return value

    def word(self, value: object, where: str, code: str = "header") -> str:
        if not isinstance(value, str) or not _WORD_RE.match(value):
            raise self.fail(where, f"expected one word, not {json.dumps(value, ensure_ascii=False)}", code)
        return value

    def name(self, value: object, where: str, code: str = "unknown-player") -> str:
        if not isinstance(value, str) or not _NAME_RE.match(value):
            shown = json.dumps(value, ensure_ascii=False)
            raise self.fail(where, f"{shown} is not a player name (letters, digits, _ and -)", code)
        if value.lower() == "vs":
            raise self.fail(where, "'vs' cannot be a name: it separates the teams", code)
        return value

    def card(self, value: object, where: str) -> str:
        if not isinstance(value, str):
            raise self.fail(where, 'a card is a string such as "7S"', "bad-card")
        try:
            return parse_card(value).code
        except ValueError as exc:
            raise self.fail(where, str(exc), "bad-card") from None

    def cards(self, value: object, where: str) -> str:
        cards = self.list_of(value, where)
        return " ".join(self.card(c, f"{where}[{i}]") for i, c in enumerate(cards))


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
    if item.comment is not None:
        out["comment"] = item.comment
    return out
