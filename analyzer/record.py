"""Game records: the values, and the ``.fish`` text format (``load``/``loads``/``dump``/``dumps``).

``loads`` reads every accepted spelling; ``dumps`` writes the canonical form byte for byte.
Structure is checked here (names, cards, books, hand sizes); the rules of play are checked by
``replay``. Reading goes on past an error and reports every independent one at once, each at
its line and column, with a suggestion when a close spelling exists.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from . import source
from .cards import Book, Card, Deck, DeckKind, deck_kind, parse_card
from .errors import MAX_ERRORS, Contradiction, HalfsuitError, RecordSyntaxError, raise_errors
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
    """``CLAIMANT claims BOOK: HOLDER CARD..., ...: correct``, or wrong: ``: wrong; actual ...``
    with the real split, or short without it (``: wrong``, ``: wrong, to team 2``, ``: wrong,
    forfeited``), saying only who scored where the rules need it."""

    claimant: str
    book: Book
    said: Holding
    correct: bool
    actual: Holding | None = None
    line: int = 0
    comment: str | None = None
    number: int | None = None  # the move number written on the line, None when it has none
    to_team: int | None = None  # a short wrong claim: the team the record says scored it
    forfeited: bool = False  # a short wrong claim the record says nobody scored

    @property
    def short(self) -> bool:
        """A wrong claim written without the real split: where the cards were stays unknown."""
        return not self.correct and self.actual is None

    @property
    def truth(self) -> dict[Card, str]:
        """Who really held each card of the book when the claim was checked (nothing, when short)."""
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
        if self.path == source.STDIN:
            return "stdin"
        return Path(self.path).stem if self.path else "record"

    def numbers(self) -> list[int]:
        """The number the file gives each event, in order: the move number written on its line,
        or, on a line without one, its place among the events (counted from 1)."""
        return [i if e.number is None else e.number for i, e in enumerate(self.events, start=1)]

    def written_number(self, i: int) -> int:
        """The number the file gives the ``i``-th event (counted from 1); 0 before the first."""
        events = self.events
        if not 0 < i <= len(events):
            return i
        number = events[i - 1].number
        return i if number is None else number

    def event_label(self, i: int) -> str:
        """``event 24``: the ``i``-th event (counted from 1) named as the file numbers it."""
        return f"event {self.written_number(i)}"

    def after_label(self, at: int) -> str:
        """``after the deal`` or ``after event 24``: the moment after the first ``at`` events."""
        return "after the deal" if at == 0 else f"after {self.event_label(at)}"


@dataclass(frozen=True)
class NumberWarning:
    """A move number that does not follow from the one before: the events are still read in
    the order of the file, but a number out of step often means an event was lost."""

    line: int
    number: int | None
    message: str


def number_warnings(record: Record) -> list[NumberWarning]:
    """Move numbers missing, repeated or out of order (none when no event has a number)."""
    events = record.events
    if all(e.number is None for e in events):
        return []
    found: list[NumberWarning] = []
    seen: dict[int, int] = {}  # number -> line where it was first written
    last = 0
    for e in events:
        n = e.number
        if n is None:
            found.append(NumberWarning(e.line, n, "this event has no move number (the others have one)"))
            last += 1  # it stands in for the next number
            continue
        if n in seen:
            found.append(NumberWarning(e.line, n, f"move number {n} is used again (first on line {seen[n]})"))
        elif n < last:
            found.append(NumberWarning(e.line, n, f"move number {n} comes after {last}: out of order"))
        elif n - last > 100:  # too far to say which: a mistyped number, more likely than lost events
            before = f"move numbers jump from {last} to {n}" if last else f"the first move number is {n}"
            found.append(NumberWarning(e.line, n, f"{before}: is the number mistyped?"))
        else:
            missing = [k for k in range(last + 1, n) if k not in seen]
            if missing:
                gap = f"{missing[0]}" if len(missing) == 1 else f"{missing[0]} to {missing[-1]}"
                which = f"number {gap} is" if len(missing) == 1 else f"numbers {gap} are"
                before = f"move numbers jump from {last} to {n}" if last else f"the first move number is {n}"
                found.append(NumberWarning(e.line, n, f"{before}: {which} missing (an event left out?)"))
        seen.setdefault(n, e.line)
        last = max(last, n)
    return found


# ---------------------------------------------------------------- reading


def load(path: str | Path) -> Record:
    """Read a ``.fish`` file (a regular file of at most 1 MiB, UTF-8); errors name the file."""
    where = str(path)
    return loads(source.decode(source.read_file(where), where), path=where)


def loads(text: str, path: str | None = None) -> Record:
    """Read a record from text in any accepted spelling.

    Reading goes on past an error: the independent errors are raised together (``RecordErrors``,
    at most 20, in the order of the file), a lone one as itself.
    """
    return _Reader(text, path).read()


def closest(word: str, options: Iterable[str]) -> str | None:
    """The one of ``options`` closest to ``word`` (any case), if one is close enough to suggest."""
    by_low = {o.lower(): o for o in options}
    import difflib  # (loaded only for a word the reader does not know)

    close = difflib.get_close_matches(word.lower(), by_low, n=1, cutoff=0.6)
    return by_low[close[0]] if close else None


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` when one of ``options`` is close to ``word`` (any case), else ''."""
    close = closest(word, options)
    return f" (did you mean '{close}'?)" if close else ""


_HEADER_KEYS = {k.lower(): k for k in (*INFO_KEYS, "Rules", "Deck", "Bluffing", "House", "Teams")}


def read_event(record: Record, text: str) -> Event | Comment | None:
    """One line of a record's body (an event in any accepted spelling, or a ``#`` comment), read
    against the record's players and deck as the reader reads it; None for a blank line. Errors
    give the column in ``text`` and line 1 (every independent one, as ``loads`` gives them)."""
    reader = _Reader(text, record.path)
    reader.table, reader.deck = record.table, record.rules.deck
    item = reader.body_line(1, text) if reader.readable(1, text) else None
    raise_errors(reader.errors)
    return item


class _Reader:
    """Reads a record line by line, collecting every independent error.

    A value that later lines depend on (the Teams line, the deck) and that cannot be read
    stops only the checks that depend on it: names are checked once the teams are known,
    cards against the deck once the deck is known.
    """

    def __init__(self, text: str, path: str | None) -> None:
        self.lines = source.split_lines(text)
        self.path = path
        self.errors: list[HalfsuitError] = []
        self.table: Table | None = None
        self.deck: Deck | None = None
        self.misspelled: set[str] = set()  # the keys suggested for unknown header keys

    def fail(self, n: int, message: str, code: str = "syntax", col: int | None = None) -> None:
        self.errors.append(
            RecordSyntaxError(message, code=code, line=n, col=col, source=self.line_text(n), path=self.path)
        )

    def contradiction(self, n: int, message: str, col: int | None = None) -> None:
        self.errors.append(Contradiction(message, line=n, col=col, source=self.line_text(n), path=self.path))

    def line_text(self, n: int) -> str | None:
        return self.lines[n - 1] if 0 < n <= len(self.lines) else None

    def read(self) -> Record:
        if not self.lines:
            self.fail(1, "the record is empty: it needs a header with a Teams line", "empty")
            raise_errors(self.errors)
        readable = [self.readable(n, line) for n, line in enumerate(self.lines, start=1)]
        header: dict[str, tuple[int, str]] = {}
        hands: list[tuple[int, str, str]] = []
        extra: list[tuple[str, str]] = []
        n = 0
        while n < len(self.lines) and self.lines[n].strip():
            if readable[n] and not self.header_line(n + 1, self.lines[n], header, hands, extra):
                break  # an event where the header should go on: read it and the rest as events
            n += 1
        record = self.record(header, hands, extra, complete=all(readable[:n]))
        events = 0
        for i in range(n, len(self.lines)):
            if not readable[i]:
                continue
            item = self.body_line(i + 1, self.lines[i])
            if self.lines[i].strip() and not self.lines[i].lstrip().startswith("#"):
                events += 1
                if events > source.MAX_EVENTS:
                    self.fail(
                        i + 1,
                        f"more than {source.MAX_EVENTS:,} events, the most halfsuit reads (a game has a few hundred)",
                        "too-many-events",
                    )
                    break
            if record is not None and item is not None:
                record.body.append(item)
        raise_errors(self.errors)
        if record is None:  # not reached: a record is missing only after an error
            raise RecordSyntaxError("the record cannot be read", path=self.path)
        return record

    def readable(self, n: int, line: str) -> bool:
        """Whether a line holds only characters a record may hold (the error says where, if not)."""
        bad = source.refused_character(line)
        if bad is not None:
            self.fail(n, bad[1], "character", bad[0] + 1)
        return bad is None

    # -- header

    def header_line(
        self,
        n: int,
        line: str,
        header: dict[str, tuple[int, str]],
        hands: list[tuple[int, str, str]],
        extra: list[tuple[str, str]],
    ) -> bool:
        """Read one header line; False when it is an event (the blank line after the header is missing)."""
        col = len(line) - len(line.lstrip()) + 1
        if ":" not in line:
            if _looks_like_event(line):
                self.fail(n, "an event inside the header: the header ends at the first blank line", "header")
                return False
            self.fail(n, "expected a header line 'Key: value'", "header", col)
            return True
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        low = key.lower()
        if low.startswith("hand ") or low == "hand":
            name = key[4:].strip()
            if not name:
                self.fail(n, "a Hand line names its player: 'Hand NAME: cards'", "header", col)
            else:
                hands.append((n, name, value))
            return True
        if low.startswith("x-"):
            if any(k.lower() == low for k, _ in extra):
                self.fail(n, f"header key '{key}' appears twice", "header", col)
            else:
                extra.append((key, value))
            return True
        if low not in _HEADER_KEYS:
            if _looks_like_event(line):
                self.fail(n, "an event inside the header: the header ends at the first blank line", "header")
                return False
            close = closest(key, (*_HEADER_KEYS.values(), "Hand"))
            hint = f" (did you mean '{close}'?)" if close else " (user fields start with 'X-')"
            self.fail(n, f"unknown header key '{key}'{hint}", "header", col)
            self.misspelled.add(close or key)
            return True
        name = _HEADER_KEYS[low]
        if name in header:
            self.fail(n, f"header key '{name}' appears twice", "header", col)
        else:
            header[name] = (n, value)
        return True

    def value_col(self, n: int) -> int:
        """The column of a header line's value."""
        raw = self.lines[n - 1]
        colon = raw.find(":") + 1
        return colon + len(raw[colon:]) - len(raw[colon:].lstrip()) + 1

    def record(
        self,
        header: dict[str, tuple[int, str]],
        hands: list[tuple[int, str, str]],
        extra: list[tuple[str, str]],
        complete: bool,
    ) -> Record | None:
        """The record of the header, or None when the teams or the deck cannot be read."""
        if "Teams" in header:
            self.table = self.teams(*header["Teams"])
        elif complete and "Teams" not in self.misspelled:
            # (a Teams line with a refused character or a misspelled key is reported already)
            self.fail(1, "the header has no Teams line ('Teams: A B C vs D E F')", "header")
        rule_set = RuleSet.LITERATURE
        if "Rules" in header:
            n, v = header["Rules"]
            try:
                rule_set = RuleSet(v.lower())
            except ValueError:
                hint = did_you_mean(v, (r.value for r in RuleSet)) or " (literature or fish)"
                self.fail(n, f"unknown rules '{v}'{hint}", "header", self.value_col(n))
        kind: DeckKind | None = DeckKind.STANDARD
        if "Deck" in header:
            n, v = header["Deck"]
            try:
                kind = deck_kind(v)
            except ValueError as exc:
                close = did_you_mean(v, (k.value for k in DeckKind))
                self.fail(n, f"unknown deck '{v}'{close}" if close else str(exc), "header", self.value_col(n))
                kind = None
        bluffing = False
        if "Bluffing" in header:
            n, v = header["Bluffing"]
            if v.lower() not in ("yes", "no"):
                why = f"Bluffing is 'yes' or 'no', not '{v}'{did_you_mean(v, ('yes', 'no'))}"
                self.fail(n, why, "header", self.value_col(n))
            bluffing = v.lower() == "yes"
        house: set[HouseRule] = set()
        if "House" in header:
            n, v = header["House"]
            for part in (p.strip().lower() for p in v.split(",")):
                if part in {h.value for h in house}:
                    self.fail(n, f"house rule '{part}' is listed twice", "header", self.value_col(n))
                    continue
                try:
                    house.add(HouseRule(part))
                except ValueError:
                    known = ", ".join(h.value for h in HOUSE_ORDER)
                    hint = did_you_mean(part, (h.value for h in HOUSE_ORDER)) or f" (known: {known})"
                    self.fail(n, f"unknown house rule '{part}'{hint}", "header", self.value_col(n))
        if kind is not None:
            self.deck = GameRules(rule_set, kind).deck
        record = None
        if self.table is not None and kind is not None:
            rules = GameRules(rule_set, kind, bluffing, frozenset(house))
            info = {k: header[k][1] for k in INFO_KEYS if k in header}
            lines = {k: n for k, (n, _) in header.items()}
            record = Record(table=self.table, rules=rules, info=info, extra=extra, path=self.path, header_lines=lines)
        parsed = self.hands(hands, record)
        if record is not None:
            record.hands = {p: parsed[p] for p in record.players if p in parsed}
        return record

    def hands(self, hands: list[tuple[int, str, str]], record: Record | None) -> dict[str, tuple[Card, ...]]:
        seen: dict[Card, str] = {}
        parsed: dict[str, tuple[Card, ...]] = {}
        lines: dict[str, int] = {}
        for n, name, value in hands:
            player = name if self.table is None else self.table.resolve(name)
            if player is None:
                hint = did_you_mean(name, self.table.seats) if self.table else ""
                col = self.lines[n - 1].lower().find(name.lower(), len("hand")) + 1
                self.fail(n, f"Hand of '{name}', who is not in the Teams line{hint}", "unknown-player", col)
            elif player in parsed:
                self.fail(n, f"a second Hand line for {player}", "header", 1)
                player = None
            tokens = list(_tokens(value, self.lines[n - 1]))
            placed = [(c, col) for tok, col in tokens if (c := self.card(n, tok, col)) is not None]
            cards = tuple(c for c, _ in placed)
            if player is None or len(placed) != len(tokens):
                continue
            for c, col in placed:
                if c in seen:
                    where = "twice in this hand" if seen[c] == player else f"also in {seen[c]}'s hand"
                    self.contradiction(n, f"{c} is dealt {where}", col)
                seen[c] = player
            if record is not None:
                size = record.deal_sizes[player]
                if len(cards) != size:
                    self.contradiction(
                        n, f"{player} was dealt {size} cards in this game, the Hand line has {len(cards)}"
                    )
            parsed[player] = cards
            lines[player] = n
        if record is not None:
            for player, n in lines.items():
                record.header_lines[f"Hand {player}"] = n
        return parsed

    def teams(self, n: int, value: str) -> Table | None:
        errors = len(self.errors)
        raw = self.lines[n - 1]
        parts = re.split(r"\s+vs\.?\s+", value.strip(), flags=re.IGNORECASE)
        if len(parts) != 2:
            self.fail(n, "Teams reads 'NAMES vs NAMES'", "teams", self.value_col(n))
            return None
        teams = [p.split() for p in parts]
        for name, col in _tokens(value, raw):
            if name.lower() not in ("vs", "vs.") and not _NAME_RE.match(name):
                self.fail(n, f"'{name}' is not a valid name (letters, digits, _ and -)", "teams", col)
        for team in teams:
            if not 2 <= len(team) <= 4:
                self.fail(n, f"a team has 2 to 4 players, not {len(team)}", "teams", self.value_col(n))
                break
        else:
            if len(teams[0]) != len(teams[1]):
                self.fail(n, "both teams need the same number of players (seats alternate)", "teams", self.value_col(n))
        lows = [p.lower() for t in teams for p in t]
        dup = next((p for p in lows if lows.count(p) > 1), None)
        if dup is not None:
            self.fail(n, f"the name '{dup}' appears twice (names are unique ignoring case)", "teams", self.value_col(n))
        if len(self.errors) > errors:
            return None
        return Table((tuple(teams[0]), tuple(teams[1])))

    def card(self, n: int, token: str, col: int | None = None) -> Card | None:
        try:
            card = parse_card(token)
        except ValueError as exc:
            self.fail(n, str(exc), "bad-card", col)
            return None
        if self.deck is not None and not self.deck.has(card):
            self.fail(n, f"{card} is not in the {self.deck.name} deck", "bad-card", col)
            return None
        return card

    # -- body

    def player(self, n: int, name: str, col: int) -> str | None:
        if self.table is None:
            return name  # the teams are unknown (reported): names are not checked
        p = self.table.resolve(name)
        if p is None:
            hint = did_you_mean(name, self.table.seats)
            self.fail(n, f"'{name}' is not a player of this game{hint}", "unknown-player", col)
        return p

    def body_line(self, n: int, raw: str) -> Event | Comment | None:
        line = raw.strip()
        if not line:
            return None
        if line.startswith("#"):
            return Comment(line[1:].strip(), n)
        text, comment = line, None
        if "#" in line:
            text, _, rest = line.partition("#")
            text, comment = text.strip(), rest.strip()
        number = re.match(r"^(\d+)\.\s*", text)
        if number and len(number[1]) > 9:
            self.fail(
                n, f"a move number of {len(number[1]):,} digits (at most 9)", "number", len(raw) - len(raw.lstrip()) + 1
            )
            return None
        if number:
            text = text[number.end() :]
        written = int(number[1]) if number else None
        # Columns are 1-based in the raw line: leading blanks, the move number, then the match.
        base = len(raw) - len(raw.lstrip()) + (number.end() if number else 0) + 1
        return self.event(n, text, lambda i: base + i, comment, written)

    def event(
        self, n: int, text: str, col: Callable[[int], int], comment: str | None, written: int | None
    ) -> Event | None:
        """The event a line's text (without number or comment) spells; ``col`` gives the
        column in the file of an index in ``text``."""
        m = _ASK_RE.match(text)
        if m:
            asker = self.player(n, m["asker"], col(m.start("asker")))
            target = self.player(n, m["target"], col(m.start("target")))
            card = self.card(n, m["card"], col(m.start("card")))
            if asker is None or target is None or card is None:
                return None
            return Ask(asker, target, card, m["answer"].lower() == "yes", n, comment, written)
        m = _PASS_RE.match(text)
        if m:
            player = self.player(n, m["player"], col(m.start("player")))
            to = self.player(n, m["to"], col(m.start("to")))
            if player is None or to is None:
                return None
            return Pass(player, to, n, comment, written)
        m = _CLAIM_RE.match(text)
        if m:
            return self.claim(n, m, col, comment, written)
        self.garbled(n, text, col)
        return None

    def garbled(self, n: int, text: str, col: Callable[[int], int]) -> None:
        """A line that is no event: say which words to change when a few close ones make it one
        (and check the rest of the line as it would then read)."""
        import difflib

        if len(self.errors) >= MAX_ERRORS:  # past the errors shown: no time spent on suggestions
            self.fail(n, _why_garbled(text), "garbled")
            return
        names = {p.lower() for p in self.table.seats} if self.table else set()
        first_words = itertools.islice(re.finditer(r"[^\s:;,#]+", text), 40)  # an event has fewer
        words = [
            (m.start(), m.group(), close[0])
            for m in first_words
            if m.group().isalpha()
            and m.group().lower() not in names
            and m.group().lower() not in _KEYWORDS
            and (close := difflib.get_close_matches(m.group().lower(), _KEYWORDS, n=1, cutoff=0.6))
        ][:5]
        for size in range(1, min(3, len(words)) + 1):
            for chosen in itertools.combinations(words, size):
                fixed = text
                for start, word, keyword in reversed(chosen):
                    fixed = fixed[:start] + keyword + fixed[start + len(word) :]
                if _looks_like_event(fixed):
                    said = " and ".join(f"'{keyword}'" for _, _, keyword in chosen)
                    what = _why_garbled(fixed).split(":")[0]
                    self.fail(n, f"{what} (did you mean {said}?)", "garbled", col(chosen[0][0]))
                    self.event(n, fixed, _unshifted(col, chosen), None, None)
                    return
        self.fail(n, _why_garbled(text), "garbled")

    def claim(
        self, n: int, m: re.Match[str], col: Callable[[int], int], comment: str | None, written: int | None
    ) -> Claim | None:
        claimant = self.player(n, m["claimant"], col(m.start("claimant")))
        book: Book | None = None
        if self.deck is not None:
            try:
                book = self.deck.book(m["book"])
            except ValueError as exc:
                hint = did_you_mean(m["book"], (b.name for b in self.deck.books))
                self.fail(n, f"{exc}{hint}", "bad-book", col(m.start("book")))
        said = self.holding(n, m["said"], lambda i: col(m.start("said") + i))
        correct = m["verdict"].lower() == "correct"
        award = m["award"].strip() if m["award"] is not None else None
        actual: Holding | None = None
        if correct and (m["actual"] is not None or award is not None):
            where = m.start("award") if award is not None else m.start("actual")
            self.fail(n, "a correct claim ends at ': correct'", "claim", col(where))
            return None
        if m["actual"] is not None:
            if award is not None:
                why = f"with the actual holders, who scores follows from the rules: drop ', {award}'"
                self.fail(n, why, "claim", col(m.start("award")))
                return None
            actual = self.holding(n, m["actual"], lambda i: col(m.start("actual") + i))
            if actual is None:
                return None
        short = self.short(n, award, col(m.start("award"))) if award is not None else (None, False)
        if claimant is None or book is None or said is None or short is None:
            return None
        to_team, forfeited = short
        return Claim(claimant, book, said, correct, actual, n, comment, written, to_team, forfeited)

    def short(self, n: int, award: str, col: int) -> tuple[int | None, bool] | None:
        """Who scored a wrong claim written without the real split (``to team 2``, ``scored by
        NAME`` or ``forfeited``), as the team and whether it was forfeited; None when unreadable."""
        words = award.split()
        low = [w.lower() for w in words]
        if low == ["forfeited"]:
            return None, True
        if low[:2] == ["to", "team"] and len(words) == 3 and words[2] in ("1", "2"):
            return int(words[2]), False
        if low[:2] == ["scored", "by"] and len(words) == 3:
            player = self.player(n, words[2], col + award.index(words[2], len("scored by")))
            if player is None or self.table is None:
                return None
            return self.table.team_of(player), False
        why = f"after ': wrong,' write 'to team 2', 'scored by NAME' or 'forfeited', not '{award}'"
        self.fail(n, why, "claim", col)
        return None

    def _holder_not_card(self, token: str) -> bool:
        """Whether ``token``, where a card should be, is a player's name and no card."""
        if self.table is None or self.table.resolve(token) is None:
            return False
        try:
            parse_card(token)
        except ValueError:
            return True
        return False

    def holding(self, n: int, text: str, col: Callable[[int], int]) -> Holding | None:
        """``HOLDER CARD..., HOLDER CARD...``; ``col`` gives the column of an index in ``text``."""
        groups = []
        ok = True
        start = 0
        for part in text.split(","):
            toks = [(t.group(), col(start + t.start())) for t in re.finditer(r"\S+", part)]
            start += len(part) + 1
            if len(toks) < 2:
                self.fail(n, f"expected 'HOLDER CARD...' in '{part.strip()}'", "claim", toks[0][1] if toks else None)
                ok = False
                continue
            holder = self.player(n, toks[0][0], toks[0][1])
            named = next((t for t in toks[1:] if self._holder_not_card(t[0])), None)
            if named is not None:  # ("Eli 3S 5S Anna 2S 4S": "'Anna' is not a card" said less)
                why = f"'{named[0]}' is a player, not a card: a comma goes before each holder"
                self.fail(n, why, "claim", named[1])
                ok = False
                continue
            cards = [self.card(n, t, c) for t, c in toks[1:]]
            if holder is None or None in cards:
                ok = False
                continue
            groups.append((holder, tuple(c for c in cards if c is not None)))
        return tuple(groups) if ok else None


_KEYWORDS = ("asks", "for", "claims", "declares", "passes", "to", "yes", "no", "correct", "wrong", "actual")
_P = r"[A-Za-z0-9_-]+"
# Possessive quantifiers (``*+``) and separators kept out of words: a line's match is linear in
# its length, however many blanks or colons it holds.
_ASK_RE = re.compile(
    rf"^(?P<asker>{_P})\s+asks\s+(?P<target>{_P})\s+(?:for\s+)?(?P<card>[^\s:]+)\s*+:\s*+(?P<answer>yes|no)$",
    re.IGNORECASE,
)
_PASS_RE = re.compile(rf"^(?P<player>{_P})\s+passes\s+to\s+(?P<to>{_P})$", re.IGNORECASE)
_CLAIM_RE = re.compile(
    rf"^(?P<claimant>{_P})\s+(?:claims|declares)\s+(?P<book>[^\s:]+)\s*+:\s*+(?P<said>[^:;]*+):\s*+"
    r"(?P<verdict>correct|wrong)\s*+(?:,\s*+(?P<award>[^;]*+))?(?:;\s*+actual\s+(?P<actual>.+))?$",
    re.IGNORECASE,
)


def _unshifted(col: Callable[[int], int], changes: tuple[tuple[int, str, str], ...]) -> Callable[[int], int]:
    """Columns in a line where words were replaced: ``(start, word, replacement)`` changes in order."""

    def at(i: int) -> int:
        shift = 0  # how much longer the line is before this change
        for start, word, keyword in changes:
            if i < start + shift:
                break
            if i < start + shift + len(keyword):
                return col(start)  # inside a replaced word: where that word starts
            shift += len(keyword) - len(word)
        return col(i - shift)

    return at


def _looks_like_event(line: str) -> bool:
    text = re.sub(r"^\s*\d+\.\s*", "", line.partition("#")[0]).strip()
    return any(r.match(text) for r in (_ASK_RE, _PASS_RE, _CLAIM_RE))


def _why_garbled(text: str) -> str:
    low = text.lower()
    if " asks " in low:
        return "cannot read this ask: write 'ASKER asks TARGET for CARD: yes' (or ': no')"
    if " claims " in low or " declares " in low:
        two = re.search(r"\b(?:claims|declares)\s+(\w+)\s+(\w+)\s*:", text, re.IGNORECASE)
        if two:  # ("Eli claims low spades: ...", as said aloud)
            one = f"{two[1]}-{two[2]}".lower()
            return f"cannot read this claim: a book is one word ('{one}', not '{two[1]} {two[2]}')"
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
    from .files import write_text_atomic  # (tempfile and shutil load only to write)

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
    if event.actual is not None:
        return text + f"wrong; actual {holding_text(event.actual)}"
    if event.forfeited:
        return text + "wrong, forfeited"
    return text + ("wrong" if event.to_team is None else f"wrong, to team {event.to_team}")
