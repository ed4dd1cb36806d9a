"""The ``score`` command: score a game at the table, one event a line, checked as it is entered.

``Scoring`` is the session (the record so far, each entry checked against the rules and against
the deals that fit, undo, the public view now); ``score_cmd`` is the terminal around it, on
prompt_toolkit, which only this command imports. The record is written in canonical form after
every change, through a temporary file and one rename, so a crash or a closed terminal loses
nothing and never leaves half a file.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from analyzer.errors import HalfsuitError, OutputError, RecordSyntaxError, UsageError
from analyzer.record import did_you_mean

from .common import handles_errors, visible
from .deduce import parse_card_arg

if TYPE_CHECKING:
    from prompt_toolkit.completion import Completer

    from analyzer.cards import Card
    from analyzer.record import Comment, Event, Record
    from analyzer.replay import Game

COMMANDS = ("undo", "who-has", "claims", "status", "help", "quit")
HELP = """Enter one event a line, as in a record (the number and a '# comment' are optional):
  Anna asks Dev for 7S: yes        Ben passes to Cara
  Ben claims low-spades: Anna 2S 3S, Ben 4S 5S 6S 7S: correct
  Ben claims high-hearts: Ben 9H 10H JH, Cara QH KH AH: wrong, to team 2   (or: wrong; actual ...)
  # a comment line
Commands: undo (take the last line back), who-has CARD, claims, status, help, quit (or Ctrl-D).
Tab completes names, cards and books. The file is saved after every line."""


class Scoring:
    """A game being scored: every entry is checked before it is kept, and the file is rewritten
    (atomically, in canonical form) after every change."""

    def __init__(self, path: Path, record: Record) -> None:
        from analyzer.replay import replay

        self.path = path
        self.record = record
        self.game = replay(record)

    @classmethod
    def resume(cls, path: Path) -> Scoring:
        """Continue the record in ``path``: it must be legal so far."""
        from analyzer import record as fish
        from analyzer.analysis import check_fits

        record = fish.load(path)
        scoring = cls(path, record)
        check_fits(scoring.game)
        return scoring

    def save(self, record: Record | None = None) -> None:
        """Write ``record`` (default: the record as it stands) to the file; an ``OutputError``
        when it cannot be written."""
        from analyzer import record as fish
        from analyzer.files import write_text_atomic

        write_text_atomic(self.path, fish.dumps(self.record if record is None else record))

    def enter(self, line: str) -> Event | Comment | None:
        """Read, check and keep one line; raises (keeping nothing) when it cannot be read, breaks
        a rule or leaves no deal that fits. None for a blank line."""
        from analyzer.analysis import check_fits
        from analyzer.record import read_event

        item = read_event(self.record, line)
        if item is None:
            return None
        candidate, game = self._with_body([*self.record.body, item])
        check_fits(game)
        self._keep(candidate, game)
        return candidate.body[-1]

    def undo(self) -> Event | Comment | None:
        """Take the last line entered back (an event or a comment); None when there is none."""
        if not self.record.body:
            return None
        last = self.record.body[-1]
        self._keep(*self._with_body(self.record.body[:-1]))
        return last

    def _with_body(self, body: list[Event | Comment]) -> tuple[Record, Game]:
        """The record with this body as the file will read back (in canonical form), replayed:
        a rule broken raises here."""
        from analyzer import record as fish
        from analyzer.replay import replay

        record = fish.loads(fish.dumps(replace(self.record, body=body)), str(self.path))
        return record, replay(record)

    def _keep(self, record: Record, game: Game) -> None:
        self.save(record)  # first: an entry the file does not hold is not kept
        self.record, self.game = record, game

    @property
    def number(self) -> int:
        """The number of the next event."""
        return len(self.game.events) + 1

    def status(self) -> str:
        """Whose turn it is and the score, as the table would say it."""
        step = self.game.final
        a, b = step.score
        teams = self.record.table.teams
        score = f"team 1 ({' '.join(teams[0])}) {a}, team 2 ({' '.join(teams[1])}) {b}"
        if self.game.finished:
            winner = self.game.winner()
            result = "a tie" if winner is None else f"team {winner} wins"
            return f"the game is over: {score}, {result}"
        turn = f"{step.turn} to ask" if step.turn else "anyone may start"
        n = len(self.game.events)
        return f"{'after the deal' if n == 0 else f'after event {n}'}: {turn}; {score}"

    def prompt(self) -> str:
        step = self.game.final
        a, b = step.score
        who = "game over" if self.game.finished else f"{step.turn}'s turn" if step.turn else "first move"
        return f"{self.number}. [{who}, {a}–{b}] > "

    def who_has(self, card_text: str) -> str:
        """Who can hold a card now, as the whole table sees it."""
        from analyzer.game_text import left_play
        from analyzer.wording import either

        card = parse_card_arg(card_text, self.game)
        gone = left_play(self.game, len(self.game.events), card)
        if gone is not None:
            return gone
        holders = self.public_holders()[card]
        if len(holders) == 1:
            return f"{card.pretty} is with {holders[0]} (known to everyone)"
        return f"{card.pretty} can be with {either(holders)}"

    def claims(self) -> list[str]:
        """The books the whole table can see a team could claim now, with the declaration."""
        from analyzer.knowledge import PUBLIC
        from analyzer.tactics import claimable

        found = claimable(self.game, self.public_holders(), PUBLIC)
        return [f"team {c.team}: {c.declaration()}" for c in found]

    def public_holders(self) -> dict[Card, tuple[str, ...]]:
        from analyzer.analysis import solve_position
        from analyzer.knowledge import PUBLIC, ViewTracker

        _, holders = solve_position(ViewTracker(self.game, PUBLIC), len(self.game.events))
        return holders

    # -- what completion offers

    def words(self, before: list[str]) -> Iterable[str]:
        """The words that may come next after ``before`` (names, verbs, cards, books, answers)."""
        record = self.record
        players = record.players
        in_play = [c.code for c in record.rules.deck.cards if c not in self.claimed_cards()]
        books = [b.name for b in record.rules.deck.books if b.name not in self.game.final.books]
        if not before:
            return [*players, *COMMANDS]
        first = before[0].lower()
        if first == "who-has":
            return in_play
        if len(before) == 1:
            return ["asks", "claims", "passes"]
        verb = before[1].lower()
        if verb == "asks":
            return [*players, "for", *in_play, "yes", "no"]
        if verb in ("claims", "declares"):
            cards = [c.code for b in record.rules.deck.books if b.name in books for c in b.cards]
            return [*books, *players, *cards, "correct", "wrong", "actual", "forfeited", "to", "team"]
        return ["to", *players]

    def claimed_cards(self) -> set[Card]:
        return {c for r in self.game.final.books.values() for c in r.book.cards}


def new_record(path: Path, ask: Callable[[str, str], str], say: Callable[[str], None]) -> Record:
    """The header of a new record, asked field by field; each answer is checked as the reader
    checks it, and asked again until it reads."""
    from analyzer import record as fish

    lines: list[str] = []

    stopping = [False]  # (a first Ctrl-C clears the answer, a second one in a row ends)

    def field(label: str, key: str, default: str = "", optional: bool = True) -> None:
        while True:
            try:
                answer = ask(label, default).strip() or default
            except KeyboardInterrupt:
                # One Ctrl-C threw away every answer given: a scorer clearing a typo in the fifth
                # hand lost the four before. Now it clears the answer being typed.
                if stopping[0]:
                    raise
                stopping[0] = True
                say("  (the answer is cleared; Ctrl-C again, or Ctrl-D, stops without writing a record)")
                continue
            stopping[0] = False
            if not answer and optional:
                return
            trial = [*lines, f"{key}: {answer}"]
            try:
                fish.loads("\n".join(trial) + "\n", str(path))
            except HalfsuitError as exc:
                say(f"  {exc.message}")
                continue
            lines.append(f"{key}: {answer}")
            return

    field("Teams (first team vs second, in seat order: Anna Ben Cara vs Dev Eli Fay)", "Teams", optional=False)
    field("Rules (literature or fish)", "Rules", "literature")
    field("Deck (standard, no-2s, no-7s, jokers or ranks)", "Deck", "standard")
    field("Bluffing allowed (yes or no)", "Bluffing", "no")
    field("House rules, comma-separated (Enter for none)", "House")
    field("Title (Enter for none)", "Title")
    record = fish.loads("\n".join(lines) + "\n", str(path))
    for player in record.players:
        field(f"Hand {player}: the cards dealt, if known (Enter if not)", f"Hand {player}")
    return fish.loads("\n".join(lines) + "\n", str(path))


def _described(item: Event | Comment, number: int) -> str:
    from analyzer.record import Comment, event_text

    if isinstance(item, Comment):
        return f"# {item.text}"
    text = f"{number}. {event_text(item)}"
    return text + (f"  # {item.comment}" if item.comment else "")


def run(
    scoring: Scoring, read: Callable[[str], str], say: Callable[[str], None], line: Callable[[], int] | None = None
) -> int:
    """The scoring loop: one line at a time until ``quit`` or end of input (EOFError). Returns the
    exit status of the worst line refused (0: none); ``line`` gives the number of the line just
    read, for input piped in, where a refusal names it."""
    say(scoring.status())
    worst = 0
    while True:
        try:
            text = read(scoring.prompt()).strip()
        except KeyboardInterrupt:
            continue  # Ctrl-C drops the line being typed
        except EOFError:
            break
        word = text.split(maxsplit=1)[0].lower() if text else ""
        rest = text[len(word) :].strip()
        where = f"line {line()}: " if line is not None else ""
        try:
            if word in ALONE and rest:  # ("undo 3" undid one line, and said nothing of the 3)
                say(f"{where}'{word}' takes nothing after it: write '{word}' alone; nothing was done")
                worst = max(worst, 2)
                continue
            if word in ("quit", "exit"):
                break
            if word == "help":
                say(HELP)
            elif word == "status":
                say(scoring.status())
            elif word == "undo":
                gone = scoring.undo()
                say("nothing to undo" if gone is None else f"undone: {_described(gone, scoring.number)}")
                say(scoring.status())
            elif word in ("who-has", "who"):
                card = rest.split()[-1] if rest else ""
                try:
                    say(scoring.who_has(card) if card else "which card? e.g. who-has 7S")
                except UsageError as exc:  # a question, not an entry: nothing to refuse
                    say(exc.message)
            elif word == "claims":
                found = scoring.claims()
                say("\n".join(found) if found else "no book is claimable as the whole table sees it")
            elif text and " " not in text and (hint := did_you_mean(word, (*COMMANDS, "exit"))):
                say(f"{where}refused: '{text}' is not a word the scorer knows{hint}; nothing was kept")
                worst = max(worst, 2)
            else:
                number = scoring.number
                item = scoring.enter(text)
                if item is not None:
                    say(f"ok {_described(item, number)}")
                    say(scoring.status())
        except OutputError as exc:
            say(f"{where}not saved: {exc}; nothing was kept")
            worst = max(worst, exc.exit_code)
        except HalfsuitError as exc:
            col = f" (column {exc.col})" if isinstance(exc, RecordSyntaxError) and exc.col else ""
            say(f"{where}refused: {exc.message.rstrip('.')}{col}; nothing was kept")
            worst = max(worst, exc.exit_code)
    return worst


# Words of the scorer that take nothing after them.
ALONE = ("quit", "exit", "help", "status", "undo", "claims")


def completer(scoring: Scoring) -> Completer:
    """Completion of the words that may come next, from the game as it stands."""
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.document import Document

    class Words(Completer):
        def get_completions(self, document: Document, complete_event: object) -> Iterator[Completion]:
            word = document.get_word_before_cursor(WORD=True)
            before = document.text_before_cursor[: len(document.text_before_cursor) - len(word)]
            if "#" in before or word.startswith("#"):
                return  # a comment is free text
            tokens = [t for t in before.replace(":", " ").replace(",", " ").split() if not t.rstrip(".").isdigit()]
            for w in dict.fromkeys(scoring.words(tokens)):
                if w.lower().startswith(word.lower()):
                    yield Completion(w, -len(word))

    return Words()


RecordArg = Annotated[
    Path,
    typer.Argument(metavar="RECORD", help="The record to write (.fish): a new file, or a partial record to continue."),
]


def register(app: typer.Typer) -> None:
    app.command("score")(score_cmd)


@handles_errors
def score_cmd(path: RecordArg) -> None:
    """Score a game at the table: the teams (and hands, if known), then one event a line.

    Each event is checked against the rules the moment it is entered and refused with the reason
    (nothing is lost). 'who-has 7S' and 'claims' show what the whole table knows; 'undo' takes
    the last line back; 'quit' or Ctrl-D ends. The file is rewritten in canonical form after every
    line, so a crash or a closed terminal loses nothing. Lines piped in are read the same way.
    """
    from analyzer.wording import plural

    if str(path) == "-":  # everywhere else standard input: here it would name a file "-"
        raise UsageError("the scorer writes a file as the game goes: give its path, not -")
    if path.suffix.lower() == ".json":
        raise UsageError("the scorer writes the .fish text form: give a .fish file", path=str(path))
    if path.is_dir():
        raise UsageError(f"{path} is a folder, not a record", path=str(path))
    read = _terminal() if sys.stdin.isatty() else _piped

    def say(text: str) -> None:
        # A path or a name never steers the terminal; on one, a long line breaks between words,
        # as every command's does (the terminal broke "are n" / "ot in Anna's hand").
        from .terminal import line_breaks, width

        for line in visible(text).split("\n"):
            spans = line_breaks(line, width()) if sys.stdout.isatty() else [(0, len(line), 0)]
            for start, end, column in spans:
                print(" " * column + line[start:end], flush=True)

    if path.exists() and path.stat().st_size > 0:
        scoring = Scoring.resume(path)
        say(f"continuing {path}: {plural(len(scoring.game.events), 'event')} so far")
    else:
        try:
            scoring = Scoring(path, new_record(path, lambda label, default: read(_asked(label, default), None), say))
        except EOFError:
            say("no record written: the input ended before the header (teams, rules, hands) was complete")
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            say("no record written")
            raise  # "interrupted", exit 130, as for every command
        scoring.save()
        say(f"writing {path}; 'help' lists what you can enter")
    piped = read is _piped
    worst = run(scoring, lambda message: read(message, scoring), say, (lambda: _piped.lines) if piped else None)
    say(f"saved {path}: {plural(len(scoring.game.events), 'event')}")
    if worst and piped:  # (a script learns that some lines were refused; at the table, the scorer saw each)
        raise typer.Exit(worst)


Reader = Callable[[str, "Scoring | None"], str]


def _asked(label: str, default: str) -> str:
    return f"{label}{f' [{default}]' if default else ''}: "


class _Piped:
    """Lines from a pipe or a file (no prompt, no completion), counted; EOFError at the end."""

    def __init__(self) -> None:
        self.lines = 0

    def __call__(self, message: str, scoring: Scoring | None) -> str:
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        self.lines += 1
        return line


_piped = _Piped()


def _terminal() -> Reader:
    """A line reader on prompt_toolkit, with completion of what may come next once a game is on."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import DummyCompleter

    session: PromptSession[str] = PromptSession()
    words: list[Completer] = []

    def read(message: str, scoring: Scoring | None) -> str:
        if scoring is None:  # the header: free text
            return session.prompt(message, completer=DummyCompleter())
        if not words:
            words.append(completer(scoring))
        return session.prompt(message, completer=words[0], complete_while_typing=True)

    return read
