"""Game records: the values, and the ``.fish`` text format (``load``/``loads``/``dump``/``dumps``).

``loads`` reads every accepted spelling; ``dumps`` writes the canonical form byte for byte.
Structure is checked here (names, cards, books, hand sizes); the rules of play are checked by
``replay``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .cards import Book, Card, Deck, DeckKind, deck_kind, parse_card
from .errors import Contradiction, RecordSyntaxError
from .files import write_text_atomic
from .rules import HOUSE_ORDER, GameRules, HouseRule, RuleSet, Table, deal_sizes

INFO_KEYS = ("Title", "Event", "Site", "Date", "Notes")
_NAME_RE = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class Ask:
    """``ASKER asks TARGET for CARD: yes|no``."""

    asker: str
    target: str
    card: Card
    yes: bool
    line: int = 0
    comment: str | None = None
    number: int | None = None  # the move number written on the line, None when it has none


Holding = tuple[tuple[str, tuple[Card, ...]], ...]


@dataclass(frozen=True)
class Claim:
    """``CLAIMANT claims BOOK: HOLDER CARD..., ...: correct`` or ``: wrong; actual ...``."""

    claimant: str
    book: Book
    said: Holding
    correct: bool
    actual: Holding | None = None
    line: int = 0
    comment: str | None = None
    number: int | None = None  # the move number written on the line, None when it has none

    @property
    def truth(self) -> dict[Card, str]:
        """Who really held each card of the book when the claim was checked."""
        return {c: p for p, cards in (self.said if self.correct else self.actual or ()) for c in cards}

    @property
    def said_map(self) -> dict[Card, str]:
        return {c: p for p, cards in self.said for c in cards}


@dataclass(frozen=True)
class Pass:
    """``PLAYER passes to PLAYER``."""

    player: str
    to: str
    line: int = 0
    comment: str | None = None
    number: int | None = None  # the move number written on the line, None when it has none


Event = Ask | Claim | Pass


def actor(event: Event) -> str:
    """The player who made an event."""
    if isinstance(event, Ask):
        return event.asker
    return event.claimant if isinstance(event, Claim) else event.player


@dataclass(frozen=True)
class Comment:
    """A whole-line comment among the events, kept in place."""

    text: str
    line: int = 0


@dataclass
class Record:
    """One game: header, hands that were written down, and the events in order."""

    table: Table
    rules: GameRules = field(default_factory=GameRules)
    hands: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    info: dict[str, str] = field(default_factory=dict)
    extra: list[tuple[str, str]] = field(default_factory=list)
    body: list[Event | Comment] = field(default_factory=list)
    path: str | None = None
    header_lines: dict[str, int] = field(default_factory=dict)

    @property
    def events(self) -> list[Event]:
        return [e for e in self.body if not isinstance(e, Comment)]

    @property
    def players(self) -> tuple[str, ...]:
        return self.table.seats

    @property
    def deal_sizes(self) -> dict[str, int]:
        sizes = deal_sizes(len(self.rules.deck.cards), len(self.players))
        return dict(zip(self.players, sizes, strict=True))

    @property
    def name(self) -> str:
        return Path(self.path).stem if self.path else "record"


# ---------------------------------------------------------------- reading


def load(path: str | Path) -> Record:
    """Read a ``.fish`` file; errors name the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")  # a byte-order mark is encoding, not content
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordSyntaxError(f"cannot read the record: {exc}", code="unreadable", path=str(p)) from None
    return loads(text, path=str(p))


def loads(text: str, path: str | None = None) -> Record:
    """Read a record from text in any accepted spelling."""
    try:
        return _Reader(text, path).read()
    except (RecordSyntaxError, Contradiction) as exc:
        if exc.path is None:
            exc.path = path
        raise


class _Reader:
    record: Record
    deck: Deck

    def __init__(self, text: str, path: str | None) -> None:
        self.lines = text.splitlines()
        self.path = path

    def error(self, n: int, message: str, code: str = "syntax", col: int | None = None) -> RecordSyntaxError:
        src = self.lines[n - 1] if 0 < n <= len(self.lines) else None
        return RecordSyntaxError(message, code=code, line=n, col=col, source=src, path=self.path)

    def read(self) -> Record:
        n = 0
        header: dict[str, tuple[int, str]] = {}
        hands: list[tuple[int, str, str]] = []
        extra: list[tuple[str, str]] = []
        while n < len(self.lines) and self.lines[n].strip():
            self._header_line(n + 1, self.lines[n], header, hands, extra)
            n += 1
        if not self.lines:
            raise self.error(1, "the record is empty: it needs a header with a Teams line", "empty")
        record = self._record(header, hands, extra)
        self.record = record
        for i in range(n, len(self.lines)):
            item = self._body_line(i + 1, self.lines[i])
            if item is not None:
                record.body.append(item)
        return record

    # -- header

    def _header_line(
        self,
        n: int,
        line: str,
        header: dict[str, tuple[int, str]],
        hands: list[tuple[int, str, str]],
        extra: list[tuple[str, str]],
    ) -> None:
        if ":" not in line:
            raise self.error(n, "expected a header line 'Key: value'", "header")
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        low = key.lower()
        if low.startswith("hand ") or low == "hand":
            name = key[4:].strip()
            if not name:
                raise self.error(n, "a Hand line names its player: 'Hand NAME: cards'", "header")
            hands.append((n, name, value))
            return
        if low.startswith("x-"):
            if any(k.lower() == low for k, _ in extra):
                raise self.error(n, f"header key '{key}' appears twice", "header")
            extra.append((key, value))
            return
        canonical = {k.lower(): k for k in (*INFO_KEYS, "Rules", "Deck", "Bluffing", "House", "Teams")}
        if low not in canonical and _looks_like_event(line):
            raise self.error(n, "an event inside the header: the header ends at the first blank line", "header")
        if low not in canonical:
            raise self.error(n, f"unknown header key '{key}' (user fields start with 'X-')", "header", col=1)
        name = canonical[low]
        if name in header:
            raise self.error(n, f"header key '{name}' appears twice", "header")
        header[name] = (n, value)

    def _record(
        self,
        header: dict[str, tuple[int, str]],
        hands: list[tuple[int, str, str]],
        extra: list[tuple[str, str]],
    ) -> Record:
        if "Teams" not in header:
            raise self.error(1, "the header has no Teams line ('Teams: A B C vs D E F')", "header")
        lines = {k: n for k, (n, _) in header.items()}
        table = self._teams(*header["Teams"])
        rule_set = RuleSet.LITERATURE
        if "Rules" in header:
            n, v = header["Rules"]
            try:
                rule_set = RuleSet(v.lower())
            except ValueError:
                raise self.error(n, f"unknown rules '{v}' (literature or fish)", "header") from None
        kind = DeckKind.STANDARD
        if "Deck" in header:
            n, v = header["Deck"]
            try:
                kind = deck_kind(v)
            except ValueError as exc:
                raise self.error(n, str(exc), "header") from None
        bluffing = False
        if "Bluffing" in header:
            n, v = header["Bluffing"]
            if v.lower() not in ("yes", "no"):
                raise self.error(n, f"Bluffing is 'yes' or 'no', not '{v}'", "header")
            bluffing = v.lower() == "yes"
        house: set[HouseRule] = set()
        if "House" in header:
            n, v = header["House"]
            for part in (p.strip().lower() for p in v.split(",")):
                if part in {h.value for h in house}:
                    raise self.error(n, f"house rule '{part}' is listed twice", "header")
                try:
                    house.add(HouseRule(part))
                except ValueError:
                    known = ", ".join(h.value for h in HOUSE_ORDER)
                    raise self.error(n, f"unknown house rule '{part}' (known: {known})", "header") from None
        rules = GameRules(rule_set, kind, bluffing, frozenset(house))
        self.deck = rules.deck
        info = {k: header[k][1] for k in INFO_KEYS if k in header}
        record = Record(table=table, rules=rules, info=info, extra=extra, path=self.path, header_lines=lines)
        sizes = record.deal_sizes
        seen: dict[Card, str] = {}
        parsed: dict[str, tuple[Card, ...]] = {}
        for n, name, value in hands:
            player = table.resolve(name)
            if player is None:
                raise self.error(n, f"Hand of '{name}', who is not in the Teams line", "unknown-player")
            if player in parsed:
                raise self.error(n, f"a second Hand line for {player}", "header")
            cards = tuple(self._card(n, tok, col) for tok, col in _tokens(value, self.lines[n - 1]))
            for c in cards:
                if c in seen:
                    where = "twice in this hand" if seen[c] == player else f"also in {seen[c]}'s hand"
                    raise Contradiction(f"{c} is dealt {where}", line=n, source=self.lines[n - 1], path=self.path)
                seen[c] = player
            if len(cards) != sizes[player]:
                raise Contradiction(
                    f"{player} was dealt {sizes[player]} cards in this game, the Hand line has {len(cards)}",
                    line=n,
                    source=self.lines[n - 1],
                    path=self.path,
                )
            parsed[player] = cards
            lines[f"Hand {player}"] = n
        record.hands = {p: parsed[p] for p in table.seats if p in parsed}
        return record

    def _teams(self, n: int, value: str) -> Table:
        parts = re.split(r"\s+vs\.?\s+", value.strip(), flags=re.IGNORECASE)
        if len(parts) != 2:
            raise self.error(n, "Teams reads 'NAMES vs NAMES'", "teams")
        teams = [p.split() for p in parts]
        for team in teams:
            for name in team:
                if not _NAME_RE.match(name) or name.lower() == "vs":
                    raise self.error(n, f"'{name}' is not a valid name (letters, digits, _ and -)", "teams")
            if not 2 <= len(team) <= 4:
                raise self.error(n, f"a team has 2 to 4 players, not {len(team)}", "teams")
        if len(teams[0]) != len(teams[1]):
            raise self.error(n, "both teams need the same number of players (seats alternate)", "teams")
        lows = [p.lower() for t in teams for p in t]
        dup = next((p for p in lows if lows.count(p) > 1), None)
        if dup is not None:
            raise self.error(n, f"the name '{dup}' appears twice (names are unique ignoring case)", "teams")
        return Table((tuple(teams[0]), tuple(teams[1])))

    def _card(self, n: int, token: str, col: int | None = None) -> Card:
        try:
            card = parse_card(token)
        except ValueError as exc:
            raise self.error(n, str(exc), "bad-card", col) from None
        if not self.deck.has(card):
            raise self.error(n, f"{card} is not in the {self.deck.name} deck", "bad-card", col)
        return card

    # -- body

    def _player(self, n: int, name: str, col: int | None = None) -> str:
        p = self.record.table.resolve(name)
        if p is None:
            raise self.error(n, f"'{name}' is not a player of this game", "unknown-player", col)
        return p

    def _body_line(self, n: int, raw: str) -> Event | Comment | None:
        line = raw.strip()
        if not line:
            return None
        if line.startswith("#"):
            return Comment(line[1:].strip(), n)
        text, comment = line, None
        if "#" in line:
            text, _, rest = line.partition("#")
            text, comment = text.strip(), rest.strip()
        number = re.match(r"^\d+\.\s*", text)
        if number:
            text = text[number.end() :]
        # Columns are 1-based in the raw line: leading blanks, the move number, then the match.
        base = len(raw) - len(raw.lstrip()) + (number.end() if number else 0) + 1
        written = int(number[0].rstrip().rstrip(".")) if number else None
        m = _ASK_RE.match(text)
        if m:
            asker = self._player(n, m["asker"], base + m.start("asker"))
            target = self._player(n, m["target"], base + m.start("target"))
            card = self._card(n, m["card"], base + m.start("card"))
            return Ask(asker, target, card, m["answer"].lower() == "yes", n, comment, written)
        m = _PASS_RE.match(text)
        if m:
            return Pass(self._player(n, m["player"]), self._player(n, m["to"]), n, comment, written)
        m = _CLAIM_RE.match(text)
        if m:
            return self._claim(n, m, comment, written)
        raise self.error(n, _why_garbled(text), "garbled")

    def _claim(self, n: int, m: re.Match[str], comment: str | None, written: int | None) -> Claim:
        claimant = self._player(n, m["claimant"])
        try:
            book = self.deck.book(m["book"])
        except ValueError as exc:
            raise self.error(n, str(exc), "bad-book") from None
        said = self._holding(n, m["said"])
        verdict = m["verdict"].lower()
        actual_text = m["actual"]
        if verdict == "correct":
            if actual_text is not None:
                raise self.error(n, "a correct claim has no '; actual' part", "claim")
            return Claim(claimant, book, said, True, None, n, comment, written)
        if actual_text is None:
            raise self.error(n, "a wrong claim lists the real holders: ': wrong; actual HOLDER CARD...'", "claim")
        return Claim(claimant, book, said, False, self._holding(n, actual_text), n, comment, written)

    def _holding(self, n: int, text: str) -> Holding:
        groups = []
        for part in text.split(","):
            toks = part.split()
            if len(toks) < 2:
                raise self.error(n, f"expected 'HOLDER CARD...' in '{part.strip()}'", "claim")
            holder = self._player(n, toks[0])
            groups.append((holder, tuple(self._card(n, t) for t in toks[1:])))
        return tuple(groups)


_P = r"[A-Za-z0-9_-]+"
_ASK_RE = re.compile(
    rf"^(?P<asker>{_P})\s+asks\s+(?P<target>{_P})\s+(?:for\s+)?(?P<card>\S+)\s*:\s*(?P<answer>yes|no)$",
    re.IGNORECASE,
)
_PASS_RE = re.compile(rf"^(?P<player>{_P})\s+passes\s+to\s+(?P<to>{_P})$", re.IGNORECASE)
_CLAIM_RE = re.compile(
    rf"^(?P<claimant>{_P})\s+(?:claims|declares)\s+(?P<book>\S+?)\s*:\s*(?P<said>[^:;]*?)\s*:\s*"
    r"(?P<verdict>correct|wrong)\s*(?:;\s*actual\s+(?P<actual>.+))?$",
    re.IGNORECASE,
)


def _looks_like_event(line: str) -> bool:
    text = re.sub(r"^\s*\d+\.\s*", "", line.partition("#")[0]).strip()
    return any(r.match(text) for r in (_ASK_RE, _PASS_RE, _CLAIM_RE))


def _why_garbled(text: str) -> str:
    low = text.lower()
    if " asks " in low:
        return "cannot read this ask: write 'ASKER asks TARGET for CARD: yes' (or ': no')"
    if " claims " in low or " declares " in low:
        return "cannot read this claim: write 'CLAIMANT claims BOOK: HOLDER CARD..., ...: correct'"
    if " passes" in low:
        return "cannot read this pass: write 'PLAYER passes to PLAYER'"
    return "cannot read this line: expected an ask, a claim, a pass or a '#' comment"


def _tokens(value: str, raw: str) -> Iterable[tuple[str, int]]:
    pos = raw.find(":") + 1
    for tok in value.split():
        pos = raw.find(tok, pos)
        yield tok, pos + 1
        pos += len(tok)


# ---------------------------------------------------------------- writing


def dump(record: Record, path: str | Path) -> None:
    write_text_atomic(path, dumps(record))


def dumps(record: Record) -> str:
    """The canonical text of a record."""
    out: list[str] = []
    out.extend(f"{k}: {record.info[k]}" for k in INFO_KEYS if k in record.info)  # canonical order
    r = record.rules
    out.append(f"Rules: {r.rule_set.value}")
    out.append(f"Deck: {r.deck_kind.value}")
    if r.bluffing:
        out.append("Bluffing: yes")
    if r.house:
        out.append(f"House: {r.house_text}")
    a, b = record.table.teams
    out.append(f"Teams: {' '.join(a)} vs {' '.join(b)}")
    for p in record.players:
        if p in record.hands:
            out.append(f"Hand {p}: {' '.join(c.code for c in record.hands[p])}")
    out.extend(f"{k}: {v}" for k, v in record.extra)
    out.append("")
    number = 0
    for item in record.body:
        if isinstance(item, Comment):
            out.append(f"# {item.text}".rstrip())
            continue
        number += 1
        line = f"{number}. {event_text(item)}"
        if item.comment is not None:
            line += f"  # {item.comment}".rstrip()
        out.append(line)
    return "\n".join(s.rstrip() for s in out) + "\n"


def holding_text(holding: Holding) -> str:
    return ", ".join(f"{p} {' '.join(c.code for c in cards)}" for p, cards in holding)


def event_text(event: Event) -> str:
    """The canonical spelling of one event, without number or comment."""
    if isinstance(event, Ask):
        return f"{event.asker} asks {event.target} for {event.card.code}: {'yes' if event.yes else 'no'}"
    if isinstance(event, Pass):
        return f"{event.player} passes to {event.to}"
    text = f"{event.claimant} claims {event.book.name}: {holding_text(event.said)}: "
    if event.correct:
        return text + "correct"
    return text + f"wrong; actual {holding_text(event.actual or ())}"
